'use strict';
// Preload for bench/regions/jobReplay.js (`node -r bench/lib/captureJob.js dist/cli.js scan … --locate`):
// when the native kernel is loaded, its `init` and `regionPlanAsync` are wrapped so that the
// arguments of their first call are written (v8.serialize) to $NEARDUP_JOB_CAPTURE and
// $NEARDUP_JOB_CAPTURE.init; the scan itself runs as usual. Only for benches.
const fs = require('fs');
const v8 = require('v8');

const out = process.env.NEARDUP_JOB_CAPTURE;
const dlopen = process.dlopen;
if (out) {
  process.dlopen = function (module, file, ...rest) {
    const r = dlopen.call(this, module, file, ...rest);
    const e = module.exports;
    if (/neardup_kernel/.test(String(file)) && e && typeof e.regionPlanAsync === 'function') {
      const wrapped = {};
      for (const k of Object.getOwnPropertyNames(e)) wrapped[k] = e[k];
      let planned = false;
      wrapped.regionPlanAsync = function (...args) {
        if (!planned) fs.writeFileSync(out, v8.serialize(args));
        planned = true;
        return e.regionPlanAsync.apply(this, args);
      };
      let inited = false;
      wrapped.init = function (...args) {
        if (!inited) fs.writeFileSync(`${out}.init`, v8.serialize(args));
        inited = true;
        return e.init.apply(this, args);
      };
      module.exports = wrapped;
    }
    return r;
  };
}
