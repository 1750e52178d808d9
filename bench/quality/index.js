#!/usr/bin/env node
'use strict';
// node bench/quality [--rebuild] [--mutants N] [run.js options] [neardup scan options]
//   = corpus (built if missing) + truth (computed if missing/stale) + run.
// See bench/quality/README.md.
const { ensureCorpus, mutantsArg } = require('./corpus');
const { ensureTruth } = require('./truth');
const { main } = require('./run');

const argv = process.argv.slice(2);
const rebuild = argv.includes('--rebuild');
const rest = argv.filter((a) => a !== '--rebuild');
try {
  const manifest = ensureCorpus({ force: rebuild, mutantSources: mutantsArg(rest) });
  ensureTruth({ manifest, force: rebuild });
  process.exitCode = main(rest);
} catch (e) {
  console.error(`bench/quality: ${e.message}`);
  process.exitCode = 2;
}
