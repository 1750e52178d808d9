/**
 * The baselines of the extension's engine: per workspace folder the baseline file its project
 * config names, read (on `setBaselines`: at start, when a config changes, when the file changes on
 * disk), and the twins of the report's items that it holds marked `baseline: true` as they leave
 * the engine (the host hides or dims them, `neardup.baseline.show`). *Add to baseline*: the
 * entries of the pairs the user picked, merged into the file's text (the host writes it).
 * Keys are those of the CLI (pairIdentity.ts), paths relative to the folder; a located copy's
 * sides (a twin `located`) by their tokens, the content keys the engine's region index made when it
 * found them (RegionIndex.sideKey), as `neardup scan` keys them: a baseline written by either marks
 * the other's located copies, and one that gets a located copy records `"locate": true`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DocumentFingerprint } from '../../core/types';
import type { EngineSettings } from '../settings/engineSettings';
import { baselineEntry, baselineText, parseBaseline, recordedSettings, withEntries, type Baseline, type BaselineEntry } from './baselineFile';
import { fileSide, locatedSide, pairKey, sectionSide } from './pairIdentity';

/** A place as the engine's view has it: an absolute path, lines for a section. */
export interface MarkLocation {
  path: string;
  startLine?: number;
  endLine?: number;
}

interface MarkItem {
  kind: 'file' | 'section';
  loc: MarkLocation;
  /** `located`: the pair is a located copy (its sides keyed by their tokens, as the CLI does). */
  twins: Array<MarkLocation & { baseline?: boolean; located?: boolean }>;
}

/** A pair *Add to baseline* records: a located copy's sides are keyed by their tokens. */
export interface MarkPair {
  kind: 'file' | 'section';
  a: MarkLocation;
  b: MarkLocation;
  located?: boolean;
}

/** A workspace folder and the baseline file its config names (absolute paths). */
export interface BaselineSource {
  root: string;
  file: string;
}

interface Loaded extends BaselineSource {
  keys: Set<string>;
}

