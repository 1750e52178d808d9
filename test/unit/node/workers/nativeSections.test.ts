// The native code sections (native/sections.c, codeSections of src/core/sections/codeSections.ts in C) must
// give exactly what the TypeScript gives: the same ranges in the same order, and so the same
// section fingerprints through fingerprintText. Compared on every input the sections tests use,
// on generated code full of what the section scanner looks at (braces, strings of every quote,
// regex literals, comments of every syntax, decorators, preprocessor lines, indentation, tabs,
// CRLF, Unicode white space, unbalanced braces, wrappers, imports), on character-level garbage,
// on mutated and whole sources of this repository, and on large and pathological shapes. Their
// speed (linear growth, the 5 MB minified file, native against TypeScript) is measured in
// bench/fingerprint/sections-scaling.js: unit tests never time anything.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { fingerprintText, type FingerprintOptions } from '../../../../src/core/fingerprint/fingerprint';
import * as sectionsModule from '../../../../src/core/sections/codeSections';
import { codeSections, type CodeSectionOptions } from '../../../../src/core/sections/codeSections';
import type { DocumentFingerprint } from '../../../../src/core/types';
import { kernelCandidates, kernelKind, nativeKernelProblem } from '../../../../src/node/workers/nativeKernel';
import type { CodeKernel } from '../../../../src/core/types';
import { KERNELS } from './kernelsUnderTest';
import { mulberry32 } from '../../helpers/corpus';

const REPO = path.join(__dirname, '..', '..', '..', '..');
let kernel: CodeKernel | undefined;

/** Option sets of codeSections: defaults, each depth, spans, and the odd values it normalises. */
const SECTION_OPTIONS: CodeSectionOptions[] = [
  {},
  { maxDepth: 1 },
  { maxDepth: 3, minLines: 2 },
  { maxDepth: 4, minLines: 5 },
  { maxDepth: Infinity, minLines: 2.7 },
  { maxDepth: 2.9, minLines: NaN },
  { maxDepth: 0 },
  { minLines: Infinity },
];

const FP_OPTIONS: FingerprintOptions[] = [{}, { minTokens: 1, shingleSize: 4 }, { minTokens: 5, weighting: 'tf', normalizeIdentifiers: true }];
const FP_FILES = ['a.ts', 'b.py', 'c.c', 'd.rb', 'e.sh', 'f.go', 'g.rs', 'h.sql', 'i.lua', 'j.vb'];

function assertSameSections(text: string, options: CodeSectionOptions, label: string): number {
  const ts = codeSections(text, options);
  const native = codeSections(text, { ...options, kernel });
  if (JSON.stringify(ts) !== JSON.stringify(native)) {
    let k = 0;
    while (k < ts.length && JSON.stringify(ts[k]) === JSON.stringify(native[k])) k++;
    assert.fail(
      `${label} ${JSON.stringify(options)}: native codeSections differs at range ${k} of ${ts.length} / ${native.length}\n` +
        `  ts:     ${JSON.stringify(ts.slice(k, k + 3))}\n  native: ${JSON.stringify(native.slice(k, k + 3))}\n  text: ${JSON.stringify(text.slice(0, 400))}`,
    );
  }
  return ts.length;
}

/** Every field, sketches as arrays: a difference anywhere shows in the JSON. */
function canon(d: DocumentFingerprint): string {
  return JSON.stringify(d, (_k, v: unknown) => (v instanceof Uint32Array ? Array.from(v) : v));
}

function assertSameFingerprint(text: string, file: string, options: FingerprintOptions): void {
  const ts = canon(fingerprintText(text, file, options));
  const native = canon(fingerprintText(text, file, { ...options, kernel }));
  if (ts !== native) assert.fail(`${file} ${JSON.stringify(options)}: native differs\n  ts:     ${ts.slice(0, 300)}\n  native: ${native.slice(0, 300)}`);
}

