/**
 * How the engine hands files to its fingerprint workers: in batches of at most
 * {@link ENGINE_BATCH_FILES} files and {@link ENGINE_BATCH_BYTES} bytes (a file larger than that
 * goes alone), a few batches in flight at once, so that a worker always has the next batch
 * queued while the engine's thread takes in the last one. Used by the index job's reads
 * (fingerprints) and by the region index's (region documents).
 */

/**
 * Most files per batch. Each batch is a message each way and a turn of the engine's thread: with
 * 8 files a batch (the engine's first default) the small bench tree's 5,340 files took ~670 round
 * trips a pass, and the worker spent ~0.3 ms posting each answer.
 */
export const ENGINE_BATCH_FILES = 64;
/** A batch is closed once its files hold this many bytes (the CLI's worker batches: scan.ts DEFAULT_BATCH_BYTES). */
export const ENGINE_BATCH_BYTES = 256 * 1024;

export interface BatchLimits {
  /** Most files a batch (at least 1). */
  files?: number;
  /** Bytes at which a batch is closed (at least 1). */
  bytes?: number;
  /** Most batches sent and not yet answered (at least 1). */
  inFlight: number;
  /** Stops sending new batches (those sent are waited for). */
  signal?: AbortSignal;
}

/** Consecutive batches of `items`, in their order: each closed at `maxFiles` items or once its sizes reach `maxBytes`. */
export function* batchesOf<T>(items: readonly T[], sizeOf: (item: T) => number, maxFiles: number, maxBytes: number): Generator<T[]> {
  const files = Math.max(1, Math.floor(maxFiles));
  const bytes = Math.max(1, maxBytes);
  let batch: T[] = [];
  let held = 0;
  for (const item of items) {
    batch.push(item);
    held += Math.max(0, sizeOf(item) || 0);
    if (batch.length >= files || held >= bytes) {
      yield batch;
      batch = [];
      held = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Sends `items` in batches ({@link batchesOf}, default limits {@link ENGINE_BATCH_FILES} and
 * {@link ENGINE_BATCH_BYTES}) with at most `limits.inFlight` unanswered; resolves once every batch
 * sent is answered. `send` must not reject (it handles its own failures).
 */
export async function sendInBatches<T>(items: readonly T[], sizeOf: (item: T) => number, limits: BatchLimits, send: (batch: T[]) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const max = Math.max(1, limits.inFlight);
  for (const batch of batchesOf(items, sizeOf, limits.files ?? ENGINE_BATCH_FILES, limits.bytes ?? ENGINE_BATCH_BYTES)) {
    if (limits.signal?.aborted) break;
    const p: Promise<void> = send(batch).finally(() => inFlight.delete(p));
    inFlight.add(p);
    while (inFlight.size >= max) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}
