/**
 * The identity of a reported pair in a baseline (`neardup scan --write-baseline`, the editor's
 * *Add to baseline*), one definition for the CLI and the engine: the same pair gets the same key
 * wherever it is found.
 *
 * A pair is its kind and its two sides, in an order that does not depend on which side the report
 * calls `a`. A side of a file pair is its path; a side of a section pair is its path and a hash of
 * the section's content: its token count and the bottom-k MinHash sketch of its shingle set. Not
 * its lines (lines inserted above move it) nor its SimHash (under `--weighting tfidf` every edit
 * anywhere changes the weights, so the SimHash moves too; the sketch does not depend on the
 * weighting). A renamed file is another path: its pairs are new. A side of a located pair
 * (`--locate`) is its path and the hash of its tokens as read: a located range is not a section,
 * but line shifts keep it too. Paths are relative to the folder the baseline belongs to, with `/`.
 */
// node:crypto on first use: a run that hashes nothing does not load it at start-up (issue 16).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const createHash = (algorithm: string) => (require('node:crypto') as typeof import('node:crypto')).createHash(algorithm);

const sha = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex');

/** The fingerprint parts of a section its identity hashes. */
export interface SectionContent {
  tokens: number;
  sketch: Uint32Array;
}

/** A file pair's side: its path. */
export function fileSide(relPath: string): string {
  return relPath;
}

/** A section pair's side: its path and the hash of its content (undefined: its lines, a fallback). */
export function sectionSide(relPath: string, section: SectionContent | undefined, lines: { startLine: number; endLine: number }): string {
  const content = section
    ? sha(Buffer.concat([Buffer.from(Uint32Array.of(section.tokens).buffer), Buffer.from(section.sketch.buffer, section.sketch.byteOffset, section.sketch.byteLength)])).slice(0, 24)
    : `lines:${lines.startLine}-${lines.endLine}`;
  return `${relPath}\0${content}`;
}

/** A located side: its path and the hash of its tokens (ScanResult.locatedSides), or its lines. */
export function locatedSide(relPath: string, tokenHash: string | undefined, lines: { startLine: number; endLine: number }): string {
  return `${relPath}\0${tokenHash ?? `region-lines:${lines.startLine}-${lines.endLine}`}`;
}

/** The pair's key, 32 hex digits: the same for a↔b and b↔a. */
export function pairKey(kind: 'file' | 'section', a: string, b: string): string {
  const [x, y] = a <= b ? [a, b] : [b, a];
  return sha(`neardup-pair/1\0${kind}\0${x}\0\0${y}`).slice(0, 32);
}