/** Both comparisons on one text: codeSections with every option set, fingerprints with a few. */
function assertSame(text: string, label: string, index: number): number {
  let ranges = 0;
  for (const o of SECTION_OPTIONS) ranges += assertSameSections(text, o, label);
  assertSameFingerprint(text, FP_FILES[index % FP_FILES.length], FP_OPTIONS[index % FP_OPTIONS.length]);
  return ranges;
}

/**
 * The texts (and options) test/unit/core/sections/sections.test.ts gives codeSections: its test bodies are run
 * here with codeSections recorded (its own assertions are its business, not this test's).
 */
function sectionsTestInputs(): { text: string; options: CodeSectionOptions | undefined }[] {
  const file = path.join(__dirname, '..', '..', 'core', 'sections', 'sections.test.ts');
  const seen = new Map<string, { text: string; options: CodeSectionOptions | undefined }>();
  const spy = {
    ...sectionsModule,
    codeSections: (text: string, options?: CodeSectionOptions) => {
      const key = `${JSON.stringify(options)}\u0000${text}`;
      if (!seen.has(key)) seen.set(key, { text, options });
      return sectionsModule.codeSections(text, options);
    },
  };
  const bodies: (() => unknown)[] = [];
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = { describe: g.describe, it: g.it };
  const M = Module as unknown as { _load(request: string, parent: { filename?: string } | undefined, isMain: boolean): unknown };
  const load = M._load;
  M._load = function (request, parent, isMain) {
    if (parent?.filename === file && request.endsWith('/core/sections/codeSections')) return spy;
    return load.call(this, request, parent, isMain);
  };
  g.describe = (_name: string, fn: () => void) => fn();
  g.it = (_name: string, fn: () => unknown) => bodies.push(fn);
  const cached = require.cache[file];
  delete require.cache[file];
  try {
    require(file);
  } finally {
    M._load = load;
    g.describe = saved.describe;
    g.it = saved.it;
    if (cached) require.cache[file] = cached;
    else delete require.cache[file];
  }
  const context = { timeout: () => undefined, skip: () => undefined, slow: () => undefined };
  for (const body of bodies) {
    try {
      body.call(context);
    } catch {
      // that test's failure is reported by that test
    }
  }
  return [...seen.values()];
}

