/**
 * The extension's `neardup.*` settings: their defaults, ranges and validation, and how they map
 * onto the engine. Pure (no vscode): src/extension/settings.ts reads the raw values and calls
 * {@link validateSettings}; package.json's `contributes.configuration` declares the same values
 * (a unit test keeps the two in step).
 */
import { DEFAULT_ENGINE_SETTINGS, SETTING_RANGES, type EngineSettings } from './engineSettings';

export type Severity = 'off' | 'hint' | 'information' | 'warning';

export interface NearDupSettings {
  maxDistance: number;
  sectionMaxDistance: number;
  minTokens: number;
  minSimilarity: number;
  include: string[];
  exclude: string[];
  maxFileSizeKB: number;
  sectionsEnabled: boolean;
  normalizeIdentifiers: boolean;
  cjkSegmenter: 'jieba' | 'bigram';
  foldVariants: boolean;
  weighting: 'none' | 'tf';
  severity: Severity;
  /** Near-duplicate lines marked in the editor's gutter and overview ruler (src/extension/editor). */
  decorationsEnabled: boolean;
  /** A CodeLens above each near-duplicate section (src/extension/editor). */
  codeLensEnabled: boolean;
  /** The active document re-checked as you type, its pairs shown as unsaved (src/extension/live). */
  liveWhileTyping: boolean;
  /** Pairs in the folder's baseline: hidden, shown dimmed, or shown as any other (src/extension/baseline). */
  baselineShow: 'hide' | 'dim' | 'show';
  /** A paste matching a region elsewhere: a notice at its range (`mark`), also in the status bar (`notify`), or nothing (src/extension/live). */
  onPaste: 'mark' | 'notify' | 'off';
  /** A paste is looked at when it inserts at least this many lines. */
  pasteMinLines: number;
  /** Copied blocks located inside files (issue 12; the engine's region index, src/node/engine/regions). */
  locate: boolean;
}

/** Generated and lock files are rarely worth comparing. */
export const DEFAULT_EXCLUDE: readonly string[] = ['**/*.min.*', '**/*.map', '**/package-lock.json', '**/yarn.lock', '**/pnpm-lock.yaml'];

export const SETTINGS_DEFAULTS: Readonly<NearDupSettings> = Object.freeze({
  maxDistance: DEFAULT_ENGINE_SETTINGS.maxDistance,
  sectionMaxDistance: DEFAULT_ENGINE_SETTINGS.sectionMaxDistance,
  minTokens: DEFAULT_ENGINE_SETTINGS.minTokens,
  minSimilarity: DEFAULT_ENGINE_SETTINGS.minSimilarity,
  include: [],
  exclude: [...DEFAULT_EXCLUDE],
  maxFileSizeKB: Math.round(DEFAULT_ENGINE_SETTINGS.maxFileSizeBytes / 1024),
  sectionsEnabled: DEFAULT_ENGINE_SETTINGS.sections,
  normalizeIdentifiers: DEFAULT_ENGINE_SETTINGS.normalizeIdentifiers,
  cjkSegmenter: DEFAULT_ENGINE_SETTINGS.cjkSegmenter,
  foldVariants: DEFAULT_ENGINE_SETTINGS.foldVariants,
  weighting: 'none',
  severity: 'information',
  decorationsEnabled: true,
  codeLensEnabled: true,
  liveWhileTyping: true,
  baselineShow: 'dim',
  onPaste: 'mark',
  pasteMinLines: 5,
  locate: true,
});

type Field = keyof NearDupSettings;

interface IntSpec {
  kind: 'integer' | 'number';
  min: number;
  max: number;
}
interface EnumSpec {
  kind: 'enum';
  values: readonly string[];
}
interface OtherSpec {
  kind: 'boolean' | 'globs';
}
type Spec = (IntSpec | EnumSpec | OtherSpec) & { key: string };

/** Setting id (under `neardup.`) and rule of every field. */
export const SETTINGS_SPEC: Readonly<Record<Field, Spec>> = {
  maxDistance: { key: 'maxDistance', kind: 'integer', ...SETTING_RANGES.maxDistance },
  sectionMaxDistance: { key: 'sectionMaxDistance', kind: 'integer', ...SETTING_RANGES.sectionMaxDistance },
  minTokens: { key: 'minTokens', kind: 'integer', ...SETTING_RANGES.minTokens },
  minSimilarity: { key: 'minSimilarity', kind: 'number', ...SETTING_RANGES.minSimilarity },
  include: { key: 'include', kind: 'globs' },
  exclude: { key: 'exclude', kind: 'globs' },
  maxFileSizeKB: {
    key: 'maxFileSizeKB',
    kind: 'integer',
    min: SETTING_RANGES.maxFileSizeBytes.min / 1024,
    max: SETTING_RANGES.maxFileSizeBytes.max / 1024,
  },
  sectionsEnabled: { key: 'sections.enabled', kind: 'boolean' },
  normalizeIdentifiers: { key: 'code.normalizeIdentifiers', kind: 'boolean' },
  cjkSegmenter: { key: 'cjk.segmenter', kind: 'enum', values: ['jieba', 'bigram'] },
  foldVariants: { key: 'cjk.foldVariants', kind: 'boolean' },
  weighting: { key: 'weighting', kind: 'enum', values: ['none', 'tf'] },
  severity: { key: 'diagnostics.severity', kind: 'enum', values: ['off', 'hint', 'information', 'warning'] },
  decorationsEnabled: { key: 'decorations.enabled', kind: 'boolean' },
  codeLensEnabled: { key: 'codeLens.enabled', kind: 'boolean' },
  liveWhileTyping: { key: 'liveWhileTyping', kind: 'boolean' },
  baselineShow: { key: 'baseline.show', kind: 'enum', values: ['hide', 'dim', 'show'] },
  onPaste: { key: 'onPaste', kind: 'enum', values: ['mark', 'notify', 'off'] },
  pasteMinLines: { key: 'paste.minLines', kind: 'integer', min: 1, max: 10000 },
  locate: { key: 'locate', kind: 'boolean' },
};

