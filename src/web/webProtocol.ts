/**
 * The messages between the extension host of VS Code for the Web (src/extension/web) and the
 * browser engine worker (engineWorker.ts): requests with an id, answers with the same id, and the
 * worker's one-time notices. Types only.
 */
import type { Report } from '../core/report/report';
import type { EngineSettings } from '../node/settings/engineSettings';

/** One file's bytes, by its path relative to the workspace ('/' separators; a folder prefix with several roots). */
export interface WebFile {
  relPath: string;
  bytes: Uint8Array;
}

export type WebRequest =
  | {
      type: 'init';
      /** The bytes of jieba-wasm's module (dist/web/jieba_rs_wasm_bg.wasm); absent: character bigrams. */
      jieba?: ArrayBuffer;
      settings: EngineSettings;
    }
  | { type: 'settings'; settings: EngineSettings }
  | { type: 'update'; files: WebFile[]; removes: string[] }
  | { type: 'report' };

/** What the engine says it runs with (for the log and the once-only notice). */
export interface WebEngineInfo {
  kernel: 'wasm' | 'ts';
  segmenter: 'jieba' | 'bigram';
  /** Why a part is not used (each said once by the host). */
  problems: string[];
}

export interface WebUpdateResult {
  files: number;
  /** Files skipped in this update, with the reason. */
  skipped: { relPath: string; reason: string }[];
}

export interface WebReport extends Report {
  files: number;
  /** Lines of each document (for ranges in diagnostics), by path. */
  lines: Record<string, number>;
}

export interface WebResponseMap {
  init: WebEngineInfo;
  settings: null;
  update: WebUpdateResult;
  report: WebReport;
}

export type WebMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: string }
  | { type: 'log'; message: string };
