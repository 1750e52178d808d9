/**
 * Typed messages between the main thread (CLI or extension host) and the fingerprinting worker.
 */
import type { DocumentFingerprint } from '../core/types';
import type { EngineSettings } from './engineSettings';

export interface FileToFingerprint {
  /** Absolute path to read. */
  path: string;
  /** Path as reported (relative, '/' separators); decides code versus prose by its extension. */
  relPath: string;
}

export type FileOutcome =
  | { relPath: string; ok: true; bytes: number; encoding: string; doc: DocumentFingerprint }
  | { relPath: string; ok: false; reason: string };

export type WorkerRequest =
  | { type: 'fingerprintFiles'; files: FileToFingerprint[]; settings: EngineSettings }
  | { type: 'fingerprintText'; relPath: string; text: string; settings: EngineSettings };

export interface WorkerResponseMap {
  fingerprintFiles: FileOutcome[];
  fingerprintText: FileOutcome;
}

export type WorkerResponse = WorkerResponseMap[keyof WorkerResponseMap];
