/**
 * GitLab Code Quality (`--format codeclimate`): a JSON array of Code Climate issues, one per copy
 * of each group of near duplicates (GitLab shows an issue at one location, so each copy gets its
 * own, naming the others in `other_locations`): N copies are N issues, not N·(N−1). Pairs that
 * carry their own places (located copies, a file pair's two regions or more) or that no group holds
 * stay one issue per side. Each has `description`, `check_name`, `fingerprint`, `severity` and
 * `location: { path, lines }`, plus the Code Climate `type`, `categories` and `other_locations`.
 *
 * The fingerprint hashes the copy's identity (as the baseline keys a side: its path and, for a
 * section, its content, never lines) with the check, so it is stable across runs, line shifts,
 * unrelated edits and copies joining or leaving its group; copies with one identity are numbered
 * in order, so it is unique within a report (GitLab shows only one issue per fingerprint).
 */
// node:crypto on first use: a run that hashes nothing does not load it at start-up (issue 16).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createHash = (algorithm: string) => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cellRange, describeLines } from '../core/containers/cellLines';
import type { Location } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { PairIdentity } from './baseline';
import { countKinds, describeKinds } from './reporters/cloneKinds';
import { groupedPairs, locKey } from './reporters/pairGroups';
import { escapeJsonControls, sanitizeForTerminal } from './sanitize';

export type CodeClimateSeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

interface Lines {
  begin: number;
  end?: number;
}

export interface CodeClimateIssue {
  type: 'issue';
  check_name: string;
  description: string;
  categories: string[];
  fingerprint: string;
  severity: CodeClimateSeverity;
  location: { path: string; lines: Lines };
  other_locations: Array<{ path: string; lines: Lines }>;
}

/** Line count of a whole file (a file pair's location); undefined when it cannot be read now. */
function lineCount(root: string, relPath: string): number | undefined {
  try {
    const buf = fs.readFileSync(path.join(root, ...relPath.split('/')));
    let n = 0;
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) n++;
    return buf.length > 0 && buf[buf.length - 1] !== 10 ? n + 1 : Math.max(n, 1);
  } catch {
    return undefined;
  }
}

/** Other copies a description names at most (all are in `other_locations`). */
const MAX_NAMED = 5;

export function formatCodeClimate(result: ScanResult, ids: readonly PairIdentity[], severity: CodeClimateSeverity = 'minor'): string {
  const fileLines = new Map<string, number | undefined>();
  const linesOf = (loc: Location): Lines => {
    // A notebook's section: its cell lines are not lines of the JSON file, so the issue is on the
    // whole file and its description names the cell (label).
    if (loc.startLine !== undefined && cellRange(loc).cell === undefined) return { begin: loc.startLine, end: loc.endLine };
    if (loc.startLine !== undefined) loc = { path: loc.path };
    if (!fileLines.has(loc.path)) fileLines.set(loc.path, lineCount(result.root, loc.path));
    const end = fileLines.get(loc.path);
    return end === undefined ? { begin: 1 } : { begin: 1, end };
  };
  const label = (loc: Location) => {
    const p = sanitizeForTerminal(loc.path);
    if (loc.startLine === undefined) return p;
    const r = cellRange(loc);
    return r.cell !== undefined ? `${p} ${describeLines(r)}` : `${p}:${loc.startLine}-${loc.endLine}`;
  };
  const seen = new Map<string, number>();
  /** A fingerprint for `identity` (numbered when it came before in this report). */
  const fingerprintOf = (identity: string): string => {
    const n = seen.get(identity) ?? 0;
    seen.set(identity, n + 1);
    return createHash('sha256').update(`${identity}\0${n}`).digest('hex').slice(0, 32);
  };
  const checkOf = (kind: 'file' | 'section') => (kind === 'file' ? 'neardup/near-duplicate-file' : 'neardup/near-duplicate-section');
  const issues: CodeClimateIssue[] = [];
  const { byGroup, single } = groupedPairs(result);
  // One issue per copy of a group: the others are its other locations.
  for (const [gi, pairIdx] of byGroup) {
    const g = result.groups[gi];
    const locs = g.locations ?? g.members.map((p) => ({ path: p }));
    const pairs = pairIdx.map((i) => result.pairs[i]);
    // Each member's identity: the side of one of its pairs that it is.
    const identity = new Map<string, string>();
    for (const i of pairIdx) {
      const p = result.pairs[i];
      identity.set(locKey(g.kind, p.a), ids[i].sides[0]);
      identity.set(locKey(g.kind, p.b), ids[i].sides[1]);
    }
    const what = g.kind === 'file' ? 'file' : 'section';
    const maxDist = Math.max(...pairs.map((p) => p.distance));
    const minSim = Math.min(...pairs.map((p) => p.similarity));
    // Two copies: their pair's kind and figures; more: the pairs by kind and the extremes.
    const figures =
      pairs.length === 1
        ? `${pairs[0].clone} copy, similarity ${(minSim * 100).toFixed(1)}%, Hamming distance ${maxDist}`
        : `${locs.length} copies, pairs ${describeKinds(countKinds(pairs))}; lowest similarity ${(minSim * 100).toFixed(1)}%, largest Hamming distance ${maxDist}`;
    locs.forEach((here, k) => {
      const others = locs.filter((_, j) => j !== k);
      const named = others.slice(0, MAX_NAMED).map(label).join(', ') + (others.length > MAX_NAMED ? ` and ${others.length - MAX_NAMED} more` : '');
      issues.push({
        type: 'issue',
        check_name: checkOf(g.kind),
        description: `Near-duplicate ${what}: also at ${named} (${figures}).`,
        categories: ['Duplication'],
        fingerprint: fingerprintOf(`${checkOf(g.kind)}\0${identity.get(locKey(g.kind, here)) ?? here.path}`),
        severity,
        location: { path: here.path, lines: linesOf(here) },
        other_locations: others.map((o) => ({ path: o.path, lines: linesOf(o) })),
      });
    });
  }
  // The rest: one issue per side of each pair, naming the other.
  for (const i of single) {
    const pair = result.pairs[i];
    const id = ids[i];
    const what = pair.kind === 'file' ? 'file' : 'section';
    const sim = `similarity ${(pair.similarity * 100).toFixed(1)}%, Hamming distance ${pair.distance}`;
    const sides: Array<[Location, Location, string]> = [
      [pair.a, pair.b, id.sides[0]],
      [pair.b, pair.a, id.sides[1]],
    ];
    for (const [here, there, side] of sides) {
      issues.push({
        type: 'issue',
        check_name: checkOf(pair.kind),
        description: `Near-duplicate ${what}: also at ${label(there)} (${pair.clone} copy, ${sim}).`, // the layout of a group of two's
        categories: ['Duplication'],
        fingerprint: fingerprintOf(`${checkOf(pair.kind)}\0${side}\0${id.key}`),
        severity,
        location: { path: here.path, lines: linesOf(here) },
        other_locations: [{ path: there.path, lines: linesOf(there) }],
      });
    }
  }
  return escapeJsonControls(JSON.stringify(issues, null, 2)) + '\n';
}
