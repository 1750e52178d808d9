'use strict';
// The pure scoring rules of bench/quality (run.js): which reported file pairs are correct, recall
// at the Jaccard positives, mutant recall per edit rate, and the verdict against issue 12's
// targets. No file system, no child processes: test/unit/bench/qualityScore.test.ts runs these on
// small objects.
//
// A reported file pair is correct when it is a true pair
//   - by LINEAGE: the two files are the same file of one package — a version twin, a transpiled
//     twin, a zh-cn/zh-tw twin (same package and twin key), or a mutant of one of them (a mutant
//     carries its source's package and twin key; so a mutant and its source, the source's twins
//     and the source's other mutants) — or
//   - by CONTENT: the exact Jaccard of their token 3-shingle sets is >= CONTENT (0.5), or, for
//     Chinese, that of their texts converted to Simplified (a Traditional edition of a text is
//     the same text to a reader), whatever the planting records say (real files have natural twins:
//     semver's max-satisfying.js and min-satisfying.js, one a renamed copy of the other, J 0.56).
//     0.5 is the located-copy benchmark's bar for a pair of ranges (locate-score.js) and about a
//     20 % edited copy's Jaccard (one edited token breaks up to three shingles).
// Recall stays the exact truth's: pairs with J >= POSITIVE (0.9) that were reported.
// Printed beside it: the precision of the truth before lineage (J >= STRICT, 0.7, raw tokens).

const CONTENT = 0.5; // a reported pair is correct by content at or above this Jaccard
const STRICT = 0.7; // the earlier truth: correct only at or above this Jaccard (no lineage)
const POSITIVE = 0.9; // a pair at or above this must be reported
/** Issue 12's done-when, in every subset. */
const TARGET = { precision: 0.98, recall: 0.98, mutants: { 10: 0.95, 20: 0.8 } };

/** A file's lineage: its subset, package and twin key (a mutant's are its source's). */
function lineageOf(f) {
  return `${f.subset}|${f.pkg}|${f.twinKey}`;
}

/** Two manifest entries are one file's versions, twins or mutants. */
function sameLineage(fa, fb) {
  return lineageOf(fa) === lineageOf(fb);
}

/**
 * Whether a reported pair is correct and why: { correct, by: 'content' | 'lineage' | null }.
 * `jaccard` is the exact truth; `readerJaccard` (optional) the same on the texts as a reader
 * reads them (Chinese converted to Simplified). Content is judged first, so `by: 'lineage'` means
 * the pair is true only by lineage.
 */
function judgePair({ lineage, jaccard, readerJaccard = null }) {
  if (jaccard >= CONTENT || (readerJaccard !== null && readerJaccard >= CONTENT)) return { correct: true, by: 'content' };
  if (lineage) return { correct: true, by: 'lineage' };
  return { correct: false, by: null };
}

const ratio = (n, d) => (d ? n / d : null);

/**
 * Precision of judged pairs [{ correct, by, jaccard }]: reported, correct, by content, by lineage
 * only, precision; and the precision of the earlier truth (raw J >= STRICT, no lineage).
 */
function precisionOf(judged) {
  const correct = judged.filter((j) => j.correct).length;
  const byContent = judged.filter((j) => j.by === 'content').length;
  const strict = judged.filter((j) => j.jaccard >= STRICT).length;
  return { reported: judged.length, correct, byContent, byLineage: correct - byContent, strict, precision: ratio(correct, judged.length), strictPrecision: ratio(strict, judged.length) };
}

/** Recall of the positives (keys) by the set of reported keys. */
function recallOf(positives, reported) {
  const found = positives.filter((k) => reported.has(k)).length;
  return { positives: positives.length, found, recall: ratio(found, positives.length) };
}

/** Mutant recall per edit rate: mutants [{ rate, found }] -> { [rate]: { mutants, found, recall } }. */
function mutantRecall(mutants, rates) {
  const out = {};
  for (const rate of rates) {
    const ms = mutants.filter((m) => m.rate === rate);
    const found = ms.filter((m) => m.found).length;
    out[rate] = { mutants: ms.length, found, recall: ratio(found, ms.length) };
  }
  return out;
}

/** Adds up per-subset scores (precisionOf, recallOf, mutantRecall results) into one. */
function pooled(scores) {
  const sum = (xs, k) => xs.reduce((s, x) => s + x[k], 0);
  const P = scores.map((s) => s.precision);
  const R = scores.map((s) => s.recall);
  const precision = { reported: sum(P, 'reported'), correct: sum(P, 'correct'), byContent: sum(P, 'byContent'), byLineage: sum(P, 'byLineage'), strict: sum(P, 'strict') };
  precision.precision = ratio(precision.correct, precision.reported);
  precision.strictPrecision = ratio(precision.strict, precision.reported);
  const recall = { positives: sum(R, 'positives'), found: sum(R, 'found') };
  recall.recall = ratio(recall.found, recall.positives);
  const mutants = {};
  for (const s of scores) {
    for (const [rate, m] of Object.entries(s.mutants)) {
      const t = mutants[rate] || (mutants[rate] = { mutants: 0, found: 0 });
      t.mutants += m.mutants;
      t.found += m.found;
    }
  }
  for (const m of Object.values(mutants)) m.recall = ratio(m.found, m.mutants);
  return { precision, recall, mutants };
}

/**
 * What misses the target in one score ({ precision, recall, mutants }): a list of
 * 'precision 0.97 < 0.98'-like strings, empty when every target is met. A measure with nothing to
 * measure (no pairs reported, no positives, no mutants at a rate) is not a miss.
 */
function misses(score, target = TARGET) {
  const out = [];
  const f = (x) => x.toFixed(3);
  if (score.precision.precision !== null && score.precision.precision < target.precision) out.push(`precision ${f(score.precision.precision)} < ${target.precision}`);
  if (score.recall.recall !== null && score.recall.recall < target.recall) out.push(`recall ${f(score.recall.recall)} < ${target.recall}`);
  for (const [rate, t] of Object.entries(target.mutants)) {
    const m = score.mutants[rate];
    if (m && m.recall !== null && m.recall < t) out.push(`${rate} % mutants ${f(m.recall)} < ${t}`);
  }
  return out;
}

module.exports = { CONTENT, STRICT, POSITIVE, TARGET, lineageOf, sameLineage, judgePair, precisionOf, recallOf, mutantRecall, pooled, misses };
