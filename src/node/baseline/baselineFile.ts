/**
 * The baseline file (`.neardup-baseline.json`, or where `--write-baseline` / `.neardup.json`'s
 * `baseline` put it), shared by the CLI and the engine: what it holds and its checks, its text
 * (one pair a line, sorted: a baseline kept in version control shows a readable diff), the
 * settings it records, and which of a report's pair keys it holds.
 */
import { escapeJsonControls } from '../../core/report/jsonEscape';
import type { EngineSettings } from '../settings/engineSettings';

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

export type RecordedSettings = Pick<EngineSettings, (typeof RECORDED)[number]>;

export interface BaselineEntry {
  kind: 'file' | 'section';
  /** The two paths, sorted (for a reader of the file; the key decides). */
  paths: [string, string];
  key: string;
}

/**
 * A baseline's settings: the recorded ones, and `locate: true` when the CLI wrote it from a report
 * holding located copies, or the editor's *Add to baseline* added a located copy to it (absent:
 * written without them, or by an older version).
 */
export type BaselineSettings = Partial<RecordedSettings> & { locate?: boolean };

export interface Baseline {
  version: 1;
  tool: 'neardup';
  settings: BaselineSettings;
  pairs: BaselineEntry[];
}

export function recordedSettings(settings: EngineSettings): RecordedSettings {
  const out = {} as Record<string, unknown>;
  for (const k of RECORDED) out[k] = settings[k];
  return out as RecordedSettings;
}

/** An entry for a pair: its paths sorted. */
export function baselineEntry(kind: 'file' | 'section', pathA: string, pathB: string, key: string): BaselineEntry {
  return { kind, paths: pathA <= pathB ? [pathA, pathB] : [pathB, pathA], key };
}

/** The baseline file's text: its entries sorted (the same pairs give the same bytes). */
export function baselineText(entries: readonly BaselineEntry[], settings: BaselineSettings): string {
  const pairs = [...entries];
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  pairs.sort((x, y) => cmp(x.paths[0], y.paths[0]) || cmp(x.paths[1], y.paths[1]) || cmp(x.kind, y.kind) || cmp(x.key, y.key));
  const head = JSON.stringify({ version: 1, tool: 'neardup', settings }, null, 2).replace(/\n}$/, '');
  const lines = pairs.map((p) => '    ' + JSON.stringify({ kind: p.kind, paths: p.paths, key: p.key }));
  return escapeJsonControls(`${head},\n  "pairs": [${lines.length ? `\n${lines.join(',\n')}\n  ` : ''}]\n}\n`);
}

/** A parsed baseline, or why the text is not one (without the file's name). */
export function parseBaseline(text: string): { ok: true; baseline: Baseline } | { ok: false; why: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, why: 'not JSON' };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, why: 'not a NearDup baseline' };
  const o = data as Record<string, unknown>;
  if (o.tool !== 'neardup' || !Array.isArray(o.pairs)) return { ok: false, why: 'not a NearDup baseline' };
  if (o.version !== 1) return { ok: false, why: `version ${JSON.stringify(o.version) ?? 'missing'} is not supported` };
  for (let i = 0; i < o.pairs.length; i++) {
    const x = o.pairs[i] as Partial<BaselineEntry> | null;
    const ok =
      typeof x === 'object' && x !== null &&
      (x.kind === 'file' || x.kind === 'section') &&
      typeof x.key === 'string' && /^[0-9a-f]{32}$/.test(x.key) &&
      Array.isArray(x.paths) && x.paths.length === 2 && x.paths.every((p) => typeof p === 'string');
    if (!ok) return { ok: false, why: `pairs[${i}] is not a pair` };
  }
  const settings = typeof o.settings === 'object' && o.settings !== null && !Array.isArray(o.settings) ? (o.settings as BaselineSettings) : {};
  return { ok: true, baseline: { version: 1, tool: 'neardup', settings, pairs: o.pairs as BaselineEntry[] } };
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
export function matchBaseline(keys: readonly string[], baseline: Baseline): boolean[] {
  const left = new Map<string, number>();
  for (const e of baseline.pairs) left.set(e.key, (left.get(e.key) ?? 0) + 1);
  return keys.map((key) => {
    const n = left.get(key) ?? 0;
    if (n === 0) return false;
    left.set(key, n - 1);
    return true;
  });
}

/** The baseline with these entries added (an entry whose key and paths it already holds is not added twice). */
export function withEntries(baseline: Baseline | undefined, entries: readonly BaselineEntry[], settings: RecordedSettings): { baseline: Baseline; added: number } {
  const pairs = [...(baseline?.pairs ?? [])];
  const have = new Set(pairs.map((e) => `${e.key}\0${e.paths.join('\0')}`));
  let added = 0;
  for (const e of entries) {
    const id = `${e.key}\0${e.paths.join('\0')}`;
    if (have.has(id)) continue;
    have.add(id);
    pairs.push(e);
    added++;
  }
  // A baseline written with other settings keeps them (its keys were made with them).
  return { baseline: { version: 1, tool: 'neardup', settings: baseline ? baseline.settings : settings, pairs }, added };
}
