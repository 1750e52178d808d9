'use strict';
// CPU time of each thread of a Node process, for `node -r bench/lib/thread-cpu.js dist/cli.js scan …`:
// at exit, one line on stderr with the CPU milliseconds (user + system, from /proc/self/task/*/stat,
// read every 5 ms so that threads which end before the process are counted) of
//   main      the main thread;
//   v8        the threads that exist before any script runs: V8's platform threads (optimising
//             compiler, concurrent and parallel garbage collection);
//   workers   each thread started later (worker_threads; a libuv pool thread would count here too);
//   process   the whole process, from /proc/self/stat (threads that ended before a sample are
//             only in this figure).
// Linux only (elsewhere it prints nothing). Clock ticks are 10 ms, so each figure is ±10 ms.
// A second line, thread-faults, gives the same threads' minor page faults (first touches of fresh
// memory: ~14 µs each on the development machine, exact counts where times are noisy).
const fs = require('fs');

const TICK_MS = 1000 / 100;
const seen = new Map(); // tid → { ms, faults, early }
let early = null;

/** A thread's (or the process's) CPU ms and minor faults, from its stat line. */
function parse(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS, faults: Number(fields[7]) };
}

function sample() {
  let tids;
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return false;
  }
  if (early === null) early = new Set(tids);
  for (const tid of tids) {
    try {
      seen.set(tid, { ...parse(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')), early: early.has(tid) });
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return true;
}

if (sample()) {
  setInterval(sample, 5).unref();
  process.on('exit', () => {
    sample();
    const sums = (key) => {
      let v8 = 0;
      let main = 0;
      const workers = [];
      for (const [tid, t] of seen) {
        if (tid === String(process.pid)) main = t[key];
        else if (t.early) v8 += t[key];
        else if (t[key] > 0) workers.push(t[key]);
      }
      return { main, v8, workers: workers.join(' + ') || 0 };
    };
    let whole = { ms: NaN, faults: NaN };
    try {
      whole = parse(fs.readFileSync('/proc/self/stat', 'utf8'));
    } catch {
      // not Linux after all
    }
    const cpu = sums('ms');
    const faults = sums('faults');
    process.stderr.write(`thread-cpu: main ${cpu.main} ms, v8 ${cpu.v8} ms, workers ${cpu.workers} ms, process ${whole.ms} ms\n`);
    process.stderr.write(`thread-faults: main ${faults.main}, v8 ${faults.v8}, workers ${faults.workers}, process ${whole.faults}\n`);
  });
}
