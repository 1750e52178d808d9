/**
 * Folding of Chinese Traditional and variant characters for fingerprints, with the character
 * dictionaries of opencc-js (OpenCC's data): the table made once per thread (or once per scan, by
 * the first of its workers that needs it, on shared memory), on the first text that holds a Han
 * character, and never for a text without one; the default table from its stored pairs
 * (variantPairs.ts), not built. Only single characters are mapped (never OpenCC's phrases), so a
 * folded text keeps every offset; see src/core/text/variantFold.ts.
 */
import type { TextFold } from '../../core/types';
import { buildVariantTable, firstFoldableHan, foldVariants, type VariantDictionaries, type VariantTable } from '../../core/text/variantFold';

/** Loads the dictionaries; throws when opencc-js is missing (variantDictionaries.ts has opencc-js's). */
export type VariantLoader = () => VariantDictionaries;

/** The default table's loader: its stored pairs (variantPairs.ts), not a dictionary's; never called. */
const storedPairs: VariantLoader = () => {
  throw new Error('the stored table has no dictionaries');
};

/** One table per loader per thread. */
const tables = new WeakMap<VariantLoader, VariantTable>();

/** Entries of a table (one per UTF-16 code unit). */
const TABLE_ENTRIES = 65536;
/** A shared table's state word, before the table: empty, being made, ready, failed (each thread then makes its own). */
const EMPTY = 0;
const MAKING = 1;
const READY = 2;
const FAILED = 3;
/** Longest wait for another thread making the shared table; then this thread makes its own. */
const SHARED_WAIT_MS = 2000;

/**
 * Room for the default fold table, to hand to a scan's workers (workerData, {@link useVariantTableBuffer}):
 * the first of them that meets Han text makes the table there (~10–20 ms) and the others wait for
 * it instead of each making its own. 128 KB, untouched by a tree without Han text.
 */
export function variantTableBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 + TABLE_ENTRIES * 2);
}

let sharedBuffer: SharedArrayBuffer | undefined;

/** This thread's default fold table comes from (or is made into) `buffer`, shared with the other workers of its scan. */
export function useVariantTableBuffer(buffer: SharedArrayBuffer): void {
  if (buffer.byteLength === 4 + TABLE_ENTRIES * 2) sharedBuffer = buffer;
}

/** The default fold table in `buffer` (a scan's {@link variantTableBuffer}) when a thread has made it there, else undefined (never waits). */
export function readyVariantTable(buffer: SharedArrayBuffer): VariantTable | undefined {
  if (buffer.byteLength !== 4 + TABLE_ENTRIES * 2) return undefined;
  return Atomics.load(new Int32Array(buffer, 0, 1), 0) === READY ? new Uint16Array(buffer, 4, TABLE_ENTRIES) : undefined;
}

/** The table, or a table that folds nothing (logged) when the dictionaries cannot be loaded. */
function makeTable(log: ((msg: string) => void) | undefined, loader: VariantLoader): { table: VariantTable; ok: boolean } {
  try {
    // The default table stored (variantPairs.ts: its test holds it equal to the one opencc-js's dictionaries build).
    if (loader === storedPairs) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const stored = require('./variantPairs') as typeof import('./variantPairs');
      return { table: stored.tableOfPairs(stored.VARIANT_PAIRS), ok: true };
    }
    return { table: buildVariantTable(loader()), ok: true };
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    log?.(`NearDup: the Chinese variant tables (opencc-js) could not be loaded (${why}); Traditional and variant characters are not folded.`);
    return { table: new Uint16Array(TABLE_ENTRIES), ok: false };
  }
}

/** The shared table: made here when no other thread has begun it, else waited for; undefined when it failed or is late. */
function sharedTable(buffer: SharedArrayBuffer, log: ((msg: string) => void) | undefined, loader: VariantLoader): VariantTable | undefined {
  const state = new Int32Array(buffer, 0, 1);
  const view = new Uint16Array(buffer, 4, TABLE_ENTRIES);
  if (Atomics.compareExchange(state, 0, EMPTY, MAKING) === EMPTY) {
    const made = makeTable(log, loader);
    if (made.ok) view.set(made.table);
    Atomics.store(state, 0, made.ok ? READY : FAILED);
    Atomics.notify(state, 0);
    return made.ok ? view : made.table;
  }
  if (Atomics.load(state, 0) === MAKING) Atomics.wait(state, 0, MAKING, SHARED_WAIT_MS);
  return Atomics.load(state, 0) === READY ? view : undefined;
}

/**
 * This thread's fold table (made on first use: the default one from its stored pairs, on the
 * scan's shared memory when there is some; a loader's built from its dictionaries). When the
 * dictionaries cannot be loaded, the reason is logged once and the table folds nothing:
 * fingerprints as with folding off.
 */
export function variantTable(log?: (msg: string) => void, loader: VariantLoader = storedPairs): VariantTable {
  let table = tables.get(loader);
  if (!table) {
    const shared = loader === storedPairs && sharedBuffer ? sharedTable(sharedBuffer, log, loader) : undefined;
    table = shared ?? makeTable(log, loader).table;
    tables.set(loader, table);
  }
  return table;
}

/**
 * A fold for FingerprintOptions.fold: the text with Traditional and variant Han characters
 * replaced by their Simplified form, code unit for code unit; the text itself when it has no Han
 * character (no table is built for it).
 */
export function variantFold(log?: (msg: string) => void, loader: VariantLoader = storedPairs): TextFold {
  return (text: string) => {
    const first = firstFoldableHan(text);
    if (first < 0) return text;
    return foldVariants(text, variantTable(log, loader), first);
  };
}
