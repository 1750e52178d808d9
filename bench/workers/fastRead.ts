/**
 * The worker's per-file steps alone, in this thread (issue 16's native read): every file of a tree
 * through fingerprintFileSync as a --locate worker calls it (regions, region buffers), the usual
 * path (NEARDUP_FAST_READ=0's) and the fast one (src/node/workers/fingerprintFile.ts fastCode) alternately, cold
 * (first pass, in a fresh process each) and warm; CPU time of this thread; the fast path's counts.
 *
 *   node -r tsx/cjs bench/workers/fastRead.ts [tree dir] [--passes 5] [--mode fast|usual]
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { walkFilesSync } from '../../src/node/files/walkSync';
import { fingerprintFileSync } from '../../src/node/workers/fingerprintFile';
import { fastCodeCounts, useFastCode } from '../../src/node/workers/fingerprintFile';
import { DEFAULT_ENGINE_SETTINGS } from '../../src/node/settings/engineSettings';

const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const dir = path.resolve(args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a) && a !== 'fast' && a !== 'usual') ?? 'bench/.cache/trees/small');
const mode = opt('--mode', '');

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

if (mode) {
  // One process, one mode: a cold pass then warm ones.
  useFastCode(mode === 'fast');
  const files = [...walkFilesSync(dir)];
  const passes = Number(opt('--passes', '3'));
  const times: number[] = [];
  for (let p = 0; p < passes; p++) {
    const t0 = cpuMs();
    for (const f of files) fingerprintFileSync(f, DEFAULT_ENGINE_SETTINGS, undefined, undefined, true, true);
    times.push(cpuMs() - t0);
  }
  console.log(JSON.stringify({ mode, files: files.length, times, counts: fastCodeCounts }));
} else {
  const rounds = Number(opt('--rounds', '5'));
  const got: Record<string, number[][]> = { usual: [], fast: [] };
  let counts = {};
  for (let r = 0; r < rounds; r++) {
    for (const m of r % 2 ? ['fast', 'usual'] : ['usual', 'fast']) {
      const out = execFileSync(process.execPath, ['-r', 'tsx/cjs', __filename, dir, '--mode', m, '--passes', opt('--passes', '3')], { encoding: 'utf8' });
      const j = JSON.parse(out.trim().split('\n').pop()!);
      got[m].push(j.times);
      if (m === 'fast') counts = j.counts;
    }
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const pass of [0, 1]) {
    const u = med(got.usual.map((t) => t[pass]));
    const f = med(got.fast.map((t) => t[pass]));
    console.log(`${pass === 0 ? 'cold' : 'warm'} pass: usual ${u.toFixed(0)} ms CPU, fast ${f.toFixed(0)} ms (×${(f / u).toFixed(3)}, −${(u - f).toFixed(0)} ms; medians of ${rounds})`);
  }
  console.log('fast path counts:', JSON.stringify(counts));
}
