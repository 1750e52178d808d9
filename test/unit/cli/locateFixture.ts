/**
 * The fixture tree of locate.test.ts: a function pasted into an unrelated file and renamed in a
 * second, an English and a Chinese paragraph run pasted into other documents, and a function
 * repeated in one file — with the line ranges planted, to check `--locate` reports them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chineseText, codeFile, codeFunction, mulberry32, proseText } from '../helpers/corpus';

export interface Range {
  path: string;
  startLine: number;
  endLine: number;
}

/** A pair of the CLI's JSON report, with the fields --locate adds. */
export interface LocatedPair {
  kind: string;
  a: Range;
  b: Range;
  distance: number;
  similarity: number;
  clone?: string;
  located?: boolean;
  /** File pairs: the matching regions inside the two files. */
  regions?: Array<{ a: { startLine: number; endLine: number }; b: { startLine: number; endLine: number }; clone: string; similarity: number }>;
}

/** The CLI's JSON report as the --locate tests read it. */
export interface LocatedReport {
  stats: { files: number; sections: number; bytes: number; elapsedMs: number };
  pairs: LocatedPair[];
  groups: Array<{ kind: string; members: string[]; maxDistance: number; located?: boolean }>;
  baseline?: { matched: number; new: number };
}

export interface PlantedCopy {
  what: string;
  a: Range;
  b: Range;
  clone: 'exact' | 'renamed' | 'edited';
}

const lineCount = (s: string): number => s.split('\n').length - (s.endsWith('\n') ? 1 : 0);

/** Joins parts with a blank line; the 1-based inclusive lines of each part. */
function compose(parts: string[]): { text: string; lines: Array<{ startLine: number; endLine: number }> } {
  let text = '';
  const lines: Array<{ startLine: number; endLine: number }> = [];
  for (const p of parts) {
    if (text) text += '\n';
    const startLine = lineCount(text) + 1;
    text += p.endsWith('\n') ? p : p + '\n';
    lines.push({ startLine, endLine: startLine + lineCount(p) - 1 });
  }
  return { text, lines };
}

/** Every identifier of a generated function renamed consistently (keywords kept). */
function renameAll(code: string): string {
  const keep = new Set(['export', 'function', 'const', 'return', 'number']);
  return code.replace(/\b[A-Za-z_][A-Za-z_0-9]*\b/g, (m) => (keep.has(m) ? m : `${m}Rn`));
}

/**
 * What follows a pasted block: code that does not start like the block's own neighbours (the
 * generator's functions all share one header shape, which real code varies), a heading in prose.
 */
const n = (rnd: () => number) => Math.floor(rnd() * 1e6);
/** Statements of a shape of their own (one per host, so hosts differ around the block). */
const SHAPES = [
  (rnd: () => number) => `let cache${n(rnd)}: Map<string, number[]> | undefined;\nif (cache${n(rnd)} === undefined) throw new RangeError('${n(rnd)}');\n`,
  (rnd: () => number) => `import { x${n(rnd)} } from './m${n(rnd)}';\ndeclare const flag${n(rnd)}: boolean;\n`,
  (rnd: () => number) => `type Pair${n(rnd)} = [left: string, right?: bigint];\nenum Mode${n(rnd)} { On = ${n(rnd)}, Off }\n`,
  (rnd: () => number) => `while (queue${n(rnd)}.length) void queue${n(rnd)}.pop()?.call(null);\n`,
  (rnd: () => number) => `for (const [k, v] of Object.entries(opts${n(rnd)})) console.warn(k, typeof v);\n`,
  (rnd: () => number) => `label${n(rnd)}: do { break label${n(rnd)}; } while (false);\n`,
];
let shape = 0;
const codeAfter = (rnd: () => number, k: number) => SHAPES[shape++ % SHAPES.length](rnd) + '\n' + codeFile(rnd, k);
const codeBefore = (rnd: () => number, k: number) => codeFile(rnd, k) + '\n' + SHAPES[shape++ % SHAPES.length](rnd);
const headingAfter = (rnd: () => number, body: string) => `## ${n(rnd)}\n\n` + body;

/** Paragraphs of English-like prose without the heading. */
const paragraphs = (rnd: () => number, n: number) => proseText(rnd, n).split('\n\n').slice(1).join('\n\n');

/** Writes the tree into `dir`; returns the copies planted. */
export function writeLocateFixture(dir: string): PlantedCopy[] {
  const rnd = mulberry32(4242);
  shape = 0;
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const planted: PlantedCopy[] = [];
  const at = (p: string, l: { startLine: number; endLine: number }): Range => ({ path: p, ...l });

  // A function in its origin, pasted verbatim into an unrelated file, renamed in a third.
  const fn = codeFunction(rnd, 22);
  const origin = compose([codeBefore(rnd, 3), fn, codeAfter(rnd, 2)]);
  const pasted = compose([codeBefore(rnd, 4), fn, codeAfter(rnd, 3)]);
  const renamed = compose([codeFile(rnd, 2) + `\nexport default ${n(rnd)};\n`, renameAll(fn), codeAfter(rnd, 4)]);
  write('src/origin.ts', origin.text);
  write('src/pasted.ts', pasted.text);
  write('src/renamed.ts', renamed.text);
  planted.push({ what: 'function pasted', a: at('src/origin.ts', origin.lines[1]), b: at('src/pasted.ts', pasted.lines[1]), clone: 'exact' });
  planted.push({ what: 'function renamed', a: at('src/origin.ts', origin.lines[1]), b: at('src/renamed.ts', renamed.lines[1]), clone: 'renamed' });

  // A function repeated in one file.
  const again = codeFunction(rnd, 18);
  const repeat = compose([codeBefore(rnd, 2), again, codeAfter(rnd, 3) + '\n' + codeBefore(rnd, 1), again, codeAfter(rnd, 1)]);
  write('src/repeat.ts', repeat.text);
  planted.push({ what: 'same-file repeat', a: at('src/repeat.ts', repeat.lines[1]), b: at('src/repeat.ts', repeat.lines[3]), clone: 'exact' });

  // A run of English paragraphs pasted into another document.
  const run = paragraphs(rnd, 3);
  const guide = compose([paragraphs(rnd, 5), run, headingAfter(rnd, paragraphs(rnd, 4))]);
  const notes = compose([paragraphs(rnd, 3), run, headingAfter(rnd, paragraphs(rnd, 6))]);
  write('docs/guide.md', guide.text);
  write('docs/notes.md', notes.text);
  planted.push({ what: 'English paragraphs pasted', a: at('docs/guide.md', guide.lines[1]), b: at('docs/notes.md', notes.lines[1]), clone: 'exact' });

  // A run of Chinese paragraphs pasted into another document.
  const zh = chineseText(rnd, 3);
  const first = compose([chineseText(rnd, 5), zh, headingAfter(rnd, chineseText(rnd, 4))]);
  const second = compose([chineseText(rnd, 4), zh, headingAfter(rnd, chineseText(rnd, 5))]);
  write('docs/zh/甲.md', first.text);
  write('docs/zh/乙.md', second.text);
  planted.push({ what: 'Chinese paragraphs pasted', a: at('docs/zh/甲.md', first.lines[1]), b: at('docs/zh/乙.md', second.lines[1]), clone: 'exact' });
  return planted;
}
