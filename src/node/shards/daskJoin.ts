/**
 * `neardup join --engine dask`: the permuted-table join run as the Dask job of
 * `engines/dask/neardup_join.py`, started with execFile (no shell) as `python3 <job>` — fixed
 * arguments; the job's input (shard paths, radii, block layout, scheduler address) goes as one
 * JSON object on its standard input, so nothing named in a shard or on the command line becomes
 * part of a command. The job reads the shards itself (on a real cluster, from storage the workers
 * share), partitions every fingerprint by each table's block key, compares within partitions,
 * confirms by the sketches, de-duplicates, and prints the confirmed pairs as JSON Lines; they are
 * mapped here to the plan's item numbers and handed to finishReport, as the local join's are.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { planBlocks } from '../../core/index/blockLayout';
import type { MatchedItems, ReportOptions, ReportPlan, Item } from '../../core/report/report';
import { FILE_SKETCH_SIZE, SECTION_SKETCH_SIZE } from '../../core/fingerprint/fingerprint';
import type { LoadedShards } from './readShards';
import { ShardError } from './shardFormat';

/**
 * The Python that runs the job: Debian's (where `apt-get install python3-dask python3-distributed`
 * puts them) when there is one, else the first python3 on the PATH. Two fixed choices.
 */
const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/** Most tables of a Dask join: each table is one shuffle of every fingerprint. */
const DASK_MAX_TABLES = 128;
/**
 * Cost of sending one fingerprint through one table's shuffle, in comparisons (planBlocks' unit):
 * a row of 32 bytes serialised, sent and sorted costs far more than the 10 ns of a comparison.
 */
const DASK_ENTRY_COST = 20;

export interface DaskOptions {
  scheduler?: string;
  /** Worker processes of the local cluster (no scheduler given). */
  workers?: number;
  /** The job's progress lines (its stderr). */
  onLine?: (line: string) => void;
}

/** The job's file: beside dist/ when bundled, at the repository's root from the sources. */
export function daskJobPath(): string | null {
  for (const up of ['..', path.join('..', '..', '..')]) {
    const p = path.join(__dirname, up, 'engines', 'dask', 'neardup_join.py');
    if (fs.existsSync(p)) return p;
  }
  return null;
}

function blocksFor(k: number, n: number): number {
  const plan = planBlocks(k, Math.max(n, 2), { batch: true, maxTables: DASK_MAX_TABLES, entryCost: DASK_ENTRY_COST });
  return plan.blocks > 0 ? plan.blocks : k + 1;
}

/** The confirmed pairs of the Dask job, as the plan's item numbers. */
export async function runDaskJoin(files: readonly string[], loaded: LoadedShards, plan: ReportPlan, options: ReportOptions, dask: DaskOptions): Promise<{ files: MatchedItems; sections: MatchedItems | null }> {
  const job = daskJobPath();
  if (!job) throw new ShardError('the Dask job (engines/dask/neardup_join.py) is not installed beside this NearDup');
  const spec = {
    shards: files.map((f) => path.resolve(f)),
    scheduler: dask.scheduler ?? null,
    workers: dask.workers ?? 2,
    minSimilarity: options.minSimilarity,
    file: { k: options.maxDistance, blocks: blocksFor(options.maxDistance, plan.fileItems.length), sketch: FILE_SKETCH_SIZE },
    section: options.sections ? { k: options.sectionMaxDistance, blocks: blocksFor(options.sectionMaxDistance, plan.sectionItems.length), sketch: SECTION_SKETCH_SIZE } : null,
  };
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(PYTHON, [job], { maxBuffer: 1 << 30, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } }, (error, out, err) => {
      if (error) {
        const last = String(err).trim().split('\n').filter(Boolean).slice(-3).join(' / ');
        const code = (error as NodeJS.ErrnoException).code;
        reject(new ShardError(code === 'ENOENT' ? 'python3 is not installed (the Dask engine needs python3 with dask and distributed)' : `the Dask job failed: ${last || error.message}`));
      } else resolve(out);
    });
    child.stderr?.on('data', (d: Buffer) => {
      for (const line of d.toString('utf8').split('\n')) if (line.startsWith('neardup-dask: ')) dask.onLine?.(line.slice(14));
    });
    child.stdin?.on('error', () => undefined); // a job that dies at once is reported by its exit
    child.stdin?.end(JSON.stringify(spec));
  });
  const index = (items: readonly Item[]) => {
    const m = new Map<string, number>();
    items.forEach((it, i) => m.set(`${plan.docs[it.doc].path}\0${it.startLine}\0${it.endLine}`, i));
    return m;
  };
  const fileIndex = new Map<string, number>();
  plan.fileItems.forEach((it, i) => fileIndex.set(plan.docs[it.doc].path, i));
  const sectionIndex = options.sections ? index(plan.sectionItems) : null;
  const found = { file: [] as number[], section: [] as number[] };
  for (const line of stdout.split('\n')) {
    if (!line) continue;
    let v: { kind: 'file' | 'section'; a: [string, number, number]; b: [string, number, number]; d: number };
    try {
      v = JSON.parse(line);
    } catch {
      throw new ShardError(`the Dask job printed a line that is not a pair: ${line.slice(0, 80)}`);
    }
    const at = (s: [string, number, number]) => (v.kind === 'file' ? fileIndex.get(s[0]) : sectionIndex?.get(`${s[0]}\0${s[1]}\0${s[2]}`));
    const a = at(v.a);
    const b = at(v.b);
    if (a === undefined || b === undefined) throw new ShardError(`the Dask job named an item the shards do not hold: ${line.slice(0, 120)}`);
    found[v.kind].push(Math.min(a, b), Math.max(a, b), v.d);
  }
  void loaded;
  return { files: toMatched(found.file), sections: options.sections ? toMatched(found.section) : null };
}

/** Triples (a, b, d) as a MatchedList ordered as matchPairList orders its pairs (distance, a, b). */
function toMatched(flat: number[]): MatchedItems {
  const n = flat.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((x, y) => flat[3 * x + 2] - flat[3 * y + 2] || flat[3 * x] - flat[3 * y] || flat[3 * x + 1] - flat[3 * y + 1]);
  const a = new Uint32Array(n);
  const b = new Uint32Array(n);
  const distance = new Uint8Array(n);
  order.forEach((p, i) => {
    a[i] = flat[3 * p];
    b[i] = flat[3 * p + 1];
    distance[i] = flat[3 * p + 2];
  });
  return { length: n, a, b, distance, truncated: false };
}
