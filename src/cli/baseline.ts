/**
 * Baselines (`--write-baseline FILE`, `--baseline FILE`) in the CLI: the identities of a scan's
 * pairs (node/baseline/pairIdentity.ts, the one definition the engine's *Add to baseline* shares;
 * also the fingerprint of SARIF and Code Climate issues), the baseline file read with one-line
 * messages and written atomically (its text: node/baseline/baselineFile.ts), and the split of a
 * report into the pairs the baseline holds and the new ones.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Location, ReportGroup, ReportPair } from '../core/report/report';
import { baselineEntry, baselineText as entriesText, matchBaseline as matchKeys, parseBaseline, recordedSettings, type Baseline } from '../node/baseline/baselineFile';
import { fileSide, locatedSide, pairKey, sectionSide } from '../node/baseline/pairIdentity';
import type { EngineSettings } from '../node/settings/engineSettings';
import type { ScanResult } from '../node/scan/scan';
import { sanitizeForTerminal } from './sanitize';

export { changedSettings, type Baseline, type BaselineEntry } from '../node/baseline/baselineFile';

/** The identity of one reported pair. */
export interface PairIdentity {
  /** 32 hex digits: the same for a↔b and b↔a, across runs, line shifts and unrelated edits. */
  key: string;
  /** The identity of each side (`a`, then `b`): its path, and for a section its content hash. */
  sides: [string, string];
}

/** What the report says about a baseline: `{ file, matched, new }` (JSON `baseline`). */
export interface BaselineSummary {
  file: string;
  matched: number;
  new: number;
}

/** A baseline file that is missing, unreadable or not a NearDup baseline (exit code 2). */
export class BaselineError extends Error {}

/** The identities of the result's pairs, in their order. */
export function pairIdentities(result: Pick<ScanResult, 'pairs' | 'documents' | 'locatedSides'>): PairIdentity[] {
  const byPath = new Map(result.documents.map((d) => [d.path, d.doc]));
  const sideCache = new Map<string, string>();
  const side = (loc: Location, located: boolean): string => {
    if (loc.startLine === undefined) return fileSide(loc.path);
    const lines = { startLine: loc.startLine, endLine: loc.endLine! };
    const at = `${loc.path}\0${loc.startLine}\0${loc.endLine}`;
    if (located) return locatedSide(loc.path, result.locatedSides?.get(at), lines);
    let id = sideCache.get(at);
    if (id === undefined) {
      // Without its fingerprint (never in a scan's own result) a section falls back on its lines.
      const s = byPath.get(loc.path)?.sections.find((x) => x.startLine === loc.startLine && x.endLine === loc.endLine);
      id = sectionSide(loc.path, s, lines);
      sideCache.set(at, id);
    }
    return id;
  };
  return result.pairs.map((p) => {
    const a = side(p.a, p.located === true);
    const b = side(p.b, p.located === true);
    return { key: pairKey(p.kind, a, b), sides: [a, b] };
  });
}

/**
 * The baseline file's text: every pair of the result, sorted (the same pairs give the same bytes);
 * a result with located copies (its `locatedSides`) is recorded as `"locate": true`.
 */
export function baselineText(result: Pick<ScanResult, 'pairs' | 'locatedSides'>, ids: readonly PairIdentity[], settings: EngineSettings): string {
  const recorded = recordedSettings(settings);
  return entriesText(result.pairs.map((p, i) => baselineEntry(p.kind, p.a.path, p.b.path, ids[i].key)), result.locatedSides ? { ...recorded, locate: true } : recorded);
}

/**
 * How many of the report's located copies are new to a baseline that was written without them: it
 * does not record `"locate": true` (written with --no-locate, before located copies were the CLI's
 * default, or by the editor's *Add to baseline* from plain pairs only), holds none of the located pairs and some other
 * pair. 0 when it records them, holds one of them, or holds nothing this scan reports (then every
 * pair is new alike).
 */
export function locatedNewToBaseline(pairs: readonly Pick<ReportPair, 'located'>[], inBaseline: readonly boolean[], baseline: Baseline): number {
  if (baseline.settings.locate === true) return 0;
  let located = 0;
  let otherKnown = false;
  for (let i = 0; i < pairs.length; i++) {
    if (pairs[i].located !== true) otherKnown ||= inBaseline[i];
    else if (inBaseline[i]) return 0;
    else located++;
  }
  return otherKnown ? located : 0;
}

/** Writes the baseline where asked, atomically: a temporary file beside it, then a rename. */
export function writeBaseline(file: string, text: string): void {
  const abs = path.resolve(file);
  const tmp = path.join(path.dirname(abs), `.${path.basename(abs)}.${process.pid}.tmp`);
  let created = false;
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
    created = true;
    fs.renameSync(tmp, abs);
  } catch (e) {
    if (created) fs.rmSync(tmp, { force: true });
    throw new BaselineError(`cannot write baseline ${sanitizeForTerminal(file)}: ${reasonOf(e)}`);
  }
}

function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'is a folder';
  return sanitizeForTerminal(code ?? (e as Error).message ?? String(e));
}

/** Reads and checks a baseline file; a BaselineError (one line naming the file) when it cannot be used. */
export function readBaseline(file: string): Baseline {
  const name = sanitizeForTerminal(file);
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), 'utf8');
  } catch (e) {
    throw new BaselineError(`cannot read baseline ${name}: ${reasonOf(e)}`);
  }
  const parsed = parseBaseline(text);
  if (!parsed.ok) throw new BaselineError(`invalid baseline ${name}: ${sanitizeForTerminal(parsed.why)} (write one with --write-baseline)`);
  return parsed.baseline;
}

/** Which pairs the baseline holds (each entry matches one pair of its key; see node/baseline). */
export function matchBaseline(ids: readonly PairIdentity[], baseline: Baseline): boolean[] {
  return matchKeys(ids.map((id) => id.key), baseline);
}

const locationId = (kind: string, loc: Location) => `${kind}\0${loc.path}\0${loc.startLine ?? ''}\0${loc.endLine ?? ''}`;

function groupLocations(g: ReportGroup): Location[] {
  return g.locations ?? g.members.map((p) => ({ path: p }));
}

/**
 * The result with only the pairs not in the baseline, and only the groups that hold one of them
 * (a group of located copies: one of whose places holds a side of a new located pair).
 */
export function onlyNewPairs<R extends Pick<ScanResult, 'pairs' | 'groups'>>(result: R, inBaseline: readonly boolean[]): R {
  const pairs: ReportPair[] = result.pairs.filter((_, i) => !inBaseline[i]);
  const ends = new Set(pairs.filter((p) => !p.located).map((p) => locationId(p.kind, p.a)));
  const newLocated = pairs.filter((p) => p.located);
  const within = (loc: Location, s: Location) => loc.path === s.path && loc.startLine! <= s.startLine! && s.endLine! <= loc.endLine!;
  const groups = result.groups.filter((g) =>
    g.located
      ? groupLocations(g).some((loc) => newLocated.some((p) => within(loc, p.a)))
      : groupLocations(g).some((loc) => ends.has(locationId(g.kind, loc))),
  );
  return { ...result, pairs, groups };
}
