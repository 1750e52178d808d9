/**
 * A {@link Fingerprinter} over the fingerprint worker pool (dist/worker.js). The pool is started
 * on first use and closed after a while without work, so an idle extension holds no extra threads
 * (nor their copies of the jieba dictionary).
 */
import type { Fingerprinter } from './engineState';
import type { EngineSettings } from '../settings/engineSettings';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import type { FileOutcome, FileToFingerprint } from '../workers/fileOutcome';
import { WorkerPool, type WorkerPoolOptions } from '../workers/workerPool';
import { unpackOutcomes, type PackedOutcomes } from '../workers/packing';

export interface PoolFingerprinterOptions {
  script: string;
  size: number;
  /** Close the pool after this long without a task. Default 30 s. */
  idleMs?: number;
  /** Heap limits of each worker: running out ends that worker (restarted), not the process. */
  resourceLimits?: WorkerPoolOptions['resourceLimits'];
}

export class PoolFingerprinter implements Fingerprinter {
  private pool: WorkerPool<WorkerRequest, WorkerResponse> | null = null;
  private busy = 0;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly idleMs: number;

  constructor(private readonly options: PoolFingerprinterOptions) {
    this.idleMs = options.idleMs ?? 30_000;
  }

  get size(): number {
    return Math.max(1, this.options.size);
  }

  /**
   * Packed (packing.ts): the outcomes come back as a few transferred arrays, the batch's plain code
   * files fingerprinted by the kernel in one call (codeBatch.ts), not a structured clone of every
   * object; each document's sketches are then copied into a buffer of its own (ownSketches), so a
   * document the index keeps holds its own words, not its batch's.
   */
  async fingerprintFiles(files: FileToFingerprint[], settings: EngineSettings, regions = false): Promise<FileOutcome[]> {
    const packed = (await this.run({ type: 'fingerprintFiles', files, settings, pack: true, ...(regions ? { regions, regionsOwned: true } : {}) })) as PackedOutcomes;
    const outcomes = ownSketches(unpackOutcomes(packed, files.map((f) => f.relPath)));
    return regions ? ownRegions(outcomes) : outcomes;
  }

  /**
   * Packed too, the documents kept here (`regionsOwned`): a batch's plain code files read and
   * tokenised by the kernel in one call, each document the kernel's own buffer transferred as it
   * is, not a structured clone of its arrays (the region index's full build reads every file);
   * those files not fingerprinted (`regionsOnly`: only their documents are read here).
   */
  async regionDocuments(files: FileToFingerprint[], settings: EngineSettings): Promise<FileOutcome[]> {
    const packed = (await this.run({ type: 'fingerprintFiles', files, settings, pack: true, regions: true, regionsOwned: true, regionsOnly: true })) as PackedOutcomes;
    return ownRegions(unpackOutcomes(packed, files.map((f) => f.relPath)));
  }

  fingerprintText(relPath: string, text: string, settings: EngineSettings): Promise<FileOutcome> {
    return this.run({ type: 'fingerprintText', relPath, text, settings }) as Promise<FileOutcome>;
  }

  /** Fault injection (tests): terminates one running fingerprint worker. */
  terminateWorker(): boolean {
    return this.pool?.terminateWorker() ?? false;
  }

  async close(): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const pool = this.pool;
    this.pool = null;
    if (pool) await pool.close();
  }

  private async run(req: WorkerRequest): Promise<WorkerResponse> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (!this.pool) this.pool = new WorkerPool<WorkerRequest, WorkerResponse>({
        script: this.options.script,
        size: this.size,
        resourceLimits: this.options.resourceLimits,
      });
    const pool = this.pool;
    this.busy++;
    try {
      return await pool.run(req);
    } finally {
      this.busy--;
      if (this.busy === 0 && this.pool === pool) {
        this.idleTimer = setTimeout(() => {
          if (this.busy === 0 && this.pool === pool) void this.close();
        }, this.idleMs);
        this.idleTimer.unref?.();
      }
    }
  }
}

/** Outcomes whose documents' sketches are views of one buffer per document (a copy), not of the batch's. */
export function ownSketches(outcomes: FileOutcome[]): FileOutcome[] {
  for (const o of outcomes) {
    if (!o.ok) continue;
    const { file, sections } = o.doc;
    let words = file ? file.sketch.length : 0;
    for (const s of sections) words += s.sketch.length;
    const own = new Uint32Array(words);
    let at = 0;
    const copy = (sketch: Uint32Array): Uint32Array => {
      own.set(sketch, at);
      at += sketch.length;
      return own.subarray(at - sketch.length, at);
    };
    if (file) file.sketch = copy(file.sketch);
    for (const s of sections) s.sketch = copy(s.sketch);
  }
  return outcomes;
}

/** A copy of an array on a batch's shared memory, in a buffer of its own. */
const own = <T extends Uint8Array | Int32Array | Uint32Array>(a: T): T => a.slice() as T;

/**
 * Outcomes whose region documents hold only their own arrays: a document the worker packed with
 * its batch's others on shared memory (prose, notebooks: not in a kernel buffer of its own, which
 * is transferred as it is) is copied out of it, so that a document the engine keeps (its cache of
 * an update's partners) does not keep its batch's.
 */
export function ownRegions(outcomes: FileOutcome[]): FileOutcome[] {
  for (const o of outcomes) {
    const d = o.ok ? o.region : undefined;
    if (!d || !(d.raw.hi.buffer instanceof SharedArrayBuffer)) continue;
    d.raw = { hi: own(d.raw.hi), lo: own(d.raw.lo) };
    if (d.ids) d.ids = { hi: own(d.ids.hi), lo: own(d.ids.lo) };
    if (d.isIdent) d.isIdent = own(d.isIdent);
    d.start = own(d.start);
    d.lineStarts = own(d.lineStarts);
    if (d.reportLines) d.reportLines = own(d.reportLines);
    if (d.proseTokens) d.proseTokens = own(d.proseTokens);
    if (d.anchors) d.anchors = { hash: own(d.anchors.hash), pos: own(d.anchors.pos) };
  }
  return outcomes;
}
