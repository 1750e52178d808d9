/**
 * The browser's engine: the workspace's documents held in memory by path, each decoded and
 * fingerprinted as in Node (core/text/decodeText, core/fingerprint/decodedDocument: the same
 * documents for the same bytes), and the report built from them by core/report as `neardup scan`
 * builds it (same pairs, distances and groups for the same files and settings). Its tools — the
 * WebAssembly kernel, the CJK segmenter, the variant fold — are handed in by the worker.
 */
import { fingerprintDecodedText } from '../core/fingerprint/decodedDocument';
import type { FingerprintOptions } from '../core/fingerprint/fingerprint';
import { buildReport, type FingerprintedDocument } from '../core/report/report';
import { decodeText, type HostDecoders } from '../core/text/decodeText';
import { bigramSegmenter } from '../core/text/segmenters';
import type { CjkSegmenter, CodeKernel, TextFold } from '../core/types';
import type { EngineSettings } from '../node/settings/engineSettings';
import type { WebFile, WebReport, WebUpdateResult } from './webProtocol';

export interface WebEngineTools {
  kernel?: CodeKernel;
  /** jieba's (or bigrams when it is missing); bigrams anyway under the setting `bigram`. */
  segmenter: CjkSegmenter;
  fold?: TextFold;
}

/** The browser's decoders: its TextDecoder for GB18030 (UTF-16 by core's loop). */
const browserDecoders: HostDecoders = {
  gb18030: (bytes) => new TextDecoder('gb18030').decode(bytes),
};

export class WebEngine {
  private readonly documents = new Map<string, FingerprintedDocument>();

  constructor(
    private settings: EngineSettings,
    private readonly tools: WebEngineTools,
  ) {}

  /** New settings: fingerprints made under the old ones are dropped (the host sends the files again). */
  setSettings(settings: EngineSettings): void {
    this.settings = settings;
    this.documents.clear();
  }

  get size(): number {
    return this.documents.size;
  }

  /** Fingerprints the files given (replacing what was held for their paths) and drops the removed ones. */
  update(files: readonly WebFile[], removes: readonly string[] = []): WebUpdateResult {
    for (const p of removes) this.documents.delete(p);
    const skipped: { relPath: string; reason: string }[] = [];
    for (const f of files) {
      const reason = this.fingerprint(f);
      if (reason !== null) {
        this.documents.delete(f.relPath);
        skipped.push({ relPath: f.relPath, reason });
      }
    }
    return { files: this.documents.size, skipped };
  }

  /** The report of every document held, as the Node scan makes it. */
  report(): WebReport {
    const docs = [...this.documents.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const s = this.settings;
    const report = buildReport(docs, {
      maxDistance: s.maxDistance,
      sectionMaxDistance: s.sectionMaxDistance,
      minSimilarity: s.minSimilarity,
      sections: s.sections,
      kernel: this.tools.kernel,
    });
    const lines: Record<string, number> = {};
    for (const d of docs) if (d.lines !== undefined) lines[d.path] = d.lines;
    return { ...report, files: docs.length, lines };
  }

  /** Null when the file is held, else why it is skipped. Nothing here throws for bad input. */
  private fingerprint(f: WebFile): string | null {
    const s = this.settings;
    if (f.bytes.length > s.maxFileSizeBytes) return `larger than ${Math.round(s.maxFileSizeBytes / 1024)} KB`;
    const decoded = decodeText(f.bytes, browserDecoders);
    if (!decoded.ok) return decoded.reason;
    const options = (): FingerprintOptions => ({
      kernel: this.tools.kernel,
      minTokens: s.minTokens,
      sections: s.sections,
      normalizeIdentifiers: s.normalizeIdentifiers,
      stopWords: s.stopWords,
      // TF-IDF needs a first pass over every file (the Node scan's shared table): TF here.
      weighting: s.weighting === 'tfidf' ? 'tf' : s.weighting,
      segmenter: s.cjkSegmenter === 'bigram' ? bigramSegmenter : this.tools.segmenter,
      fold: s.foldVariants !== false ? this.tools.fold : undefined,
    });
    let outcome;
    try {
      outcome = fingerprintDecodedText(f.relPath, decoded.text, f.bytes.length, decoded.encoding, options);
    } catch (e) {
      return `fingerprinting failed (${e instanceof Error ? e.message : String(e)})`;
    }
    if (!outcome.ok) return outcome.reason;
    this.documents.set(f.relPath, { path: f.relPath, doc: outcome.doc, lines: outcome.lines });
    return null;
  }
}
