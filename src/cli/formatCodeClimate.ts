/**
 * GitLab Code Quality (`--format codeclimate`): a JSON array of Code Climate issues, one per side
 * of each pair (GitLab shows an issue at one location, so each twin gets its own, naming the other),
 * with `description`, `check_name`, `fingerprint`, `severity` and `location: { path, lines }`, plus
 * the Code Climate `type`, `categories` and `other_locations`.
 *
 * The fingerprint hashes the pair's identity (as the baseline keys it: paths and section content,
 * never lines) and which side the issue is on, so it is stable across runs, line shifts and
 * unrelated edits, and unique within a report (GitLab shows only one issue per fingerprint).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cellRange, describeLines } from '../core/containers/cellLines';
import type { Location, ReportPair } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { PairIdentity } from './baseline';
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
  const issues: CodeClimateIssue[] = [];
  result.pairs.forEach((pair: ReportPair, i) => {
    const id = ids[i];
    // The same pair identity twice (copies of copies in one pair of files): numbered, in order.
    const n = seen.get(id.key) ?? 0;
    seen.set(id.key, n + 1);
    const what = pair.kind === 'file' ? 'file' : 'section';
    const sim = `similarity ${(pair.similarity * 100).toFixed(1)}%, Hamming distance ${pair.distance}`;
    const sides: Array<[Location, Location, string]> = [
      [pair.a, pair.b, id.sides[0]],
      [pair.b, pair.a, id.sides[1]],
    ];
    // Which side an issue is on, by identity (not by the report's a/b order); equal sides by order.
    const order = id.sides[0] === id.sides[1] ? [0, 1] : id.sides[0] < id.sides[1] ? [0, 1] : [1, 0];
    sides.forEach(([here, there], s) => {
      issues.push({
        type: 'issue',
        check_name: pair.kind === 'file' ? 'neardup/near-duplicate-file' : 'neardup/near-duplicate-section',
        description: `Near-duplicate ${what} (${pair.clone} copy): also at ${label(there)} (${sim}).`,
        categories: ['Duplication'],
        fingerprint: createHash('sha256').update(`${id.key}\0${order[s]}\0${n}`).digest('hex').slice(0, 32),
        severity,
        location: { path: here.path, lines: linesOf(here) },
        other_locations: [{ path: there.path, lines: linesOf(there) }],
      });
    });
  });
  return escapeJsonControls(JSON.stringify(issues, null, 2)) + '\n';
}
