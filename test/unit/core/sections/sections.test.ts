import { strict as assert } from 'node:assert';
import { codeSections } from '../../../../src/core/sections/codeSections';
import { proseSections } from '../../../../src/core/sections/proseSections';
import type { TextRange } from '../../../../src/core/types';

/** [startLine, endLine] pairs, after checking every range is valid for the text. */
function spans(text: string, ranges: TextRange[]): [number, number][] {
  assertValid(text, ranges);
  return ranges.map((r) => [r.startLine, r.endLine]);
}

function assertValid(text: string, ranges: TextRange[]): void {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const lineEnd = (l: number): number => {
    const next = l < starts.length ? starts[l] - 1 : text.length; // position of '\n' or end
    return next > starts[l - 1] && text[next - 1] === '\r' && l < starts.length ? next - 1 : next;
  };
  let prev: TextRange | undefined;
  for (const r of ranges) {
    assert.ok(Number.isInteger(r.startLine) && Number.isInteger(r.endLine), JSON.stringify(r));
    assert.ok(r.startLine >= 1 && r.startLine <= r.endLine && r.endLine <= starts.length, JSON.stringify(r));
    assert.equal(r.startOffset, starts[r.startLine - 1], `startOffset of ${JSON.stringify(r)}`);
    assert.equal(r.endOffset, lineEnd(r.endLine), `endOffset of ${JSON.stringify(r)}`);
    if (prev) {
      const order =
        prev.startOffset - r.startOffset || r.endOffset - r.startOffset - (prev.endOffset - prev.startOffset);
      assert.ok(order < 0, `not sorted or duplicate: ${JSON.stringify(prev)} then ${JSON.stringify(r)}`);
    }
    prev = r;
  }
}

const lines = (...ls: string[]): string => ls.join('\n');

