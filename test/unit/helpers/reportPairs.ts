/** Report pairs of every shape a scan reports, for the tests of the JSON report's text. */
import { CELL_LINE_STRIDE } from '../../../src/core/containers/cellLines';
import type { ReportPair } from '../../../src/core/report/report';

const cell = (c: number, line: number) => c * CELL_LINE_STRIDE + line;

/** Pairs of every shape a scan reports: files, sections, notebook cells, odd names, a fraction. */
export function scanLikePairs(count: number): ReportPair[] {
  const clones = ['exact', 'renamed', 'edited'] as const;
  return Array.from({ length: count }, (_, i): ReportPair => {
    const d = i % 9;
    const common = { distance: d, similarity: 1 - d / 64 - (i % 5 === 0 ? 1 / 3 : 0), clone: clones[i % 3] };
    if (i % 4 === 0) return { kind: 'file', a: { path: `src/f${i}.ts` }, b: { path: `lib/f${i % 17}.ts` }, ...common };
    if (i % 4 === 1) return { kind: 'section', a: { path: 'n.ipynb', startLine: cell(1 + (i % 3), 2), endLine: cell(1 + (i % 3), 9) }, b: { path: `m${i}.py`, startLine: i, endLine: i + 20 }, ...common };
    if (i % 4 === 2) return { kind: 'section', a: { path: `doc/${i}.md`, startLine: 1, endLine: 30 }, b: { path: 'doc/\u4e2d\u6587 "q"\\.md', startLine: 40, endLine: 70 }, ...common };
    return { kind: 'section', a: { path: `src/\u202eodd\u0085${i % 2}.ts`, startLine: 3, endLine: 4 }, b: { path: `src/f${i}.ts`, startLine: 5, endLine: 6 }, ...common };
  });
}

