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
const fs = require('fs');

const TICK_MS = 1000 / 100;
const seen = new Map(); // tid → { ms, early }
let early = null;

function parse(stat) {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
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
      seen.set(tid, { ms: parse(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')), early: early.has(tid) });
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
    let v8 = 0;
    const workers = [];
    let main = 0;
    for (const [tid, t] of seen) {
      if (tid === String(process.pid)) main = t.ms;
      else if (t.early) v8 += t.ms;
      else if (t.ms > 0) workers.push(t.ms);
    }
    let whole = NaN;
    try {
      whole = parse(fs.readFileSync('/proc/self/stat', 'utf8'));
    } catch {
      // not Linux after all
    }
    process.stderr.write(`thread-cpu: main ${main} ms, v8 ${v8} ms, workers ${workers.join(' + ') || 0} ms, process ${whole} ms\n`);
  });
}
