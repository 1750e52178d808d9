// The code files and settings the fast path's tests use (fastCode.test.ts, codeBatch.test.ts): each a case the
// fast path takes or must leave to the usual path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_ENGINE_SETTINGS, type EngineSettings } from '../../../../src/node/settings/engineSettings';
import { mulberry32 } from '../../helpers/random';

const REPO = path.join(__dirname, '..', '..', '..', '..');

/** Code of n lines, all distinct. */
export function code(rnd: () => number, n: number, eol = '\n'): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`  const v${i} = compute(${Math.floor(rnd() * 1000)}, "s${i}") + other${i % 7};`);
  return `function f() {${eol}${lines.join(eol)}${eol}}${eol}`;
}

/** The files, as bytes: each a case the fast path takes or must leave to the usual path. */
export function files(): Array<[string, Buffer]> {
  const rnd = mulberry32(16);
  const c = code(rnd, 80);
  const u = (s: string) => Buffer.from(s, 'utf8');
  const repeated = (line: string, n: number) => Array.from({ length: n }, () => line).join('\n');
  const out: Array<[string, Buffer]> = [
    ['plain.ts', u(c)],
    ['crlf.ts', u(code(rnd, 60, '\r\n'))],
    ['no-final-newline.py', u(c.trimEnd())],
    ['multibyte.js', u(c.replace(/s1/g, 'café 😀 ü€ ñ'))],
    ['han.ts', u(`${c}// 這個系統會讀取每個檔案\n`)],
    // With the kernel's fold table (codeBatch.test.ts): Han in identifiers and strings, some to fold, some
    // already folded; lines the fold would make equal (the checks read the text as decoded); a compatibility ideograph.
    ['han-identifiers.ts', u(`${c}const 總數 = 計算(數據);\nconst 总数 = "簡體與繁體 說明";\nlet 乾 = '\uf900';\n`)],
    ['han-lines.ts', u(Array.from({ length: 60 }, (_, i) => (i % 2 ? `說 = ${i % 3};` : `说 = ${i % 3};`)).join('\n'))],
    ['bom.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), u(c)])],
    // A byte order mark: removed, the rest read as any file (decodeText's checkText); twice (the
    // second removed too by checkText: left), alone, before bad UTF-8, before control characters.
    ['bom-twice.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), u(c)])],
    ['bom-only.ts', Buffer.from([0xef, 0xbb, 0xbf])],
    ['bom-bad.ts', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), u(c), Buffer.from([0xc0, 0x80])])],
    ['bom-controls.rb', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), u(`${'\x01\x02\x03\x04'.repeat(200)}\n${c}`)])],
    ['latin1.c', Buffer.from(c.replace(/s2/g, 'caf\u00e9'), 'latin1')],
    ['utf16le.cs', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(c, 'utf16le')])],
    ['utf16le-nobom.cs', Buffer.from(c, 'utf16le')],
    ['utf16be.java', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(c, 'utf16le').swap16()])],
    ['nul.go', Buffer.concat([u(c.slice(0, 200)), Buffer.from([0]), u(c.slice(200))])],
    ['few-controls.rb', u(c.replace('compute(', 'compute(\x01\x7f'))],
    ['controls.rb', u(`${'\x01\x02\x03\x04'.repeat(200)}\n${c}`)],
    ['ansi.sh', u(`echo "\x1b[31mred\x1b[0m"\n${c}`)],
    ['marked.ts', u(`// neardup-ignore-start\n${c}// neardup-ignore-end\n${c}`)],
    ['ignored.ts', u(`// neardup-ignore-file\n${c}`)],
    ['minified.js', u(`${'var a=1;'.repeat(800)}\n`)],
    ['long-line.js', u(`${'x'.repeat(6000)}\n${'y;\n'.repeat(10)}`)],
    ['repetitive.ts', u(repeated('x = x + 1;', 120))],
    ['repetitive-spaces.ts', u(Array.from({ length: 120 }, (_, i) => ['\u00a0x = 1;\u2000', '  x = 1;\u2028', '\u1680x = 1;\u202f', '\u205fx = 1;\u2029\u200a'][i % 4]).join('\n'))],
    // U+3000 and U+FEFF are white space too (their lead bytes also say "maybe Han": with the fold, not tried).
    ['repetitive-wide-spaces.ts', u(Array.from({ length: 120 }, (_, i) => ['\u3000x = 1;', '\ufeffx = 1;\u3000', 'x = 1;'][i % 3]).join('\n'))],
    ['repetitive-not-spaces.ts', u(Array.from({ length: 120 }, (_, i) => `x = 1;${'\u200b'.repeat(i % 3)}`).join('\n'))],
    ['near-repetitive.ts', u(`${repeated('y = 2;', 60)}\nz = 3;\nw = 4;\n`)],
    // More lines than the stack's table of distinct lines holds (native/utf8code.c): hashed, as many as there are.
    ['many-lines.ts', u(Array.from({ length: 14000 }, (_, i) => `a = ${i % 997};`).join('\n'))],
    ['many-lines-near.ts', u(Array.from({ length: 14000 }, (_, i) => `x = ${i % 285};`).join('\n'))],
    ['many-lines-repetitive.ts', u(Array.from({ length: 14000 }, (_, i) => `x = ${i % 280};`).join('\n'))],
    ['blank-lines.ts', u(`${'\n'.repeat(70)}${c}`)],
    ['overlong.ts', Buffer.concat([u(c), Buffer.from([0xc0, 0x80])])],
    ['surrogate.ts', Buffer.concat([u(c), Buffer.from([0xed, 0xa0, 0x80])])],
    ['above-max.ts', Buffer.concat([u(c), Buffer.from([0xf4, 0x90, 0x80, 0x80])])],
    ['truncated.ts', Buffer.concat([u(c), Buffer.from([0xe2, 0x82])])],
    ['gb18030.ts', Buffer.concat([u(c), Buffer.from([0xc4, 0xe3, 0xba, 0xc3, 0xca, 0xc0, 0xbd, 0xe7])])],
    ['empty.ts', Buffer.alloc(0)],
    ['short.ts', u('let a = 1;\n')],
    ['prose.md', u('A few words of prose.\n'.repeat(40))],
    ['notebook.ipynb', u(JSON.stringify({ cells: [{ cell_type: 'code', source: c.split('\n').map((l) => `${l}\n`) }], metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: 5 }))],
    ['component.vue', u(`<template><div/></template>\n<script>\n${c}</script>\n`)],
    ['unknown.xyz', u(c)],
  ];
  for (const name of ['native/utf8code.c', 'native/readcode.c', 'src/node/workers/fingerprintFile.ts', 'src/node/workers/workerPool.ts', 'src/core/text/decodeText.ts']) out.push([path.basename(name), fs.readFileSync(path.join(REPO, name))]);
  return out;
}

/** The settings that change what the fast path does, by name. */
export const FAST_PATH_SETTINGS: Array<[string, EngineSettings]> = [
  ['defaults', { ...DEFAULT_ENGINE_SETTINGS }],
  ['normalized identifiers', { ...DEFAULT_ENGINE_SETTINGS, normalizeIdentifiers: true }],
  ['no variant fold', { ...DEFAULT_ENGINE_SETTINGS, foldVariants: false }],
  ['no sections, tf', { ...DEFAULT_ENGINE_SETTINGS, sections: false, weighting: 'tf' }],
  ['tfidf (without its table: tf)', { ...DEFAULT_ENGINE_SETTINGS, weighting: 'tfidf' }],
  ['a small size limit', { ...DEFAULT_ENGINE_SETTINGS, maxFileSizeBytes: 3000 }],
];
