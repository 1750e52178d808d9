/**
 * SARIF 2.1.0: one result per group of near duplicates (issue 15: N copies are one finding, not
 * N·(N−1)/2), located on the group's first member with the others as related locations; a group
 * of two is its pair. Pairs that carry their own places (a file pair's two matching
 * regions or more, located copies) stay one result per pair, and so does a pair no group holds.
 */
import type * as sarif from 'sarif';
import { cellRange, describeLines } from '../core/containers/cellLines';
import type { Location, ReportPair } from '../core/report/report';
import { truncatedKinds } from '../node/engine/engineProtocol';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary, PairIdentity } from './baseline';
import { escapeJsonControls, sanitizeForTerminal } from './sanitize';
import { CLONE_KINDS, countKinds, describeKinds } from './reporters/cloneKinds';
import { groupedPairs } from './reporters/pairGroups';

// node:crypto on first use: a run that hashes nothing does not load it at start-up (issue 16).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createHash = (algorithm: string) => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);

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
  // Every pair says how the copy was made (exact, renamed, edited); with --locate a file pair
  // also where its matching regions are.
  const kind = ` ${pair.clone === 'renamed' ? 'A' : 'An'} ${pair.clone} copy.`;
  const regions = pair.regions?.length ? ` Matching regions: ${pair.regions.length} (related locations, on both files).` : '';
  return {
    ruleId: pair.kind === 'file' ? RULE_FILE : RULE_SECTION,
    level: 'warning',
    message: {
      text: `${what} is a near duplicate of ${label(pair.b)} (Hamming distance ${pair.distance}, similarity ${pct}%).${kind}${regions}`,
    },
    locations: [{ physicalLocation: physical(pair.a) }],
    relatedLocations: [{ id: 1, physicalLocation: physical(pair.b), message: { text: 'Near-duplicate twin' } }, ...regionLocations(pair)],
    properties: { distance: pair.distance, similarity: pair.similarity, clone: pair.clone, ...(pair.located ? { located: true } : {}) },
    ...(extras.ids ? { partialFingerprints: { 'neardupPair/v1': extras.ids[i].key } } : {}),
    ...(extras.inBaseline ? { baselineState: extras.inBaseline[i] ? 'unchanged' : 'new' } : {}),
  };
}

/**
 * The results: per group of plain pairs one, in the report's group order; then the pairs left
 * (located, with regions, or in no group) one each, in the report's pair order.
 */
function results(scan: ScanResult, extras: SarifExtras): sarif.Result[] {
  const { byGroup, single } = groupedPairs(scan);
  const out: sarif.Result[] = [];
  for (const [gi, members] of byGroup) {
    out.push(members.length === 1 ? result(scan.pairs[members[0]], members[0], extras) : groupResult(scan, gi, members, extras));
  }
  for (const i of single) out.push(result(scan.pairs[i], i, extras));
  return out;
}

/** One group of N copies: its first place, the N−1 others related, the group's figures; new when one of its pairs is. */
function groupResult(scan: ScanResult, gi: number, pairIdx: number[], extras: SarifExtras): sarif.Result {
  const g = scan.groups[gi];
  const locs = g.locations ?? g.members.map((p) => ({ path: p }));
  const pairs = pairIdx.map((i) => scan.pairs[i]);
  const minSim = Math.min(...pairs.map((p) => p.similarity));
  const maxDist = Math.max(...pairs.map((p) => p.distance));
  // The kinds of its pairs: one kind is the group's (`clone`), several are counted (`clones`).
  const clones = countKinds(pairs);
  const kinds = CLONE_KINDS.filter((k) => clones[k] > 0);
  const clone = kinds.length === 1 ? kinds[0] : undefined;
  const noun = g.kind === 'file' ? 'files' : 'sections';
  const others = locs.slice(1).map(label);
  const kindText = clone ? ` ${clone === 'renamed' ? 'Renamed' : clone === 'exact' ? 'Exact' : 'Edited'} copies.` : ` Copies: ${describeKinds(clones)}.`;
  const keys = extras.ids ? pairIdx.map((i) => extras.ids![i].key).sort() : undefined;
  return {
    ruleId: g.kind === 'file' ? RULE_FILE : RULE_SECTION,
    level: 'warning',
    message: {
      text: `${locs.length} near-duplicate ${noun} (${pairs.length} pairs, largest Hamming distance ${maxDist}, lowest similarity ${(minSim * 100).toFixed(1)}%): this one and ${others.join(', ')}.${kindText}`,
    },
    locations: [{ physicalLocation: physical(locs[0]) }],
    relatedLocations: locs.slice(1).map((loc, k) => ({ id: k + 1, physicalLocation: physical(loc), message: { text: 'Near-duplicate copy' } })),
    properties: { distance: maxDist, similarity: minSim, copies: locs.length, pairs: pairs.length, ...(clone ? { clone } : {}), clones },
    ...(keys ? { partialFingerprints: { 'neardupGroup/v1': createHash('sha256').update(keys.join('\0')).digest('hex').slice(0, 32) } } : {}),
    ...(extras.inBaseline ? { baselineState: pairIdx.every((i) => extras.inBaseline![i]) ? 'unchanged' : 'new' } : {}),
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
        results: results(result_, extras),
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