/** Pieces of code that exercise every rule of the section scanner, glued at random. */
const PIECES = [
  // braces, headers over several lines, nesting levels
  'function f(a, b) {\n  if (a) {\n    return b;\n  }\n  return a;\n}\n',
  'export class A extends B {\n  private x = 1;\n\n  constructor(\n    a: string,\n  ) {\n    super();\n  }\n\n  m(): void {\n    for (;;) {\n      y();\n    }\n  }\n}\n',
  'const o = {\n  a: 1,\n  b: [\n    2,\n  ],\n};\n',
  'x = a +\n  b *\n  c;\nif (x)\n  y = z\n    .w()\n    .v();\n',
  'describe("x", () => {\n  it("y", () => {\n    z();\n  })\n})\n',
  // strings of every quote kind
  "const s = 'it\\'s {'; const t = \"a \\\"}\\\" b\";\n",
  'const u = `multi\nline ${x} {\n}`;\n',
  "'''triple\n{ single\n'''\n",
  '"""doc\n  } string\n"""\n',
  'x = "unterminated {\n',
  "y = 'apostrophe's {\n",
  '`unterminated template\n',
  "'''unterminated triple\n",
  'a = "\\\n";\n',
  "fn f<'a>(x: &'a str) -> &'a str {\n    x\n}\n",
  // regex literals and division
  'const re = /[{]+\\}/g; // }}}\n',
  'return /x{/.test(s) ? a / b : c / d;\n',
  'x = typeof /}/;\ny = a\n/ b / c;\n',
  'if (/[/]{/.test(a)) {\n  b();\n}\n',
  'z = await /{/g\n',
  'v = 1 /* c */ / 2;\n',
  // comments of every syntax
  '// line comment {\n/* block\n { comment */ x = 1;\n',
  '/* unterminated block comment {',
  '# hash comment {\nx = 1  # trailing }\n',
  '#!/usr/bin/env node\n',
  'a#b {}\nthis.#x = 1;\n',
  '-- sql comment {\nSELECT a FROM t;\n',
  '; lisp comment {\n(defun f (x) (* x x))\n',
  '% erlang comment {\nf(X) -> X.\n',
  '<!-- markup { --> <div class="a">text</div>\n',
  '{- haskell {- nested -} -}\nmain = do\n  print 1\n',
  // decorators, annotations, attributes, export lines
  '@decorator\n@another(1)\nexport default class C {\n  m() {\n    n();\n  }\n}\n',
  '@Override\npublic void run() {\n    go();\n    stop();\n}\n',
  '#[derive(Debug)]\n#[cfg(test)]\nstruct S {\n    a: i32,\n}\n',
  '[Serializable]\n[DllImport("x.dll")]\n[Obsolete(")] (")]\npublic class K {\n    int a;\n}\n',
  '[Attr(a\u2028b)]\nclass L {\n  x;\n}\n',
  'export\nfunction g() {\n  return 1;\n}\n',
  'export default\nfunction h() {\n  return 2;\n}\n',
  'export\u00a0default\nfunction i() {\n  return 3;\n}\n',
  'export \u2003 default  \t\nfunction j() {\n  return 4;\n}\n',
  '@x {\nfunction k() {\n  return 5;\n}\n',
  '[A]\ufeff\nclass M {\n  a;\n}\n',
  'exportdefault\nfunction e2() {\n  return 9;\n}\n',
  "q = it's + `\n` + '{';\nfunction r() {\n  s();\n}\n",
  'q = "it + """\n""" + "{";\nfunction r2() {\n  s();\n}\n',
  '@y {\ufeff\u3000\nfunction o() {\n  return 6;\n}\n',
  'export\ufeff\u2028 \nfunction p() {\n  return 7;\n}\n',
  '@z\u200b\n@w \u0085\nfunction q() {\n  return 8;\n}\n',
  // preprocessor lines
  '#include <stdio.h>\n#define OPEN {\n#if X\n#endif\n#pragma once\n#region R\n#endregion\n#import "x"\n',
  '#ifdef A\nint f() {\n  return 1;\n}\n#else\nint f() {\n  return 2;\n}\n#endif\n',
  '  #define X {\n#unknown {\n#{x}\n',
  // wrappers and imports
  'namespace N {\nclass A {\n  void f() {\n    g();\n  }\n}\n}\n',
  'export declare module "m" {\n  function f(): void;\n  const x: number;\n}\n',
  'package p {\n  object O {\n    def f = {\n      1\n    }\n  }\n}\n',
  'extern "C" {\nvoid f() {\n  g();\n}\n}\n',
  'modules {\nclass A {\n  void f() {\n    g();\n  }\n}\n}\n',
  'namespace$ {\nclass B {\n  void f() {\n    g();\n  }\n}\n}\n',
  'packaged\tnamespace_ {\nclass C {\n  void f() {\n    g();\n  }\n}\n}\n',
  '  export \t declare\tnamespace N.M {\nclass D {\n  void f() {\n    g();\n  }\n}\n}\n',
  'extern  "C++" {\n  int x;\n  int y;\n}\n',
  'module.exports = {\n  a: 1,\n  b: 2,\n};\n',
  'import {\n  a,\n  b,\n} from "m";\n',
  'from x.y import (\n    a,\n    b,\n)\n',
  'use std::{\n    io,\n    fs,\n};\n',
  'export {\n  c,\n  d,\n} from "n";\n',
  'export type {\n  T,\n  U,\n} from "t";\n',
  'import(\n  "lazy"\n).then(() => {\n  x();\n});\n',
  'importer {\n  a;\n  b;\n}\n',
  'from\t"x"\timport {\n  y\n}\n',
  // indentation: Python, Ruby, shell, YAML, tabs
  'class Greeter:\n    """Greets."""\n\n    def __init__(self, name):\n        self.name = name\n\n    @property\n    def upper(self):\n# column-0 comment\n        return self.name.upper()\n',
  'def main(argv,\n         env):\n    if argv:\n        print(argv)\n    return 0\n\n',
  'CONFIG = {\n    "a": 1,\n    "b": "{",\n}\n',
  'def m\n  if x\n    y\n  end\nEND\n',
  'if [ -f x ]; then\n  echo y\n  echo z\nfi\nfor a in b; do\n  c\n  d\ndone\ncase $x in\n  a) b;;\n  c) d;;\nesac\n',
  'IF x THEN\n  y\n  z\nEndIf\nwhile a\n  b\n  c\nendwhile\n',
  'top:\n  a: 1\n  b:\n    c: 2\n    d: 3\n',
  '\tindented_with_tab()\n\t\ttwo_tabs()\n  \tmixed()\n\t  mixed2()\n',
  'block:\n    one\n        # deeper comment\n    two\n# shallow comment\n\n',
  // odd characters
  'x\u00a0=\u3000y\u2028z\u2029w\ufeffv;\n',
  '\u2000\u2001\u200a\u200b{\n\u202f\u205f\u1680x\n\u180e\u0085}\n',
  'a = "\ud83d\ude00" + \ud83d\ude00 + \ud800 + \udc00 {\n  b;\n}\n',
  'имя = функция(аргумент) {\n  数据 = 1;\n}\n',
  '\u000b\u000c{\n\u001f x \u0000\n}\n',
  'line\rwith\rlone\rcarriage returns {\r  x\r}\r',
  // unbalanced braces
  '}}} unbalanced {{{\n',
  'function a() {\n  const s = "unterminated {\n  return 1;\n}\n',
  'function c() {\n  x = 1;\n  {\n  y = 2;\n}\n',
  '{\n  {\n    {\n}\n',
  '  }\n    }\n}\n',
  '(((\n{\n)))\n}\n]]]\n',
];