export interface SettingWarning {
  /** Full id, e.g. `neardup.maxDistance`. */
  setting: string;
  /** The value as configured (JSON). */
  given: string;
  /** The value used instead (JSON). */
  used: string;
  /** What was wrong. */
  problem: 'type' | 'range' | 'integer' | 'enum' | 'glob';
}

/** Validates raw values (`get` returns undefined for unset ones); never throws. */
export function validateSettings(get: (key: string) => unknown): { values: NearDupSettings; warnings: SettingWarning[] } {
  const values = { ...SETTINGS_DEFAULTS, include: [...SETTINGS_DEFAULTS.include], exclude: [...SETTINGS_DEFAULTS.exclude] } as NearDupSettings;
  const warnings: SettingWarning[] = [];
  const out = values as unknown as Record<string, unknown>;
  for (const field of Object.keys(SETTINGS_SPEC) as Field[]) {
    const spec = SETTINGS_SPEC[field];
    const raw = get(spec.key);
    if (raw === undefined || raw === null) continue;
    const warn = (used: unknown, problem: SettingWarning['problem']) =>
      warnings.push({ setting: `neardup.${spec.key}`, given: show(raw), used: show(used), problem });
    switch (spec.kind) {
      case 'integer':
      case 'number': {
        const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
        if (!Number.isFinite(n)) {
          warn(out[field], 'type');
          break;
        }
        let v = n;
        if (spec.kind === 'integer' && !Number.isInteger(v)) v = Math.round(v);
        const clamped = Math.min(spec.max, Math.max(spec.min, v));
        if (clamped !== v) warn(clamped, 'range');
        else if (v !== n) warn(v, 'integer');
        else if (typeof raw !== 'number') warn(v, 'type');
        out[field] = clamped;
        break;
      }
      case 'boolean':
        if (typeof raw === 'boolean') out[field] = raw;
        else warn(out[field], 'type');
        break;
      case 'enum':
        if (typeof raw === 'string' && spec.values.includes(raw)) out[field] = raw;
        else warn(out[field], 'enum');
        break;
      case 'globs': {
        if (!Array.isArray(raw)) {
          warn(out[field], 'type');
          break;
        }
        const globs = raw.filter((g): g is string => typeof g === 'string' && g.trim() !== '').map((g) => g.trim());
        if (globs.length !== raw.length) warn(globs, 'glob');
        out[field] = globs;
        break;
      }
    }
  }
  return { values, warnings };
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function toEngineSettings(s: NearDupSettings): EngineSettings {
  return {
    ...DEFAULT_ENGINE_SETTINGS,
    minTokens: s.minTokens,
    sections: s.sectionsEnabled,
    normalizeIdentifiers: s.normalizeIdentifiers,
    weighting: s.weighting,
    cjkSegmenter: s.cjkSegmenter,
    foldVariants: s.foldVariants,
    maxDistance: s.maxDistance,
    sectionMaxDistance: s.sectionMaxDistance,
    minSimilarity: s.minSimilarity,
    maxFileSizeBytes: s.maxFileSizeKB * 1024,
  };
}

export interface SettingsChange {
  /** Fingerprints or the file list change: re-index (re-walk; re-read what the cache cannot serve). */
  reindex: boolean;
  /** Only match thresholds change: re-query without reading. */
  thresholds: boolean;
  /** Only the diagnostics' severity (or how baseline pairs show) changes: re-publish. */
  severity: boolean;
  /** The editor's marks or CodeLens were switched on or off: redraw them. */
  editor: boolean;
  /** `neardup.liveWhileTyping` was switched on or off, or `neardup.onPaste` / `neardup.paste.minLines` changed. */
  live: boolean;
}

const REINDEX_FIELDS: Field[] = ['minTokens', 'include', 'exclude', 'maxFileSizeKB', 'sectionsEnabled', 'normalizeIdentifiers', 'cjkSegmenter', 'foldVariants', 'weighting', 'locate'];
const THRESHOLD_FIELDS: Field[] = ['maxDistance', 'sectionMaxDistance', 'minSimilarity'];

export function diffSettings(a: NearDupSettings, b: NearDupSettings): SettingsChange {
  const changed = (f: Field) => JSON.stringify(a[f]) !== JSON.stringify(b[f]);
  return {
    reindex: REINDEX_FIELDS.some(changed),
    thresholds: THRESHOLD_FIELDS.some(changed),
    severity: changed('severity') || changed('baselineShow'),
    editor: changed('decorationsEnabled') || changed('codeLensEnabled'),
    live: changed('liveWhileTyping') || changed('onPaste') || changed('pasteMinLines'),
  };
}

/** Globs of VS Code's `files.exclude` whose value is `true` (conditional `when` entries are not). */
export function enabledGlobs(filesExclude: unknown): string[] {
  if (!filesExclude || typeof filesExclude !== 'object') return [];
  return Object.entries(filesExclude as Record<string, unknown>)
    .filter(([glob, on]) => on === true && glob.trim() !== '')
    .map(([glob]) => glob.replace(/^\.\//, ''));
}
