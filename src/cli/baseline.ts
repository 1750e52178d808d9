/**
 * Baselines (`--write-baseline FILE`, `--baseline FILE`): the identity of a pair that survives
 * unrelated edits and line shifts (also the fingerprint of SARIF and Code Climate issues), the
 * baseline file (read and validated, written atomically), and the split of a report into the
 * pairs the baseline holds and the new ones.
 *
 * Identity of a pair: its kind and its two sides, in an order that does not depend on which side
 * the report calls `a`. A side of a file pair is its path; a side of a section pair is its path
 * and a hash of the section's content: its token count and the bottom-k MinHash sketch of its
 * shingle set. Not its lines (lines inserted above move it) nor its SimHash (under
 * `--weighting tfidf` every edit anywhere changes the weights, so the SimHash moves too; the
 * sketch does not depend on the weighting). A renamed file is another path: its pairs are new.
 * A side of a located pair (`--locate`) is its path and the hash of its tokens as read
 * (`ScanResult.locatedSides`): a located range is not a section, but line shifts keep it too.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Location, ReportGroup, ReportPair } from '../core/report/report';
import type { EngineSettings } from '../node/settings/engineSettings';
import type { ScanResult } from '../node/scan/scan';
import { escapeJsonControls, sanitizeForTerminal } from './sanitize';

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

/** The settings a baseline records: those that decide which pairs are found and their identities. */
const RECORDED = [
  'sections',
  'minTokens',
  'maxDistance',
  'sectionMaxDistance',
  'minSimilarity',
  'normalizeIdentifiers',
  'stopWords',
  'weighting',
  'cjkSegmenter',
  'foldVariants',
] as const satisfies ReadonlyArray<keyof EngineSettings>;

type RecordedSettings = Pick<EngineSettings, (typeof RECORDED)[number]>;

export interface BaselineEntry {
  kind: 'file' | 'section';
  /** The two paths, sorted (for a reader of the file; the key decides). */
  paths: [string, string];
  key: string;
}

export interface Baseline {
  version: 1;
  tool: 'neardup';
  settings: Partial<RecordedSettings>;
  pairs: BaselineEntry[];
}

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/** The identities of the result's pairs, in their order. */
export function pairIdentities(result: Pick<ScanResult, 'pairs' | 'documents' | 'locatedSides'>): PairIdentity[] {
  const byPath = new Map(result.documents.map((d) => [d.path, d.doc]));
  const sideCache = new Map<string, string>();
  const side = (loc: Location, located: boolean): string => {
    if (loc.startLine === undefined) return loc.path;
    const at = `${loc.path}\0${loc.startLine}\0${loc.endLine}`;
    if (located) return `${loc.path}\0${result.locatedSides?.get(at) ?? `region-lines:${loc.startLine}-${loc.endLine}`}`;
    let id = sideCache.get(at);
    if (id === undefined) {
      const s = byPath.get(loc.path)?.sections.find((x) => x.startLine === loc.startLine && x.endLine === loc.endLine);
      // Without its fingerprint (never in a scan's own result) a section falls back on its lines.
      const content = s
        ? sha(Buffer.concat([Buffer.from(Uint32Array.of(s.tokens).buffer), Buffer.from(s.sketch.buffer, s.sketch.byteOffset, s.sketch.byteLength)])).slice(0, 24)
        : `lines:${loc.startLine}-${loc.endLine}`;
      id = `${loc.path}\0${content}`;
      sideCache.set(at, id);
    }
    return id;
  };
  return result.pairs.map((p) => {
    const a = side(p.a, p.located === true);
    const b = side(p.b, p.located === true);
    const [x, y] = a <= b ? [a, b] : [b, a];
    return { key: sha(`neardup-pair/1\0${p.kind}\0${x}\0\0${y}`).slice(0, 32), sides: [a, b] };
  });
}

export function recordedSettings(settings: EngineSettings): RecordedSettings {
  const out = {} as Record<string, unknown>;
  for (const k of RECORDED) out[k] = settings[k];
  return out as RecordedSettings;
}

/** The baseline file's text: every pair of the result, sorted (the same pairs give the same bytes). */
export function baselineText(result: Pick<ScanResult, 'pairs'>, ids: readonly PairIdentity[], settings: EngineSettings): string {
  const pairs: BaselineEntry[] = result.pairs.map((p, i) => ({
    kind: p.kind,
    paths: p.a.path <= p.b.path ? [p.a.path, p.b.path] : [p.b.path, p.a.path],
    key: ids[i].key,
  }));
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  pairs.sort((x, y) => cmp(x.paths[0], y.paths[0]) || cmp(x.paths[1], y.paths[1]) || cmp(x.kind, y.kind) || cmp(x.key, y.key));
  // One pair a line, so that a baseline kept in version control shows a readable diff.
  const head = JSON.stringify({ version: 1, tool: 'neardup', settings: recordedSettings(settings) }, null, 2).replace(/\n}$/, '');
  const lines = pairs.map((p) => '    ' + JSON.stringify(p));
  return escapeJsonControls(`${head},\n  "pairs": [${lines.length ? `\n${lines.join(',\n')}\n  ` : ''}]\n}\n`);
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
  const bad = (why: string) => new BaselineError(`invalid baseline ${name}: ${why} (write one with --write-baseline)`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad('not a NearDup baseline');
  const o = data as Record<string, unknown>;
  if (o.tool !== 'neardup' || !Array.isArray(o.pairs)) throw bad('not a NearDup baseline');
  if (o.version !== 1) throw bad(`version ${sanitizeForTerminal(JSON.stringify(o.version) ?? 'missing')} is not supported`);
  o.pairs.forEach((e: unknown, i) => {
    const x = e as Partial<BaselineEntry> | null;
    const ok =
      typeof x === 'object' && x !== null &&
      (x.kind === 'file' || x.kind === 'section') &&
      typeof x.key === 'string' && /^[0-9a-f]{32}$/.test(x.key) &&
      Array.isArray(x.paths) && x.paths.length === 2 && x.paths.every((p) => typeof p === 'string');
    if (!ok) throw bad(`pairs[${i}] is not a pair`);
  });
  const settings = typeof o.settings === 'object' && o.settings !== null && !Array.isArray(o.settings) ? (o.settings as Partial<RecordedSettings>) : {};
  return { version: 1, tool: 'neardup', settings, pairs: o.pairs as BaselineEntry[] };
}

/** The recorded settings that differ from this run's (as option names), for a warning. */
export function changedSettings(baseline: Baseline, settings: EngineSettings): string[] {
  const now = recordedSettings(settings);
  const flag = (k: string) => '--' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  return RECORDED.filter((k) => k in baseline.settings && baseline.settings[k] !== now[k]).map(flag);
}

/**
 * Which pairs the baseline holds: each baseline entry matches one pair of the same key (an entry
 * is used once, so a third copy of an accepted pair of copies is new).
 */
export function matchBaseline(ids: readonly PairIdentity[], baseline: Baseline): boolean[] {
  const left = new Map<string, number>();
  for (const e of baseline.pairs) left.set(e.key, (left.get(e.key) ?? 0) + 1);
  return ids.map((id) => {
    const n = left.get(id.key) ?? 0;
    if (n === 0) return false;
    left.set(id.key, n - 1);
    return true;
  });
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
