/**
 * The JSON report, exactly as DESIGN.md's contract gives it (plus `truncated` when the pair cap
 * was reached): as one text, or as the pieces of that text in order, made as they are written.
 */
import { memberLabel } from '../core/containers/cellLines';
import { inNotebook, listItemsText, shownPair, type PairTexts } from '../core/report/pairsJson';
import type { ReportGroup, ReportPair } from '../core/report/report';
import type { ScanResult } from '../node/scan/scan';
import type { BaselineSummary } from './baseline';
import { escapeJsonControls, hasJsonControls } from './sanitize';

function membersOf(g: ReportGroup): string[] {
  return g.locations?.some(inNotebook) ? g.locations.map(memberLabel) : g.members;
}

// `located` (with --locate): a group of copies located inside files. A notebook's section member
// reads `path:cell3:2-10`.
const shownGroup = (g: ReportGroup) => ({ kind: g.kind, members: membersOf(g), maxDistance: g.maxDistance, ...(g.located ? { located: true } : {}) });

/** Pairs or groups per piece: pieces of ~100 KB, which die young (one text of tens of MB and its copy were most of the tail's garbage collection). */
const PER_PIECE = 300;

/** With a baseline, `result` holds only the new pairs and `baseline` counts both (`baseline` object). */
export function formatJson(result: ScanResult, rootArg: string, baseline?: BaselineSummary): string {
  const utf8 = new TextDecoder();
  return [...formatJsonPieces(result, rootArg, baseline)].map((p) => (typeof p === 'string' ? p : utf8.decode(p))).join('');
}

/**
 * The text of {@link formatJson}, piece by piece (joined, the same text): the pairs and the groups
 * are stringified a few hundred at a time, each inside an object of the report's depth so that
 * JSON.stringify indents them as it indents the whole report. The pairs' text made elsewhere
 * (ScanResult.pairTexts) comes as UTF-8 bytes.
 */
export function* formatJsonPieces(result: ScanResult, rootArg: string, baseline?: BaselineSummary): Generator<string | Uint8Array> {
  const { files, sections, bytes, elapsedMs } = result.stats;
  // Paths and the root are the only strings of the report that are not ours: when none has a
  // character to escape, the text is not scanned for them (tens of MB on a large tree).
  const escape = hasJsonControls(rootArg) || (baseline !== undefined && hasJsonControls(baseline.file)) || result.documents.some((d) => hasJsonControls(d.path));
  const safe = escape ? escapeJsonControls : (s: string) => s;
  const outline = JSON.stringify(
    {
      version: 1,
      root: rootArg,
      stats: { files, sections, bytes, elapsedMs },
      // Beyond DESIGN.md's first contract (an addition of the same version 1): with --baseline,
      // the pairs it holds are left out and counted here.
      ...(baseline ? { baseline: { file: baseline.file, matched: baseline.matched, new: baseline.new } } : {}),
      pairs: [],
      groups: [],
      // Beyond DESIGN.md's contract, present only when the pairs of a kind reached the cap: the
      // report holds only some of them (a consumer that ignores it still reads a valid report).
      ...(result.truncated ? { truncated: { files: result.truncated.files, sections: result.truncated.sections } } : {}),
    },
    null,
    2,
  );
  // No string holds a raw line break, so this is where the two lists go.
  const lists = '\n  "pairs": [],\n  "groups": []';
  const at = outline.indexOf(lists);
  yield safe(outline.slice(0, at));
  if (result.pairTexts) yield* pairPieces(result.pairs, result.pairTexts, safe);
  else yield* listPieces('pairs', result.pairs, shownPair, safe);
  yield ',';
  yield* listPieces('groups', result.groups, shownGroup, safe);
  yield safe(outline.slice(at + lists.length)) + '\n';
}

/** `\n  "name": [ … ]` of the report, as JSON.stringify(report, null, 2) writes it, in pieces. */
function* listPieces<T>(name: string, items: readonly T[], shown: (item: T) => unknown, safe: (s: string) => string): Generator<string> {
  if (items.length === 0) {
    yield `\n  "${name}": []`;
    return;
  }
  // (the items' text as a slice of JSON.stringify's, its separator a piece of its own: a text
  // joined to it would be copied whole to be written)
  yield `\n  "${name}": [`;
  for (let from = 0; from < items.length; from += PER_PIECE) {
    if (from > 0) yield ',';
    yield safe(listItemsText(name, items.slice(from, from + PER_PIECE).map(shown)));
  }
  yield '\n  ]';
}

/** Bytes per piece of the pairs made elsewhere (runs, commas and short runs made here gathered: one write each). */
const PIECE_BYTES = 128 * 1024;
/** Pairs made here from which they are a piece of text of their own (fewer: encoded among the bytes). */
const TEXT_RUN = 32;
const COMMA = new Uint8Array([0x2c]);

/**
 * `\n  "pairs": [ … ]` as {@link listPieces} writes it, the text of a pair taken from `made` when
 * made for this very object (the scan's own pairs, made on another thread with --locate:
 * node/scan/pairTexts.ts; in UTF-8, written without being encoded here), a run of them one slice;
 * the others stringified here. The located copies replace or change some of the scan's pairs here
 * and there (thousands of short runs): the bytes are written in pieces of about {@link PIECE_BYTES}.
 */
function* pairPieces(pairs: readonly ReportPair[], made: PairTexts, safe: (s: string) => string): Generator<string | Uint8Array> {
  if (pairs.length === 0) {
    yield '\n  "pairs": []';
    return;
  }
  const madeAt = madeIndex(pairs, made);
  const { bytes, ends } = made;
  let parts: Uint8Array[] = [];
  let size = 0;
  const gathered = () => {
    const piece = parts.length === 1 ? parts[0] : Buffer.concat(parts, size);
    parts = [];
    size = 0;
    return piece;
  };
  yield '\n  "pairs": [';
  for (let i = 0; i < pairs.length; ) {
    const k = madeAt[i];
    let j = i + 1;
    if (k < 0) {
      while (j < pairs.length && j - i < PER_PIECE && madeAt[j] < 0) j++;
      const text = safe(listItemsText('pairs', pairs.slice(i, j).map(shownPair)));
      if (j - i < TEXT_RUN) {
        const piece = Buffer.from(i > 0 ? ',' + text : text);
        parts.push(piece);
        size += piece.length;
      } else {
        if (size > 0) yield gathered();
        if (i > 0) yield ',';
        yield text;
      }
    } else {
      // (already escaped where a path needs it)
      while (j < pairs.length && j - i < PER_PIECE && madeAt[j] === k + (j - i)) j++;
      if (i > 0) parts.push(COMMA);
      const piece = bytes.subarray(k === 0 ? 0 : ends[k - 1] + 1, ends[k + (j - i) - 1]);
      parts.push(piece);
      size += piece.length + (i > 0 ? 1 : 0);
    }
    if (size >= PIECE_BYTES) yield gathered();
    i = j;
  }
  if (size > 0) yield gathered();
  yield '\n  ]';
}

/** For each pair, its text's number in `made` (−1: made here): as withLocated gave it for these very pairs, else by identity. */
function madeIndex(pairs: readonly ReportPair[], made: PairTexts): Int32Array {
  if (made.shown?.pairs === pairs) return made.shown.at;
  const madeAt = new Map<ReportPair, number>();
  for (let k = 0; k < made.pairs.length; k++) madeAt.set(made.pairs[k], k);
  return Int32Array.from(pairs, (p) => madeAt.get(p) ?? -1);
}
