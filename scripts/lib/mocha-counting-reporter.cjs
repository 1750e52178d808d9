// Mocha reporter: the usual spec output, plus the run's counts written as JSON to the file named
// by --reporter-option stats=FILE (read by scripts/test-all.js).
'use strict';
const fs = require('fs');
const path = require('path');
const mochaModule = require('mocha'); // mocha 12 is ESM: require() gives its namespace
const Mocha = mochaModule.default || mochaModule;

class CountingReporter extends Mocha.reporters.Spec {
  constructor(runner, options = {}) {
    super(runner, options);
    // mocha 12 colours its ✔/✖ symbols (log-symbols) even when colours are off (e.g. CI=true).
    if (!Mocha.reporters.Base.useColors) {
      const symbols = Mocha.reporters.Base.symbols;
      // eslint-disable-next-line no-control-regex
      for (const k of Object.keys(symbols)) symbols[k] = String(symbols[k]).replace(/\u001b\[\d+m/g, '');
    }
    const file = (options.reporterOption || options.reporterOptions || {}).stats;
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      if (!file) return;
      const { passes = 0, failures = 0, pending = 0, tests = 0, duration = 0 } = this.stats || {};
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, skipped: pending, tests, duration }));
    });
  }
}

module.exports = CountingReporter;