export class BaselineMarks {
  private loaded: Loaded[] = [];
  /** Section sides already hashed, valid while their document is the same object. */
  private readonly sides = new Map<string, { doc: DocumentFingerprint; id: string }>();
  /** Pair keys already hashed, by their kind and sides (a side names its content). */
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly docOf: (absPath: string) => DocumentFingerprint | undefined,
    private readonly settings: () => EngineSettings | undefined,
    /** A located side's content key (the engine's located copies: RegionIndex.sideKey), when known. */
    private readonly locatedKeyOf: (absPath: string, startLine: number, endLine: number) => string | undefined = () => undefined,
  ) {}

  /** Reads the baselines; one message per file that cannot be used (a missing file is an empty baseline). */
  load(sources: readonly BaselineSource[]): string[] {
    const problems: string[] = [];
    this.loaded = [];
    this.sides.clear();
    this.keys.clear();
    for (const s of sources) {
      const read = readBaselineFile(s.file);
      if ('problem' in read) {
        problems.push(read.problem);
        continue;
      }
      this.loaded.push({ root: path.resolve(s.root), file: path.resolve(s.file), keys: new Set(read.baseline?.pairs.map((e) => e.key) ?? []) });
    }
    // Nested folders: the innermost folder's baseline decides.
    this.loaded.sort((a, b) => b.root.length - a.root.length);
    return problems;
  }

  /** Some baseline holds a pair (else nothing is marked). */
  get active(): boolean {
    return this.loaded.some((l) => l.keys.size > 0);
  }

  /** The items with the twins their folder's baseline holds marked (the same array when none is). */
  mark<T extends MarkItem>(items: T[]): T[];
  mark<T extends MarkItem>(items: T[] | undefined): T[] | undefined;
  mark<T extends MarkItem>(items: T[] | undefined): T[] | undefined {
    if (!items || !this.active) return items;
    return items.map((item) => {
      const base = this.baselineOf(item.loc.path);
      if (!base || base.keys.size === 0) return item;
      let changed = false;
      const twins = item.twins.map((t) => {
        const key = this.keyOf(base.root, item.kind, item.loc, t, t.located === true);
        if (key === undefined || !base.keys.has(key)) return t;
        changed = true;
        return { ...t, baseline: true };
      });
      return changed ? { ...item, twins } : item;
    });
  }

  /**
   * *Add to baseline*: the baseline file of the folder holding the pairs and its new text, or why
   * not. `file`: where the folder's config wants it (its `baseline`, or the default name).
   */
  addPairs(root: string, file: string, pairs: readonly MarkPair[]): { text: string; added: number } | { problem: string } {
    const settings = this.settings();
    if (!settings) return { problem: 'the engine is not initialised' };
    const rootAbs = path.resolve(root);
    const entries: BaselineEntry[] = [];
    for (const p of pairs) {
      const key = this.keyOf(rootAbs, p.kind, p.a, p.b, p.located === true);
      if (key === undefined) return { problem: 'both places of a pair must be in the folder of the baseline' };
      entries.push(baselineEntry(p.kind, relative(rootAbs, p.a.path)!, relative(rootAbs, p.b.path)!, key));
    }
    const read = readBaselineFile(path.resolve(file));
    if ('problem' in read) return read;
    const { baseline, added } = withEntries(read.baseline, entries, recordedSettings(settings));
    // A baseline that holds located copies says so, as the CLI's does (`"locate": true`: the CLI
    // then does not take its located copies for ones it was written without).
    const recorded = pairs.some((p) => p.located) && baseline.settings.locate !== true ? { ...baseline.settings, locate: true } : baseline.settings;
    return { text: baselineText(baseline.pairs, recorded), added };
  }

  private baselineOf(absPath: string): Loaded | undefined {
    return this.loaded.find((l) => relative(l.root, absPath) !== undefined);
  }

  private keyOf(root: string, kind: 'file' | 'section', a: MarkLocation, b: MarkLocation, located: boolean): string | undefined {
    const sa = this.sideOf(root, a, located);
    const sb = this.sideOf(root, b, located);
    if (sa === undefined || sb === undefined) return undefined;
    const at = `${kind}\0${sa}\0\0${sb}`;
    let key = this.keys.get(at);
    if (key === undefined) {
      if (this.keys.size > 200_000) this.keys.clear();
      key = pairKey(kind, sa, sb);
      this.keys.set(at, key);
    }
    return key;
  }

  /** A pair's side: a file's by its path; a section's by its content, a located side's by its tokens (pairIdentity.ts locatedSide, the CLI's). */
  private sideOf(root: string, loc: MarkLocation, located: boolean): string | undefined {
    const rel = relative(root, loc.path);
    if (rel === undefined) return undefined;
    if (loc.startLine === undefined) return fileSide(rel);
    if (located) {
      const lines = { startLine: loc.startLine, endLine: loc.endLine ?? loc.startLine };
      return locatedSide(rel, this.locatedKeyOf(loc.path, lines.startLine, lines.endLine), lines);
    }
    const doc = this.docOf(loc.path);
    const at = `${root}\0${loc.path}\0${loc.startLine}\0${loc.endLine}`;
    const cached = this.sides.get(at);
    if (cached && doc && cached.doc === doc) return cached.id;
    const lines = { startLine: loc.startLine, endLine: loc.endLine ?? loc.startLine };
    const section = doc?.sections.find((s) => s.startLine === loc.startLine && s.endLine === loc.endLine);
    const id = sectionSide(rel, section, lines);
    if (this.sides.size > 200_000) this.sides.clear();
    if (doc) this.sides.set(at, { doc, id });
    return id;
  }
}

/**
 * The path relative to the folder with `/`, or undefined when it is not inside it. Both are
 * absolute and normalised (the engine's paths, path.resolve'd roots): a prefix test, which costs
 * far less than path.relative on every twin of every report.
 */
function relative(root: string, absPath: string): string | undefined {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (absPath.length <= prefix.length || !absPath.startsWith(prefix)) return undefined;
  const rel = absPath.slice(prefix.length);
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}

/** A baseline file's content (none: the file does not exist yet), or one message naming it. */
function readBaselineFile(file: string): { baseline?: Baseline } | { problem: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: `cannot read baseline ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
  }
  const parsed = parseBaseline(text);
  return parsed.ok ? { baseline: parsed.baseline } : { problem: `invalid baseline ${file}: ${parsed.why}` };
}
