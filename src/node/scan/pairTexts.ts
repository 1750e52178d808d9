/**
 * The JSON text of the scan's own pairs made on a worker of its pool (--locate's tail, issue 12):
 * packed while the kernel's job searches, sent when it is done, made there while this thread
 * reports the located copies; the CLI's JSON takes each unchanged pair's text from it.
 */
import { packReportPairs, type PairTexts, type PairsBytes } from '../../core/report/pairsJson';
import type { ReportPair } from '../../core/report/report';
import type { WorkerRequest, WorkerResponse } from '../workers/messages';
import type { WorkerPool } from '../workers/workerPool';

/**
 * The pairs packed now; `send` asks the pool's first worker for their text (undefined when they
 * are none, not of the scan's shape, or the worker fails: then they are stringified as before).
 */
export function pairTextsOf(pairs: readonly ReportPair[]): { send(pool: WorkerPool<WorkerRequest, WorkerResponse>): Promise<PairTexts | undefined> } {
  const packed = pairs.length === 0 ? undefined : packReportPairs(pairs);
  return {
    send: (pool) =>
      packed
        ? pool.run({ type: 'pairsJson', pairs: packed }, [packed.ints.buffer, packed.similarity.buffer] as ArrayBuffer[], { slot: 0 }).then(
            (res) => ({ pairs, ...(res as PairsBytes) }),
            () => undefined,
          )
        : Promise.resolve(undefined),
  };
}
