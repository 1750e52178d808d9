// fingerprintDecodedText (src/core/fingerprint/decodedDocument.ts) with what the reader already
// knows: a line shape given (decodeText's, read off the bytes) and its one search for the ignore
// markers' prefix (fingerprintText then told `unmarked`) must keep, skip and fingerprint exactly
// as fingerprintText and lineShape do on their own.
import { strict as assert } from 'node:assert';
import { fingerprintDecodedText } from '../../../../src/core/fingerprint/decodedDocument';
import { fingerprintText } from '../../../../src/core/fingerprint/fingerprint';
import { lineShape } from '../../../../src/core/text/decodeText';

const code = (n: number, salt: string) => Array.from({ length: n }, (_, i) => `export const ${salt}${i} = compute(${i}, "${'z'.repeat(i % 7)}");`).join('\n');

const TEXTS: Array<[string, string]> = [
  ['a.ts', 'const a = 1;\n'.repeat(80)],
  ['b.js', `var x=${'1+'.repeat(3000)}1;`],
  ['c.md', 'A line of prose here.\n'.repeat(3)],
  ['d.ipynb', JSON.stringify({ cells: [{ cell_type: 'code', source: ['x = 1\n', 'y = 2'] }], metadata: {}, nbformat: 4, nbformat_minor: 5 })],
  ['e.ts', code(120, 'value')],
  ['f.ts', `// neardup-ignore-file\n${code(60, 'f')}`],
  ['g.ts', `${code(40, 'g')}\n// neardup-ignore-start\n${code(40, 'h')}\n// neardup-ignore-end\n${code(40, 'i')}`],
  ['h.py', `# neardup-ignore-next\ndef f():\n    return 1\n\n${Array.from({ length: 60 }, (_, i) => `v${i} = call(${i})`).join('\n')}`],
  ['i.ts', `const s = "neardup-ignore-start";\n${code(60, 'j')}`],
  ['j.md', `<!-- neardup-ignore-start -->\nhidden words here\n<!-- neardup-ignore-end -->\n${'Some prose words that stay in the text.\n'.repeat(30)}`],
];

describe('fingerprintDecodedText with what the reader knows', () => {
  it('its facts given (line shape, markers): the same outcomes as measuring the text (minified, repetitive, ignored, containers, line counts)', () => {
    const options = () => ({ minTokens: 5 });
    for (const [name, text] of TEXTS) {
      const measured = fingerprintDecodedText(name, text, text.length, 'utf-8', options);
      const given = fingerprintDecodedText(name, text, text.length, 'utf-8', options, { shape: lineShape(text), maybeHan: true, marked: text.includes('neardup-ignore-') });
      assert.deepEqual(given, measured, name);
    }
  });

  it('ignore markers found once: the same fingerprints as fingerprintText searching for them itself', () => {
    let kept = 0;
    for (const [name, text] of TEXTS) {
      const outcome = fingerprintDecodedText(name, text, text.length, 'utf-8', () => ({ minTokens: 5 }));
      if (!outcome.ok) continue;
      kept++;
      assert.deepEqual(outcome.doc, fingerprintText(text, name, { minTokens: 5 }), name);
    }
    assert.ok(kept >= 7, `${kept} kept`);
    const ignored = fingerprintDecodedText('f.ts', TEXTS[5][1], 1, 'utf-8', () => ({ minTokens: 5 }));
    assert.equal(ignored.ok ? 'kept' : ignored.reason, 'ignored by a neardup-ignore-file marker');
  });
});
