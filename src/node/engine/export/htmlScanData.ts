/**
 * The engine's index in the shape of a scan's result, for the HTML report (Export Report…; the
 * page is written in the engine worker, never on the extension host): its documents, pairs and
 * groups with paths relative to the workspace folder, or with several folders to their common
 * parent folder.
 */
import * as path from 'node:path';
import type { FingerprintedDocument, ReportGroup, ReportPair } from '../../../core/report/report';
import type { DocumentFingerprint } from '../../../core/types';
import type { ViewReport } from '../engineProtocol';

/** The index in the shape of a scan's result, for the HTML report (paths relative to `root`, with '/'). */
export interface HtmlScanData {
  root: string;
  pairs: ReportPair[];
  groups: ReportGroup[];
  documents: FingerprintedDocument[];
  stats: { files: number; sections: number };
}

/** The documents of the index as EngineState keeps them (documentEntries.ts). */
interface Entries {
  docs: ReadonlyMap<string, DocumentFingerprint> | Map<string, DocumentFingerprint>;
  linesOf(p: string): number | undefined;
}

/** The index as a scan's result: documents, pairs and groups relative to the folders' common parent. */
export function htmlScanOf(roots: readonly string[], entries: Entries, allPairs: Iterable<ReportPair>, reportGroups: ViewReport['groups']): HtmlScanData {
  let root = roots[0] ?? '/';
  // The folders' common parent. Folders on different drives (Windows) have none: the page then
  // lists the other drives' pairs without their text and leaves their files out of the treemap.
  for (const r of roots) {
    while (r !== root && !r.startsWith(root.endsWith(path.sep) ? root : root + path.sep)) {
      const up = path.dirname(root);
      if (up === root) break;
      root = up;
    }
  }
  const rel = (p: string) => path.relative(root, p).split(path.sep).join('/');
  const relLoc = <T extends { path: string }>(l: T): T => ({ ...l, path: rel(l.path) });
  const documents: HtmlScanData['documents'] = [];
  let sections = 0;
  for (const [p, doc] of entries.docs) {
    const lines = entries.linesOf(p);
    documents.push(lines === undefined ? { path: rel(p), doc } : { path: rel(p), doc, lines });
    sections += doc.sections.length;
  }
  documents.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const pairs = [...allPairs].map((p) => ({ ...p, a: relLoc(p.a), b: relLoc(p.b) }));
  const groups = reportGroups.map((g) => {
    const locations = g.members.map((m) => (m.startLine === undefined ? { path: rel(m.path) } : { path: rel(m.path), startLine: m.startLine, endLine: m.endLine }));
    return { kind: g.kind, members: locations.map((l) => l.path), maxDistance: g.maxDistance, ...(g.kind === 'section' ? { locations } : {}) };
  });
  return { root, pairs, groups, documents, stats: { files: documents.length, sections } };
}