describe('sections', () => {
  describe('codeSections', () => {
    const ts = lines(
      "import { x } from './x';", //                                1
      '', //                                                          2
      'export function foo(a: number, b: number): number {', //      3
      '  if (a > b) {', //                                           4
      '    return a - b;', //                                        5
      '  }', //                                                      6
      '  return a + b;', //                                          7
      '}', //                                                        8
      '', //                                                         9
      '@Component({ selector: "x" })', //                           10
      'export class Foo extends Bar {', //                          11
      '  private x = 1;', //                                        12
      '', //                                                        13
      '  constructor(', //                                          14
      '    private readonly a: string,', //                         15
      '    b: number,', //                                          16
      '  ) {', //                                                   17
      '    super();', //                                            18
      '  }', //                                                     19
      '', //                                                        20
      '  method(): void {', //                                      21
      '    for (const y of this.ys) {', //                          22
      '      console.log(y);', //                                   23
      '    }', //                                                   24
      '  }', //                                                     25
      '', //                                                        26
      '  tiny() { return 1; }', //                                  27
      '}', //                                                       28
      '',
    );

    it('finds JS/TS functions, classes and their methods, with multi-line headers and decorators', () => {
      assert.deepEqual(spans(ts, codeSections(ts)), [
        [3, 8], // function foo
        [4, 6], // its if block (nested level)
        [10, 28], // decorated class
        [14, 19], // constructor with a multi-line parameter list
        [21, 25], // method
      ]);
    });

    it('honours maxDepth', () => {
      assert.deepEqual(spans(ts, codeSections(ts, { maxDepth: 1 })), [
        [3, 8],
        [10, 28],
      ]);
      assert.deepEqual(spans(ts, codeSections(ts, { maxDepth: 3 })), [
        [3, 8],
        [4, 6],
        [10, 28],
        [14, 19],
        [21, 25],
        [22, 24],
      ]);
      assert.deepEqual(codeSections(ts, { maxDepth: 0 }), []);
    });

    it('gives the same lines and consistent offsets for CRLF text', () => {
      const crlf = ts.replace(/\n/g, '\r\n');
      const r = codeSections(crlf);
      assert.deepEqual(spans(crlf, r), spans(ts, codeSections(ts)));
      // The section text ends with the closing brace, no \r.
      assert.equal(crlf.slice(r[0].startOffset, r[0].endOffset), ts.split('\n').slice(2, 8).join('\r\n'));
      assert.ok(crlf.slice(r[0].startOffset, r[0].endOffset).endsWith('}'));
    });

    it('ignores braces in strings, template literals, comments and regex literals', () => {
      const text = lines(
        'const a = "}}}";', //                                 1
        "const b = '{{{';", //                                 2
        'const re = /[{]+\\}/g; // }}}', //                    3
        'const t = `${a} {', //                                4
        '  }} still a template', //                            5
        '`;', //                                               6
        '/* } { }', //                                         7
        '   }} */', //                                         8
        'function ok(x) {', //                                 9
        '  if (/}/.test(x)) return "{";', //                  10
        "  const q = '\\'{';", //                             11
        '  return x.replace(/{/g, "}");', //                  12
        '}', //                                               13
        'function two() {', //                                14
        '  return `}`;', //                                   15
        '  // {', //                                          16
        '}', //                                               17
      );
      assert.deepEqual(spans(text, codeSections(text)), [
        [9, 13],
        [14, 17],
      ]);
    });

    it('finds Python defs and classes by indentation', () => {
      const py = lines(
        'import os', //                                        1
        '', //                                                 2
        'CONFIG = {', //                                       3
        '    "a": 1,', //                                      4
        '    "b": "{",', //                                    5
        '}', //                                                6
        '', //                                                 7
        '', //                                                 8
        'class Greeter:', //                                   9
        '    """Greets.', //                                  10
        '', //                                                11
        'Docstring text at column 0 { does not end the class.', // 12
        '"""', //                                             13
        '', //                                                14
        '    def __init__(self, name):', //                   15
        '        self.name = name', //                        16
        '        self.count = 0', //                          17
        '', //                                                18
        '    @property', //                                   19
        '    def upper(self):', //                            20
        '# a comment at column 0 does not end the method', // 21
        '        return self.name.upper()', //                22
        '', //                                                23
        '# a comment before main, not part of the class', //  24
        'def main(argv,', //                                  25
        '         env):', //                                  26
        '    g = Greeter(argv[0])', //                        27
        '    if g:', //                                       28
        '        print(g.upper)', //                          29
        '    return 0', //                                    30
        '', //                                                31
        '', //                                                32
        'if __name__ == "__main__":', //                      33
        '    main(sys.argv, os.environ)', //                  34
        '    print("done")', //                               35
        '',
      );
      assert.deepEqual(spans(py, codeSections(py)), [
        [3, 6], // dict literal, closing bracket included
        [9, 22], // class
        [15, 17], // __init__
        [19, 22], // decorated method
        [25, 30], // def with a two-line signature
        [33, 35],
      ]);
    });

    it('finds blocks in C, Go, Java, Rust and C# code', () => {
      const c = lines(
        '#include <stdio.h>', //                               1
        '#define OPEN {', //                                   2
        '', //                                                 3
        'static int', //                                       4
        'add(int a, int b)', //                                5
        '{', //                                                6
        "    char c = '{';", //                                7
        '    return a + b;', //                                8
        '}', //                                                9
        '', //                                                10
        'int main(void) {', //                                11
        '    if (1) {', //                                    12
        '        puts("}");', //                              13
        '    } else {', //                                    14
        '        puts("no");', //                             15
        '    }', //                                           16
        '    return 0;', //                                   17
        '}', //                                               18
      );
      assert.deepEqual(spans(c, codeSections(c)), [
        [5, 9], // Allman: header is the line above the brace
        [11, 18],
        [12, 14], // if …
        [14, 16], // … else
      ]);

      const go = lines(
        'package main', //                                    1
        '', //                                                2
        'func (s *Server) Handle(w http.ResponseWriter,', //  3
        '\tr *http.Request) error {', //                      4
        '\tq := `raw {', //                                   5
        'string`', //                                         6
        '\tfmt.Println(q)', //                                7
        '\treturn nil', //                                    8
        '}', //                                               9
      );
      assert.deepEqual(spans(go, codeSections(go)), [[3, 9]]);

      const java = lines(
        'package com.example;', //                            1
        '', //                                                2
        '@Service', //                                        3
        'public class OrderService {', //                     4
        '    private final Repo repo;', //                    5
        '', //                                                6
        '    @Override', //                                   7
        '    public String toString() {', //                  8
        '        return "OrderService{" + repo + "}";', //    9
        '    }', //                                          10
        '', //                                               11
        '    public List<Order> find(', //                   12
        '            String customer,', //                   13
        '            int limit) {', //                       14
        "        char open = '{';", //                       15
        '        return repo.find(customer, limit);', //     16
        '    }', //                                          17
        '}', //                                              18
      );
      assert.deepEqual(spans(java, codeSections(java)), [
        [3, 18],
        [7, 10],
        [12, 17],
      ]);

      const rust = lines(
        '#[derive(Debug)]', //                                1
        "struct Foo<'a> {", //                                2
        "    name: &'a str,", //                              3
        '}', //                                               4
        '', //                                                5
        "impl<'a> Foo<'a> {", //                              6
        "    fn new(name: &'a str) -> Self {", //             7
        "        let c = '{';", //                            8
        '        Foo { name }', //                            9
        '    }', //                                          10
        '}', //                                              11
      );
      assert.deepEqual(spans(rust, codeSections(rust)), [
        [1, 4],
        [6, 11],
        [7, 10],
      ]);

      const cs = lines(
        'namespace App', //                                   1
        '{', //                                               2
        '    public class Foo', //                            3
        '    {', //                                           4
        '        [Obsolete]', //                              5
        '        public void Bar()', //                       6
        '        {', //                                       7
        '            Console.WriteLine("{");', //             8
        '        }', //                                       9
        '    }', //                                          10
        '}', //                                              11
      );
      // The namespace does not count as a level, so methods are still reported at maxDepth 2.
      assert.deepEqual(spans(cs, codeSections(cs)), [
        [1, 11],
        [3, 10],
        [5, 9],
      ]);
    });

    it('handles brace-less languages: Ruby, CoffeeScript, YAML', () => {
      const rb = lines('class Foo', '  def bar(x)', '    if x', '      1', '    end', '  end', '', '  def baz', '    2', '    3', '  end', 'end');
      assert.deepEqual(spans(rb, codeSections(rb)), [
        [1, 12],
        [2, 6],
        [8, 11],
      ]);
      const coffee = lines(
        'class Animal', //                                     1
        '  constructor: (@name) ->', //                        2
        '    @legs = 4', //                                    3
        '    @tail = true', //                                 4
        '', //                                                 5
        '  move: (meters) ->', //                              6
        '    alert @name + " moved #{meters}m."', //           7
        '    meters', //                                       8
        '', //                                                 9
        'square = (x) ->', //                                 10
        '  y = x * x', //                                     11
        '  y', //                                             12
      );
      assert.deepEqual(spans(coffee, codeSections(coffee)), [
        [1, 8],
        [2, 4],
        [6, 8],
        [10, 12],
      ]);
      const yaml = lines('name: test', 'on:', '  push:', '    branches: [main]', 'jobs:', '  build:', '    runs-on: ubuntu', '    steps:', '      - run: npm test');
      assert.deepEqual(spans(yaml, codeSections(yaml)), [
        [2, 4],
        [5, 9],
        [6, 9],
      ]);
    });

    it('keeps defs beside a dominant dict literal, and skips import lists', () => {
      const py = lines(
        'from x import (', //                                  1
        '    a,', //                                           2
        '    b,', //                                           3
        ')', //                                                4
        '', //                                                 5
        'DATA = {', //                                         6
        '    "k1": [1, 2, 3],', //                             7
        '    "k2": {', //                                      8
        '        "x": 1,', //                                  9
        '        "y": 2,', //                                 10
        '    },', //                                          11
        '    "k3": 3,', //                                    12
        '    "k4": 4,', //                                    13
        '}', //                                               14
        '', //                                                15
        'def lookup(key):', //                                16
        '    value = DATA.get(key)', //                       17
        '    return value', //                                18
      );
      assert.deepEqual(spans(py, codeSections(py)), [
        [6, 14],
        [8, 11],
        [16, 18],
      ]);
      const go = lines('package main', '', 'import (', '\t"fmt"', '\t"os"', ')', '', 'func main() {', '\tfmt.Println("x")', '\tos.Exit(0)', '}');
      assert.deepEqual(spans(go, codeSections(go)), [[8, 11]]);
      const ts2 = lines('import {', '  a,', '  b,', "} from './x';", 'export {', '  a,', '  b,', '};');
      assert.deepEqual(codeSections(ts2), []);
    });

    it('JS without semicolons: the header is the statement line, not an earlier one', () => {
      const js = lines(
        'const a = 1', //                                      1
        'const b = 2', //                                      2
        'function foo() {', //                                 3
        '  return a +', //                                     4
        '    b', //                                            5
        '}', //                                                6
        "describe('x', () => {", //                            7
        "  it('works', () => {", //                            8
        '    expect(1).toBe(1)', //                            9
        '  })', //                                            10
        '})', //                                              11
      );
      assert.deepEqual(spans(js, codeSections(js)), [
        [3, 6],
        [7, 11],
        [8, 10],
      ]);
    });

    it('survives unbalanced braces', () => {
      const text = lines(
        'function a() {', //                                  1
        '  const s = "unterminated {', //                     2
        '  return 1;', //                                     3
        '}', //                                               4
        '', //                                                5
        'function b() {', //                                  6
        '  if (x) {', //                                      7
        '    y();', //                                        8
        '  }', //                                             9
        '}', //                                              10
        '}', //                                              11
        '}', //                                              12
        'function c() {', //                                 13
        '  x = 1;', //                                       14
        '  {', //                                            15
        '  y = 2;', //                                       16
        '}', //                                              17
        'function d() {', //                                 18
        '  x = 1;', //                                       19
        '  y = 2;', //                                       20
        '}', //                                              21
        'function e() {', //                                 22
        '  never closed', //                                 23
        '', //                                               24
      );
      assert.deepEqual(spans(text, codeSections(text)), [
        [1, 4],
        [6, 10],
        [7, 9],
        [13, 17],
        [18, 21],
      ]);
    });

    it('drops tiny blocks and returns nothing for empty, blank or minified text', () => {
      assert.deepEqual(codeSections(''), []);
      assert.deepEqual(codeSections('\n\n  \n'), []);
      assert.deepEqual(codeSections('function a(){return{b:1}}function c(){if(x){y()}}'), []);
      const small = lines('function a() {', '  return 1;', '}', 'function b() { return 2;', '}');
      assert.deepEqual(spans(small, codeSections(small)), [[1, 3]]);
      assert.deepEqual(codeSections(small, { minLines: 4 }), []);
    });

    it('always returns valid ranges on random garbage', () => {
      const alphabet = ['{', '}', '(', ')', '[', ']', '"', "'", '`', '/', '*', '#', '\\', '\n', '\r\n', ' ', '    ', 'a', 'x = ', ';', ':', '"""'];
      let seed = 12345;
      const rnd = (n: number): number => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return (seed >>> 8) % n;
      };
      for (let t = 0; t < 300; t++) {
        let s = '';
        const len = rnd(400);
        for (let k = 0; k < len; k++) s += alphabet[rnd(alphabet.length)];
        assertValid(s, codeSections(s, { maxDepth: 1 + rnd(4), minLines: 2 }));
        assertValid(s, proseSections(s, { maxLines: 1 + rnd(10) }));
      }
    });

    it('takes 100k lines and pathological shapes (a 100k-deep brace nest, 100k blocks on one line): valid ranges, the expected sections', function () {
      this.timeout(60000);
      const jsLines = (n: number): string => {
        const js: string[] = [];
        for (let i = 0; js.length < n; i++) {
          js.push(`function f${i}(a, b) {`, '  if (a) {', `    return "}" + '{' + b;`, '  }', '  return /[{]/.test(a) ? a : b; // {', '}');
          js.push(`class C${i} {`, '  m() {', '    return 1;', '  }', '}');
        }
        return js.join('\n');
      };
      const big = jsLines(100_000);
      assert.equal(codeSections(big).length, (big.split('\n').length / 11) * 4);
      const pyLines = (n: number): string => {
        const py: string[] = [];
        for (let i = 0; py.length < n; i++) py.push(`def f${i}(a):`, '    if a:', '        return 1', '    return 2', '');
        return py.join('\n');
      };
      assert.equal(codeSections(pyLines(100_000)).length, 100_000 / 5);
      // Pathological shapes: a deep brace nest, and braces on one (minified) line.
      const nest = (n: number) => '{\n'.repeat(n) + '}\n'.repeat(n);
      const oneLine = (n: number) => 'function a(){'.repeat(n) + '}'.repeat(n);
      // Block comments and template strings on one line (a scan for their end must stop at the line's).
      const commentsOneLine = (n: number) => 'f(a/*x*/, `s`);'.repeat(n);
      // Their time (linear in the size: 10× the lines cost about 10× the time, not 100×) is
      // measured in bench/fingerprint/sections-scaling.js; unit tests never time anything.
      const shapes = [['js', jsLines], ['python', pyLines], ['brace nest', nest], ['one line', oneLine], ['comments on one line', commentsOneLine]] as const;
      const got = new Map<string, [number, number][]>();
      for (const [name, make] of shapes) {
        const text = make(100_000);
        const ranges = codeSections(text);
        assertValid(text, ranges);
        got.set(name, ranges.slice(0, 2).map((r) => [r.startLine, r.endLine]));
      }
      // The nest gives its two outer levels (maxDepth 2); a single line holds no section.
      assert.deepEqual(got.get('brace nest'), [[1, 200_000], [2, 199_999]]);
      assert.deepEqual(got.get('one line'), []);
      assert.deepEqual(got.get('comments on one line'), []);
    });
  });

  describe('proseSections', () => {
    const md = lines(
      '---', //                                                1
      'title: Doc', //                                         2
      '---', //                                                3
      '', //                                                   4
      'Intro paragraph line one.', //                          5
      'Intro line two.', //                                    6
      '', //                                                   7
      '# Title', //                                            8
      '', //                                                   9
      'Some text.', //                                        10
      '', //                                                  11
      '```bash', //                                           12
      '# not a heading', //                                   13
      'echo hi', //                                           14
      '```', //                                               15
      '', //                                                  16
      '## Install', //                                        17
      '', //                                                  18
      'Run this.', //                                         19
      '~~~', //                                               20
      '## still code', //                                     21
      '~~~', //                                               22
      '', //                                                  23
      'Usage', //                                             24
      '-----', //                                             25
      '', //                                                  26
      'Use it.', //                                           27
      '', //                                                  28
      '### Details', //                                       29
      '', //                                                  30
      'Detail text.', //                                      31
      '', //                                                  32
      'Other Title', //                                       33
      '===========', //                                      34
      '', //                                                  35
      'Final words.', //                                      36
      '',
      '',
    );

    it('reports ATX and setext heading sections, nested, ignoring fenced code and front matter', () => {
      assert.deepEqual(spans(md, proseSections(md)), [
        [5, 6], // text before the first heading
        [8, 31], // # Title: up to the next level-1 heading (setext ===)
        [17, 22], // ## Install: up to the next level-2 heading (setext ---)
        [24, 31], // Usage (setext level 2), containing ### Details
        [29, 31],
        [33, 36],
      ]);
    });

    it('does the same with CRLF line endings', () => {
      const crlf = md.replace(/\n/g, '\r\n');
      assert.deepEqual(spans(crlf, proseSections(crlf)), spans(md, proseSections(md)));
    });

    it('groups plain-text paragraphs into runs of about maxLines lines', () => {
      const para = (n: number, w: string): string[] => Array.from({ length: n }, (_, k) => `${w} line ${k} of a paragraph of English text.`);
      const text = lines(
        ...para(3, 'alpha'), //                                 1-3
        '', //                                                    4
        ...para(2, 'beta'), //                                  5-6
        '', //                                                    7
        ...para(4, 'gamma'), //                                 8-11
        '', //                                                   12
        '', //                                                   13
        ...para(3, 'delta'), //                                14-16
        '', //                                                   17
        ...para(14, 'epsilon'), //                             18-31: longer than maxLines, cut
        '', //                                                   32
        ...para(1, 'zeta'), //                                    33: a small tail, joined
        '',
      );
      assert.deepEqual(spans(text, proseSections(text, { maxLines: 6 })), [
        [1, 6], // alpha + beta (adding gamma would make 11 lines)
        [8, 11], // gamma (adding delta would span 8..16)
        [14, 16], // delta
        [18, 23], // epsilon cut into 6-line pieces
        [24, 29],
        [30, 33], // epsilon's last 2 lines + zeta
      ]);
      // A short text without headings is one run.
      const short = lines('', 'One.', '', 'Two.', '');
      assert.deepEqual(spans(short, proseSections(short)), [[2, 4]]);
    });

    it('splits Chinese text with one paragraph per line and no blank lines', () => {
      const zh = Array.from({ length: 10 }, (_, k) => `第${k + 1}段。这是一些没有空格的中文文本，用来测试分段。`).join('\n');
      assert.deepEqual(spans(zh, proseSections(zh, { maxLines: 4 })), [
        [1, 4],
        [5, 8],
        [9, 10],
      ]);
      // Long lines are also bounded by characters.
      const long = Array.from({ length: 6 }, () => '长'.repeat(100)).join('\n');
      assert.deepEqual(spans(long, proseSections(long, { maxLines: 30, maxChars: 250 })), [
        [1, 2],
        [3, 4],
        [5, 6],
      ]);
    });

    it('splits a long heading body into runs as well as reporting the heading section', () => {
      const body = Array.from({ length: 12 }, (_, k) => (k % 3 === 2 ? '' : `Sentence ${k}.`));
      const text = lines('# Head', '', ...body, '## Sub', 'Short body.');
      // Lines: 1 '# Head', 2 '', 3..14 body (blank at 5, 8, 11, 14), 15 '## Sub', 16 text.
      assert.deepEqual(spans(text, proseSections(text, { maxLines: 5 })), [
        [1, 16],
        [3, 7],
        [9, 13],
        [15, 16],
      ]);
    });

    it('returns nothing for empty or blank text', () => {
      assert.deepEqual(proseSections(''), []);
      assert.deepEqual(proseSections('\n \n\t\n'), []);
    });

    it('takes 100k lines of Markdown and of Chinese (no spaces): valid ranges, one section per heading', function () {
      this.timeout(60000);
      const markdown = (n: number): string => {
        const parts: string[] = [];
        for (let i = 0; parts.length < n; i++) parts.push(`${'#'.repeat(1 + (i % 6))} Heading ${i}`, '', 'Some text.', 'More text.', '');
        return parts.join('\n');
      };
      const chinese = (n: number) => '这是一个段落，没有空格。\n'.repeat(n);
      // Their time (linear: 10× the lines cost about 10× the time, not 100×) is measured in
      // bench/fingerprint/sections-scaling.js; unit tests never time anything.
      const md = markdown(100_000);
      const mdRanges = proseSections(md);
      assertValid(md, mdRanges);
      assert.equal(mdRanges.length, 100_000 / 5);
      const zh = chinese(100_000);
      const zhRanges = proseSections(zh);
      assertValid(zh, zhRanges);
      assert.ok(zhRanges.length > 1000);
    });
  });
});
