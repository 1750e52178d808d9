import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS } from '../../../src/node/settings/engineSettings';
import {
  diffSettings,
  enabledGlobs,
  SETTINGS_DEFAULTS,
  SETTINGS_SPEC,
  toEngineSettings,
  validateSettings,
} from '../../../src/node/settings/settingsSchema';

const ROOT = path.join(__dirname, '..', '..', '..');
const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(ROOT, rel), 'utf8'));

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The string literals passed to vscode.l10n.t in src/extension. */
function l10nStrings(): string[] {
  const out = new Set<string>();
  for (const f of tsFiles(path.join(ROOT, 'src', 'extension'))) {
    const text = fs.readFileSync(f, 'utf8');
    const re = /l10n\.t\(\s*'((?:[^'\\]|\\.)*)'/g;
    for (let m = re.exec(text); m; m = re.exec(text)) out.add(m[1].replace(/\\'/g, "'"));
    const calls = (text.match(/l10n\.t\(/g) ?? []).length;
    const literal = (text.match(/l10n\.t\(\s*'/g) ?? []).length;
    assert.equal(calls, literal, `${path.relative(ROOT, f)}: every l10n.t call takes a string literal`);
  }
  return [...out];
}

const placeholders = (s: string) => (s.match(/\{\d+\}/g) ?? []).sort().join(',');

describe('extension manifest, localisation and settings', () => {
  const pkg = readJson('package.json');
  const nls = readJson('package.nls.json');
  const nlsZh = readJson('package.nls.zh-cn.json');

  it('every %key% of package.json is in package.nls.json and package.nls.zh-cn.json', () => {
    const keys = new Set<string>();
    const walk = (v: unknown) => {
      if (typeof v === 'string') {
        const m = /^%([^%]+)%$/.exec(v);
        if (m) keys.add(m[1]);
      } else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(pkg);
    assert.ok(keys.size > 20);
    for (const k of keys) {
      assert.ok(typeof nls[k] === 'string' && nls[k].length > 0, `package.nls.json lacks ${k}`);
      assert.ok(typeof nlsZh[k] === 'string' && nlsZh[k].length > 0, `package.nls.zh-cn.json lacks ${k}`);
    }
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nls).sort());
    assert.equal(nls['command.findNearDuplicates'], 'Find near duplicates of this file');
  });

  it('every l10n.t string has a Chinese translation with the same placeholders', () => {
    const zh = readJson('l10n/bundle.l10n.zh-cn.json');
    const strings = l10nStrings();
    assert.ok(strings.length > 30);
    for (const s of strings) {
      assert.ok(typeof zh[s] === 'string', `l10n/bundle.l10n.zh-cn.json lacks "${s}"`);
      assert.equal(placeholders(zh[s]), placeholders(s), `placeholders of "${s}"`);
    }
    for (const k of Object.keys(zh)) assert.ok(strings.includes(k), `unused translation "${k}"`);
  });

  it('contributes the view container, view, command and menus of the design', () => {
    const c = pkg.contributes;
    assert.equal(c.viewsContainers.activitybar[0].id, 'neardup');
    assert.ok(fs.existsSync(path.join(ROOT, c.viewsContainers.activitybar[0].icon)));
    assert.equal(c.views.neardup[0].id, 'neardup.duplicates');
    const cmds = c.commands.map((x: { command: string }) => x.command);
    for (const id of ['neardup.findNearDuplicates', 'neardup.refresh', 'neardup.compare', 'neardup.viewMode.files', 'neardup.viewMode.sections', 'neardup.viewMode.both']) {
      assert.ok(cmds.includes(id), id);
    }
    for (const menu of ['editor/title/context', 'editor/context', 'explorer/context']) {
      assert.ok(c.menus[menu].some((m: { command: string }) => m.command === 'neardup.findNearDuplicates'), menu);
    }
    assert.ok(c.menus['view/item/context'].some((m: { command: string }) => m.command === 'neardup.compare'));
    assert.ok(c.viewsWelcome.some((w: { when: string }) => /neardup\.state == indexing/.test(w.when)));
    assert.ok(c.viewsWelcome.some((w: { when: string }) => /neardup\.state == empty/.test(w.when)));
    assert.ok(pkg.activationEvents.includes('onStartupFinished'));
    assert.equal(pkg.l10n, './l10n');
  });

  it('package.json settings match the schema: types, defaults, ranges, enums, descriptions', () => {
    const props = pkg.contributes.configuration.properties;
    const declared = Object.keys(props).sort();
    const expected = Object.values(SETTINGS_SPEC).map((s) => `neardup.${s.key}`).sort();
    assert.deepEqual(declared, expected);
    for (const [field, spec] of Object.entries(SETTINGS_SPEC)) {
      const p = props[`neardup.${spec.key}`];
      assert.ok(/^%config\./.test(p.markdownDescription), `${spec.key} has a markdownDescription`);
      assert.deepEqual(p.default, (SETTINGS_DEFAULTS as unknown as Record<string, unknown>)[field], `default of ${spec.key}`);
      if (spec.kind === 'integer' || spec.kind === 'number') {
        assert.equal(p.type, spec.kind);
        assert.equal(p.minimum, spec.min, `minimum of ${spec.key}`);
        assert.equal(p.maximum, spec.max, `maximum of ${spec.key}`);
      } else if (spec.kind === 'enum') {
        assert.deepEqual(p.enum, spec.values);
      } else if (spec.kind === 'boolean') {
        assert.equal(p.type, 'boolean');
      } else {
        assert.equal(p.type, 'array');
      }
    }
    assert.equal(props['neardup.maxDistance'].default, DEFAULT_ENGINE_SETTINGS.maxDistance);
  });

  it('validateSettings clamps, rounds and falls back, with one warning per bad value', () => {
    const raw: Record<string, unknown> = {
      maxDistance: 99,
      sectionMaxDistance: -3,
      minTokens: 12.6,
      minSimilarity: 'high',
      include: ['src/**', 5, ''],
      exclude: 'vendor/**',
      maxFileSizeKB: 0,
      'sections.enabled': 'yes',
      'code.normalizeIdentifiers': true,
      'cjk.segmenter': 'mecab',
      'cjk.foldVariants': 'no',
      weighting: 'tf',
      'diagnostics.severity': 'error',
    };
    const { values, warnings } = validateSettings((k) => raw[k]);
    assert.equal(values.maxDistance, 20);
    assert.equal(values.sectionMaxDistance, 0);
    assert.equal(values.minTokens, 13);
    assert.equal(values.minSimilarity, SETTINGS_DEFAULTS.minSimilarity);
    assert.deepEqual(values.include, ['src/**']);
    assert.deepEqual(values.exclude, SETTINGS_DEFAULTS.exclude);
    assert.equal(values.maxFileSizeKB, 1);
    assert.equal(values.sectionsEnabled, true);
    assert.equal(values.normalizeIdentifiers, true);
    assert.equal(values.cjkSegmenter, 'jieba');
    assert.equal(values.foldVariants, true);
    assert.equal(values.weighting, 'tf');
    assert.equal(values.severity, 'information');
    assert.deepEqual(
      warnings.map((w) => `${w.setting}:${w.problem}`).sort(),
      [
        'neardup.cjk.foldVariants:type',
        'neardup.cjk.segmenter:enum',
        'neardup.diagnostics.severity:enum',
        'neardup.exclude:type',
        'neardup.include:glob',
        'neardup.maxDistance:range',
        'neardup.maxFileSizeKB:range',
        'neardup.minSimilarity:type',
        'neardup.minTokens:integer',
        'neardup.sectionMaxDistance:range',
        'neardup.sections.enabled:type',
      ],
    );
    const clean = validateSettings(() => undefined);
    assert.deepEqual(clean.values, SETTINGS_DEFAULTS);
    assert.deepEqual(clean.warnings, []);
    assert.equal(toEngineSettings(clean.values).maxFileSizeBytes, DEFAULT_ENGINE_SETTINGS.maxFileSizeBytes);
    assert.equal(toEngineSettings(clean.values).foldVariants, true);
    const off = validateSettings((k) => (k === 'cjk.foldVariants' ? false : undefined));
    assert.deepEqual(off.warnings, []);
    assert.equal(off.values.foldVariants, false);
    assert.equal(toEngineSettings(off.values).foldVariants, false);
  });

  it('diffSettings: fingerprint settings re-index, thresholds re-query, severity re-publishes', () => {
    const base = { ...SETTINGS_DEFAULTS };
    assert.deepEqual(diffSettings(base, { ...base, maxDistance: 3 }), { reindex: false, thresholds: true, severity: false, editor: false, live: false });
    assert.deepEqual(diffSettings(base, { ...base, minSimilarity: 0.5 }), { reindex: false, thresholds: true, severity: false, editor: false, live: false });
    assert.deepEqual(diffSettings(base, { ...base, severity: 'warning' }), { reindex: false, thresholds: false, severity: true, editor: false, live: false });
    assert.deepEqual(diffSettings(base, { ...base, decorationsEnabled: false }), { reindex: false, thresholds: false, severity: false, editor: true, live: false });
    assert.deepEqual(diffSettings(base, { ...base, codeLensEnabled: false }), { reindex: false, thresholds: false, severity: false, editor: true, live: false });
    assert.deepEqual(diffSettings(base, { ...base, liveWhileTyping: false }), { reindex: false, thresholds: false, severity: false, editor: false, live: true });
    assert.deepEqual(diffSettings(base, { ...base, onPaste: 'off' }), { reindex: false, thresholds: false, severity: false, editor: false, live: true });
    assert.deepEqual(diffSettings(base, { ...base, pasteMinLines: 12 }), { reindex: false, thresholds: false, severity: false, editor: false, live: true });
    for (const over of [{ minTokens: 30 }, { include: ['x/**'] }, { exclude: [] }, { maxFileSizeKB: 10 }, { sectionsEnabled: false }, { normalizeIdentifiers: true }, { cjkSegmenter: 'bigram' as const }, { foldVariants: false }, { weighting: 'tf' as const }]) {
      assert.equal(diffSettings(base, { ...base, ...over }).reindex, true, JSON.stringify(over));
    }
  });

  it('enabledGlobs keeps files.exclude entries set to true', () => {
    assert.deepEqual(enabledGlobs({ '**/.git': true, '**/off': false, '**/*.js': { when: '$(basename).ts' }, './build': true }), ['**/.git', 'build']);
    assert.deepEqual(enabledGlobs(undefined), []);
  });
});