const LINE_ENDS = ['\n', '\r\n', '\n\n', '\r\n\r\n'];

/** White space of every kind the scanner tells apart: JS \\s, its own isWs (controls, U+200B), neither. */
const SPACES = [' ', '\t', '\u00a0', '\u1680', '\u2000', '\u200a', '\u200b', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u000b', '\u000c', '\u0001', '\u0085', '\u180e', '\r'];

/** Braces at random depths and indentations, closers lining up with any header or none. */
function nest(rnd: () => number): string {
  const out: string[] = [];
  const open: number[] = [];
  const lines = 5 + Math.floor(rnd() * 60);
  for (let l = 0; l < lines; l++) {
    const r = rnd();
    const indent = rnd() < 0.7 ? 2 * open.length : 2 * Math.floor(rnd() * 14);
    if (r < 0.45 && open.length < 14) {
      out.push(`${' '.repeat(indent)}h${l}() {`);
      open.push(indent);
    } else if (r < 0.75) {
      const to = rnd() < 0.6 ? (open.length ? open.pop()! : 0) : open.length ? open[Math.floor(rnd() * open.length)] : 0;
      out.push(`${' '.repeat(to)}}${rnd() < 0.2 ? ' else {' : ''}`);
    } else out.push(rnd() < 0.2 ? '' : `${' '.repeat(indent + 2)}s${l}();`);
  }
  return out.join('\n');
}

function generated(rnd: () => number, pieces: number): string {
  const parts: string[] = [];
  for (let i = 0; i < pieces; i++) {
    let p = rnd() < 0.1 ? nest(rnd) : PIECES[Math.floor(rnd() * PIECES.length)];
    const r = rnd();
    if (r < 0.15) p = p.replace(/\n/g, '\r\n');
    else if (r < 0.25) p = p.replace(/ {2}/g, '\t');
    else if (r < 0.35) p = p.replace(/^/gm, () => ' '.repeat(Math.floor(rnd() * 9)));
    else if (r < 0.4) p = p.replace(/ /g, () => [' ', '\u00a0', '\u3000', '\t', '\u2009'][Math.floor(rnd() * 5)]);
    else if (r < 0.45) p = p.replace(/\n/g, ' '); // minified
    else if (r < 0.55) p = p.replace(/\n/g, () => `${SPACES[Math.floor(rnd() * SPACES.length)].repeat(1 + Math.floor(rnd() * 2))}\n`);
    else if (r < 0.6) p = p.replace(/^ */gm, (m) => m.replace(/ /g, () => SPACES[Math.floor(rnd() * SPACES.length)]));
    parts.push(p);
  }
  return parts.join(LINE_ENDS[Math.floor(rnd() * LINE_ENDS.length)]);
}

/** Units the scanner treats specially, alone or in the combinations it looks for. */
const ALPHABET = [
  '{', '}', '(', ')', '[', ']', ';', ',', '"', "'", '`', '/', '*', '#', '\\', '\n', '\r\n', '\r', ' ', '    ', '\t', 'a', 'x = ',
  ':', '"""', "'''", '/*', '*/', '//', '@', '@x', '#[', '#define', '#if', 'return ', 'typeof ', '=', '.', '?', '<', '>', '|', '&',
  'import ', 'from m import ', 'use ', 'export ', 'export {', 'namespace ', 'module ', 'extern "C"', 'declare ', 'end', 'END', 'fi',
  'done', 'esac', 'endif', 'default', '[A]', '[A.b(c)]', '$', '_', '0', '\u00a0', '\u2028', '\u2029', '\u200b', '\u3000', '\ufeff',
  '\u0085', '\u00e9', '\ud83d\ude00', '\ud800',
];

function garbage(rnd: () => number, length: number): string {
  let s = '';
  for (let k = 0; k < length; k++) s += ALPHABET[Math.floor(rnd() * ALPHABET.length)];
  return s;
}

/** A text with random edits: units deleted, alphabet pieces inserted, lines duplicated. */
function mutated(rnd: () => number, text: string, edits: number): string {
  let s = text;
  for (let e = 0; e < edits && s.length > 0; e++) {
    const at = Math.floor(rnd() * s.length);
    const r = rnd();
    if (r < 0.4) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 3));
    else if (r < 0.9) s = s.slice(0, at) + ALPHABET[Math.floor(rnd() * ALPHABET.length)] + s.slice(at);
    else {
      const a = s.lastIndexOf('\n', at) + 1;
      const b = s.indexOf('\n', at);
      const line = s.slice(a, b < 0 ? s.length : b + 1);
      s = s.slice(0, a) + line + line + s.slice(a);
    }
  }
  return s;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|js|c|h|json|py|sh)$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('native codeSections', () => {
  it('is in the native kernel here (set NEARDUP_NATIVE=0 to test the TypeScript alone)', function () {
    if (process.env.NEARDUP_NATIVE === '0') this.skip();
    assert.equal(kernelKind(), 'native', `native kernel: ${nativeKernelProblem()} (looked in ${kernelCandidates().join(', ')})`);
  });

  for (const under of KERNELS) {
    describe(`the ${under.name} kernel`, () => {
      before(() => {
        kernel = under.kernel();
      });

      describe('gives what the TypeScript gives', function () {
        before(function () {
          if (!kernel?.codeSections) this.skip();
        });

        it('on every input of the sections tests, with their options and every option set', function () {
          this.timeout(120000);
          const inputs = sectionsTestInputs();
          assert.ok(inputs.length >= 30, `only ${inputs.length} inputs recorded from sections.test.ts`);
          let ranges = 0;
          for (const [k, { text, options }] of inputs.entries()) {
            ranges += assertSameSections(text, options ?? {}, `sections.test.ts input ${k}`);
            if (text.length < 200_000) ranges += assertSame(text, `sections.test.ts input ${k}`, k);
          }
          assert.ok(ranges > 100);
        });

        it('on 600 generated code files (every piece, quote, comment syntax, line end and white space)', function () {
          this.timeout(120000);
          const rnd = mulberry32(20261123);
          let ranges = 0;
          for (let i = 0; i < 600; i++) ranges += assertSame(generated(rnd, 1 + Math.floor(rnd() * 40)), `generated ${i}`, i);
          assert.ok(ranges > 5000, `only ${ranges} ranges`);
        });

        it('on 2,000 random brace nests (closers lining up with outer headers)', () => {
          const rnd = mulberry32(4242);
          for (let i = 0; i < 2000; i++) {
            const text = nest(rnd);
            for (const o of SECTION_OPTIONS.slice(0, 4)) assertSameSections(text, o, `nest ${i}`);
          }
        });

        it('on 3,000 character-level garbage texts', () => {
          const rnd = mulberry32(7);
          for (let i = 0; i < 3000; i++) {
            const text = garbage(rnd, Math.floor(rnd() * 300));
            for (const o of SECTION_OPTIONS.slice(0, 4)) assertSameSections(text, o, `garbage ${i}`);
          }
        });

        it("on this repository's sources, whole and with random edits", function () {
          this.timeout(120000);
          const files = [...sourceFiles(path.join(REPO, 'src')), ...sourceFiles(path.join(REPO, 'native')), ...sourceFiles(path.join(REPO, 'test'))];
          assert.ok(files.length > 50);
          const rnd = mulberry32(99);
          let ranges = 0;
          for (const [k, f] of files.entries()) {
            const text = fs.readFileSync(f, 'utf8');
            ranges += assertSame(text, path.relative(REPO, f), k);
            assertSameSections(mutated(rnd, text, 1 + Math.floor(rnd() * 20)), {}, `${path.relative(REPO, f)} (edited)`);
            assertSameSections(text.replace(/\n/g, '\r\n'), {}, `${path.relative(REPO, f)} (CRLF)`);
          }
          assert.ok(ranges > 1000, `only ${ranges} ranges`);
        });

        it('on large and pathological shapes', function () {
          this.timeout(120000);
          const shapes: [string, string][] = [
            ['deep nest', '{\n'.repeat(5000) + '}\n'.repeat(5000)],
            ['one line', 'function a(){'.repeat(20000) + '}'.repeat(20000)],
            ['wide indentation', `${' '.repeat(100_000)}f() {\n${'{'.repeat(1000)}\n${'}\n'.repeat(1000)}`],
            ['many closers after blank space', `a {\n${`${' '.repeat(10_000)}\n`.repeat(5)}${'b {\n'.repeat(500)}${'}\n'.repeat(600)}`],
            ['long header lines', `${`[A${'.b'.repeat(20_000)}]\n`.repeat(20)}class C {\n  x;\n  y;\n}\n`],
            ['from lines', `${`from ${'x'.repeat(50_000)} y\n`.repeat(5)}${'from z import {\n  a\n}\n'.repeat(200)}`],
            ['unclosed everything', `/* ${'"""'.repeat(3)} \`${"'''"} ${'{'.repeat(1000)}`],
            ['many sections', Array.from({ length: 3000 }, (_, i) => `function f${i}() {\n  if (x) {\n    y();\n  }\n}\n`).join('')],
            // The shapes bench/fingerprint/sections-scaling.js times, at its large size (200k units).
            ['one line, 200k', 'function a(){'.repeat(200_000) + '}'.repeat(200_000)],
            ['brace nest, 200k', '{\n'.repeat(200_000) + '}\n'.repeat(200_000)],
            ['comments on one line, 200k', 'f(a/*x*/, `s`, "q", \'r\', /re/);'.repeat(200_000)],
            ['python, 200k', 'def f(a):\n    if a:\n        return 1\n    return 2\n\n'.repeat(40_000)],
            ['wide lines, 200k', `${' '.repeat(200_000)}x {\n${'y {'.repeat(20_000)}\n${'}\n'.repeat(20_000)}`],
          ];
          for (const [name, text] of shapes) for (const o of SECTION_OPTIONS.slice(0, 3)) assertSameSections(text, o, name);
        });

        it('on a 5 MB minified file (one line of braces, strings, regex literals, template strings)', function () {
          this.timeout(120000);
          const text = 'function a(b){return b&&{c:"}",d:/{/g,e:`${b}`}}var x=[1,2,(3)];'.repeat(80_000);
          assert.ok(text.length > 5_000_000);
          for (const o of SECTION_OPTIONS.slice(0, 3)) assertSameSections(text, o, '5 MB minified');
        });
      });
    });
  }
});
