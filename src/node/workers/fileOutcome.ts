/**
 * One file's fingerprinting, in and out: the file a worker is asked to read and what it answers
 * (its fingerprint, or why it was skipped). Imported by the messages, the packed wire format, the
 * fingerprinting code and the engine; imports only core's types.
 */
import type { RegionBuffer, RegionDocument } from '../../core/regions/document';
import type { DocumentFingerprint } from '../../core/types';

export interface FileToFingerprint {
  /** Absolute path to read. */
  path: string;
  /** Path as reported (relative, '/' separators); decides code versus prose by its extension. */
  relPath: string;
}

export type FileOutcome =
  | {
      relPath: string;
      ok: true;
      bytes: number;
      encoding: string;
      doc: DocumentFingerprint;
      /** Asked for with `regions` (the CLI's --locate): its tokens for the region finder, of the text fingerprinted. */
      region?: RegionDocument;
      /**
       * Instead of `region`, a code file's document as the kernel made it, when asked for (a
       * worker packing documents the receiver keeps: its buffer is sent as it is, packing.ts).
       */
      regionBuffer?: RegionBuffer;
      /** Lines of the text (a final line break ends the last line; it does not start another). */
      lines?: number;
    }
  | {
      relPath: string;
      ok: false;
      reason: string;
      /** 'cjk': not done, because its text needs jieba (see {@link CjkMode}); send it again. */
      retry?: 'cjk';
      /** With `retry`: the CJK characters of its text (tokenize.ts isCjk), i.e. how much jieba has to cut. */
      cjkChars?: number;
    };

/**
 * A code file the kernel read and fingerprinted in a batch (codeBatch.ts): the fingerprint as the
 * kernel's words (CodeKernel.fingerprint's layout), not objects; a worker packs it (packing.ts)
 * into its answer as it packs a FileOutcome's, the same words.
 */
export interface KernelWordsOutcome {
  relPath: string;
  ok: true;
  bytes: number;
  encoding: 'utf-8';
  lines: number;
  /** The file's item then its sections', as fingerprint writes them (none: fewer tokens than minTokens). */
  words: Uint32Array;
  /** A prose file's (its document's kind 'prose'); else code. */
  prose?: true;
  regionBuffer?: RegionBuffer;
}

/** What a worker packs (packing.ts): outcomes, or the kernel's words of a batch. */
export type PackableOutcome = FileOutcome | KernelWordsOutcome;

/** What a worker segments Chinese with so far (fingerprintFile.ts cjkSegmenterInUse). */
export type CjkSegmenterInUse = 'none' | 'subset' | 'whole' | 'bigram';
