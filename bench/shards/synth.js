// Synthetic fingerprint shards with planted near pairs, for the join's scale bench
// (bench/shards/index.js) and its test (test/unit/cli/shardsDask.test.ts). Every item is a file
// fingerprint: a random 64-bit SimHash and a bottom-k sketch of 32 random values (fewer than the
// file sketch's 128, so the Jaccard estimate is exact). Planted pairs, always across two shards:
//   near: the copy's SimHash differs from its base in d = q mod (k + 1) bits (0..k, exactly k
//         included) and its sketch in 2 of 32 values (Jaccard 30/34 = 0.88): the join must find
//         every one (recall 1.0);
//   far:  d = k + 1 bits and the very same sketch: the join must find none.
// Random items are random in both: two of them pair by chance with probability ~ C(64, ≤k)/2^64
// per pair (k = 3: ~2.4e-15; 10M items give ~0.1 such pairs).
//
//   node bench/shards/synth.js --out DIR --items N --shards S --near P --far F --k K [--plain]
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SKETCH = 32;
const u32 = (rnd) => (rnd() * 4294967296) >>> 0;

function sortedUnique(values) {
  const s = Uint32Array.from(new Set(values)).sort();
  return s;
}

/** A random item from a seed: { hi, lo, sketch }. */
function randomItem(seed) {
  const rnd = mulberry32(seed);
  const hi = u32(rnd);
  const lo = u32(rnd);
  const values = [];
  while (values.length < SKETCH) values.push(u32(rnd));
  return { hi, lo, sketch: sortedUnique(values) };
}

/** The item with `d` of its 64 bits flipped (distinct bits), and `replace` sketch values changed. */
function derive(base, seed, d, replace) {
  const rnd = mulberry32(seed ^ 0x5bd1e995);
  const bits = new Set();
  while (bits.size < d) bits.add(Math.floor(rnd() * 64));
  let { hi, lo } = base;
  for (const b of bits) {
    if (b >= 32) hi = (hi ^ (1 << (b - 32))) >>> 0;
    else lo = (lo ^ (1 << b)) >>> 0;
  }
  const values = Array.from(base.sketch);
  const drop = new Set();
  while (drop.size < replace) drop.add(Math.floor(rnd() * values.length));
  const kept = values.filter((_, i) => !drop.has(i));
  while (kept.length < values.length) {
    const v = u32(rnd);
    if (!values.includes(v) && !kept.includes(v)) kept.push(v);
  }
  return { hi, lo, sketch: sortedUnique(kept) };
}

const hex8 = (n) => (n >>> 0).toString(16).padStart(8, '0');

function line(p, item) {
  const sk = Buffer.from(item.sketch.buffer, item.sketch.byteOffset, item.sketch.byteLength).toString('base64');
  return `{"path":"${p}","kind":"file","lines":[1,40],"simhash":"${hex8(item.hi)}${hex8(item.lo)}","tokens":60,"features":${item.sketch.length},"sketch":"${sk}","hash":"${hex8(item.hi ^ 0x9e3779b9)}${hex8(item.lo)}","bytes":1000}\n`;
}

function header(name) {
  return (
    JSON.stringify({
      neardup: 'fingerprints',
      format: 1,
      shard: name,
      tool: 'neardup-bench-synth',
      tokenizer: { version: 'neardup-tokens/2', shingleSize: 3, hash: 'fnv1a64+fmix/1', fileSketch: 128, sectionSketch: 64 },
      settings: { minTokens: 50, sections: true, normalizeIdentifiers: false, stopWords: false, weighting: 'none', cjkSegmenter: 'jieba', foldVariants: true },
    }) + '\n'
  );
}

/**
 * Writes `shards` shards of `items` fingerprints in all into `out`; returns { files, near, far }:
 * the shard files and the planted pairs as [`shard:path`, `shard:path`, d] (sides sorted).
 */
async function writeSynthShards({ out, items, shards, near, far, k, seed = 17, gzip = true }) {
  fs.mkdirSync(out, { recursive: true });
  if (shards < 2) throw new Error('planted pairs go across shards: at least 2 shards');
  const names = Array.from({ length: shards }, (_, s) => `s${String(s).padStart(3, '0')}`);
  const files = [];
  const truth = { near: [], far: [] };
  const perShard = Math.floor(items / shards);
  for (let s = 0; s < shards; s++) {
    const file = path.join(out, `${names[s]}.jsonl${gzip ? '.gz' : ''}`);
    files.push(file);
    const stream = fs.createWriteStream(file);
    const sink = gzip ? zlib.createGzip({ level: 1 }) : stream;
    if (gzip) sink.pipe(stream);
    let chunk = header(names[s]);
    let count = 0;
    const emit = async (text) => {
      chunk += text;
      count++;
      if (chunk.length > 1 << 20) {
        if (!sink.write(chunk)) await new Promise((r) => sink.once('drain', r));
        chunk = '';
      }
    };
    // Planted pairs q: base in shard q mod S, copy in shard (q + 1) mod S.
    for (const [kind, total, dOf, replace] of [['n', near, (q) => q % (k + 1), 2], ['f', far, () => k + 1, 0]]) {
      for (let q = s; q < total; q += shards) await emit(line(`${kind}b${q}.txt`, randomItem(seed * 1_000_003 + (kind === 'n' ? 1 : 2) * 10_000_000_007 + q)));
      for (let q = (s + shards - 1) % shards; q < total; q += shards) {
        const base = randomItem(seed * 1_000_003 + (kind === 'n' ? 1 : 2) * 10_000_000_007 + q);
        await emit(line(`${kind}c${q}.txt`, derive(base, seed + q, dOf(q), replace)));
        const a = `${names[q % shards]}:${kind}b${q}.txt`;
        const b = `${names[s]}:${kind}c${q}.txt`;
        (kind === 'n' ? truth.near : truth.far).push([a < b ? a : b, a < b ? b : a, dOf(q)]);
      }
    }
    for (let i = count; i < perShard; i++) await emit(line(`r${i}.txt`, randomItem(seed * 7919 + s * 100_000_007 + i)));
    chunk += JSON.stringify({ neardup: "end", items: count }) + '\n';
    sink.write(chunk);
    sink.end();
    await new Promise((r) => stream.on('close', r));
  }
  return { files, ...truth };
}

module.exports = { writeSynthShards, randomItem, derive };

if (require.main === module) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : def;
  };
  const opts = {
    out: arg('out', 'bench/results/shards'),
    items: Number(arg('items', 100000)),
    shards: Number(arg('shards', 4)),
    near: Number(arg('near', 1000)),
    far: Number(arg('far', 100)),
    k: Number(arg('k', 3)),
    gzip: !process.argv.includes('--plain'),
  };
  writeSynthShards(opts).then((r) => {
    fs.writeFileSync(path.join(opts.out, 'truth.json'), JSON.stringify({ k: opts.k, near: r.near, far: r.far }));
    console.log(`wrote ${opts.items} fingerprints in ${r.files.length} shards to ${opts.out} (${r.near.length} near, ${r.far.length} far pairs planted)`);
  });
}
