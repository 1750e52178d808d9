/**
 * SARIF 2.1.0: one result per near-duplicate pair, located on one member and related to the other.
 */
import type * as sarif from 'sarif';
import { cellRange, describeLines } from '../core/containers/cellLines';
import type { Location, ReportPair } from '../core/report/report';
import { truncatedKinds } from '../node/engine/engineProtocol';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary, PairIdentity } from './baseline';
import { escapeJsonControls, sanitizeForTerminal } from './sanitize';

/**
 * What a run adds to the SARIF log: each pair's identity (a `partialFingerprints` entry, stable
 * across runs and line shifts) and, with `--baseline`, which pairs it holds: every result stays,
 * marked `baselineState` "unchanged" (in the baseline) or "new", and the run's properties carry
 * the counts.
 */
export interface SarifExtras {
  ids?: readonly PairIdentity[];
  inBaseline?: readonly boolean[];
  baseline?: BaselineSummary;
}

const RULE_FILE = 'neardup/near-duplicate-file';
const RULE_SECTION = 'neardup/near-duplicate-section';

/** A relative path as a URI reference: each segment percent-encoded (spaces, '#', '%', …). */
function toUri(relPath: string): string {
  return relPath.split('/').map(encodeURIComponent).join('/');
}

function physical(loc: Location): sarif.PhysicalLocation {
  const p: sarif.PhysicalLocation = { artifactLocation: { uri: toUri(loc.path), uriBaseId: '%SRCROOT%' } };
  if (loc.startLine === undefined) return p;
  const r = cellRange(loc);
  if (r.cell === undefined) p.region = { startLine: loc.startLine, endLine: loc.endLine };
  // A notebook's lines are not lines of its JSON file: no region (a viewer opens the notebook);
  // the cell and the lines in it are in the location's property bag and the result's message.
  else p.properties = { cell: r.cell, startLine: r.startLine, endLine: r.endLine };
  return p;
}

function label(loc: Location): string {
  const name = sanitizeForTerminal(loc.path);
  if (loc.startLine === undefined) return name;
  const r = cellRange(loc);
  return r.cell !== undefined ? `${name} ${describeLines(r)}` : `${name}:${loc.startLine}-${loc.endLine}`;
}

/**
 * A file pair's matching regions (`--locate`) as related locations: each region on both files,
 * after the twin (id 1), ids 2, 3, … in pairs.
 */
function regionLocations(pair: ReportPair): sarif.Location[] {
  const out: sarif.Location[] = [];
  (pair.regions ?? []).forEach((r, k) => {
    const text = `Matching region ${k + 1} (${r.clone} copy, similarity ${(r.similarity * 100).toFixed(1)}%)`;
    out.push({ id: 2 + 2 * k, physicalLocation: physical({ path: pair.a.path, ...r.a }), message: { text } });
    out.push({ id: 3 + 2 * k, physicalLocation: physical({ path: pair.b.path, ...r.b }), message: { text } });
  });
  return out;
}

function result(pair: ReportPair, i: number, extras: SarifExtras): sarif.Result {
  const pct = (pair.similarity * 100).toFixed(1);
  const what = pair.kind === 'file' ? 'File' : 'Section';
  // With --locate a pair says how the copy was made (exact, renamed, edited) and, for a file pair,
  // where its matching regions are.
  const kind = pair.clone ? ` ${pair.clone === 'renamed' ? 'A' : 'An'} ${pair.clone} copy.` : '';
  const regions = pair.regions?.length ? ` Matching regions: ${pair.regions.length} (related locations, on both files).` : '';
  return {
    ruleId: pair.kind === 'file' ? RULE_FILE : RULE_SECTION,
    level: 'warning',
    message: {
      text: `${what} is a near duplicate of ${label(pair.b)} (Hamming distance ${pair.distance}, similarity ${pct}%).${kind}${regions}`,
    },
    locations: [{ physicalLocation: physical(pair.a) }],
    relatedLocations: [{ id: 1, physicalLocation: physical(pair.b), message: { text: 'Near-duplicate twin' } }, ...regionLocations(pair)],
    properties: { distance: pair.distance, similarity: pair.similarity, ...(pair.clone ? { clone: pair.clone } : {}), ...(pair.located ? { located: true } : {}) },
    ...(extras.ids ? { partialFingerprints: { 'neardupPair/v1': extras.ids[i].key } } : {}),
    ...(extras.inBaseline ? { baselineState: extras.inBaseline[i] ? 'unchanged' : 'new' } : {}),
  };
}

/** The run's notification when the pairs of a kind reached the cap (what the CLI also prints). */
export function truncationMessage(truncated: { files: boolean; sections: boolean }): string {
  return `too many near-duplicate ${truncatedKinds(truncated)} pairs; the report holds only some of them (exclude generated files with --exclude, or raise --min-tokens).`;
}

export function formatSarif(result_: ScanResult, version: string, extras: SarifExtras = {}): string {
  const rootUri = 'file://' + result_.root.split('/').map(encodeURIComponent).join('/').replace(/\/?$/, '/');
  const log: sarif.Log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'NearDup',
            version,
            informationUri: 'https://github.com/neardup/neardup',
            rules: [
              {
                id: RULE_FILE,
                name: 'NearDuplicateFile',
                shortDescription: { text: 'Near-duplicate file' },
                fullDescription: { text: 'Two files whose 64-bit SimHash fingerprints are within the configured Hamming distance.' },
                defaultConfiguration: { level: 'warning' },
              },
              {
                id: RULE_SECTION,
                name: 'NearDuplicateSection',
                shortDescription: { text: 'Near-duplicate section' },
                fullDescription: { text: 'Two functions, blocks or document sections whose SimHash fingerprints are within the configured Hamming distance.' },
                defaultConfiguration: { level: 'warning' },
              },
            ],
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri } },
        results: result_.pairs.map((p, i) => result(p, i, extras)),
        ...(extras.baseline ? { properties: { baseline: extras.baseline } } : {}),
        ...(result_.truncated
          ? {
              invocations: [
                {
                  executionSuccessful: true,
                  toolExecutionNotifications: [{ level: 'warning', descriptor: { id: 'neardup/truncated' }, message: { text: truncationMessage(result_.truncated) } }],
                },
              ],
            }
          : {}),
      },
    ],
  };
  return escapeJsonControls(JSON.stringify(log, null, 2)) + '\n';
}
