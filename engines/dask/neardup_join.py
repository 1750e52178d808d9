#!/usr/bin/env python3
"""NearDup's permuted-table join as a Dask job (issue 17): `neardup join SHARD... --engine dask`.

Started by the NearDup CLI (node/shards/daskJoin.ts) with execFile and no arguments but this
file's path; its input is one JSON object on stdin:

  {"shards": ["/abs/a.jsonl.gz", ...], "scheduler": null | "tcp://host:8786", "workers": 2,
   "minSimilarity": 0.75,
   "file":    {"k": 12, "blocks": 13, "sketch": 128},
   "section": {"k": 10, "blocks": 12, "sketch": 64} | null}

It prints the confirmed pairs on stdout, one JSON object a line:

  {"kind": "file"|"section", "a": ["shard:path", start, end], "b": [...], "d": 3}

and progress lines on stderr, each starting with "neardup-dask: ". Nothing read from a shard is
ever executed or used as a name of anything but a report path.

The join, for each kind (files, sections) with radius k and b blocks (the block layout of
src/core/index/blockLayout.ts: widths 64 // b (+1 for the first 64 % b), block 0 at the top bits):
  1. load: one task per shard parses it into numpy arrays (SimHash halves, lines, sketches);
  2. map: for each of the C(b, k) tables (each drops k blocks, keeps the rest), every fingerprint
     is keyed by its kept bits and sent to the bucket hash(table, key) mod P (the shuffle);
  3. reduce: each bucket sorts by (table, key) and compares the fingerprints of equal keys
     (within distance k), keeping a pair only in its canonical table (the smallest set of k
     blocks holding every block where the two differ): each pair is found exactly once;
  4. confirm: the candidates, de-duplicated, are grouped by the pair of shards they join and
     checked where those shards live: the same rule as the local join (sections of one file must
     not overlap) and the bottom-k Jaccard estimate of their sketches >= minSimilarity.
The same pairs as `neardup join` without --engine (tested: test/unit/cli/shardsDask.test.ts).
"""
import base64
import gzip
import itertools
import json
import sys
import time

import numpy as np

PREFIX = "neardup-dask: "
_POP16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.uint8)


def say(text):
    sys.stderr.write(PREFIX + text + "\n")
    sys.stderr.flush()


def popcount32(x):
    x = x.astype(np.uint32, copy=False)
    return _POP16[x & 0xFFFF].astype(np.int32) + _POP16[x >> 16]


class Layout:
    """The tables of (b blocks, k dropped): as Layout in src/core/index/blockLayout.ts."""

    def __init__(self, b, k):
        base, extra = divmod(64, b)
        widths = [base + (1 if j < extra else 0) for j in range(b)]
        block_of_pos = [0] * 64
        pos = 63
        for j in range(b):
            for _ in range(widths[j]):
                block_of_pos[pos] = j
                pos -= 1
        self.b, self.k = b, k
        self.block_hi = np.zeros(b, dtype=np.uint32)
        self.block_lo = np.zeros(b, dtype=np.uint32)
        for i in range(32):
            self.block_hi[block_of_pos[32 + i]] |= np.uint32(1 << i)
            self.block_lo[block_of_pos[i]] |= np.uint32(1 << i)
        self.drop_masks = sorted(sum(1 << j for j in c) for c in itertools.combinations(range(b), k))
        self.kept_hi, self.kept_lo = [], []
        for mask in self.drop_masks:
            h = l = 0
            for j in range(b):
                if not mask & (1 << j):
                    h |= int(self.block_hi[j])
                    l |= int(self.block_lo[j])
            self.kept_hi.append(np.uint32(h))
            self.kept_lo.append(np.uint32(l))

    def canonical(self, xh, xl):
        """The canonical table's drop mask of each pair, from the XOR halves."""
        m = np.zeros(len(xh), dtype=np.int64)
        for j in range(self.b):
            differs = ((xh & self.block_hi[j]) != 0) | ((xl & self.block_lo[j]) != 0)
            m |= differs.astype(np.int64) << j
        for _ in range(self.k):
            pc = np.zeros(len(m), dtype=np.int64)
            for j in range(self.b):
                pc += (m >> j) & 1
            add = pc < self.k
            m = np.where(add, m | (~m & (m + 1)), m)
        return m


def load_shard(index, path):
    """A shard's fingerprints as arrays (the header's name before each path)."""
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    names, kinds, starts, ends, his, los, sketches = [], [], [], [], [], [], []
    shard = None
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            if shard is None:
                shard = v["shard"]
                continue
            if v.get("neardup") == "end":
                break
            names.append(shard + ":" + v["path"])
            kinds.append(0 if v["kind"] == "file" else 1)
            starts.append(v["lines"][0] if v["kind"] == "section" else 0)
            ends.append(v["lines"][1] if v["kind"] == "section" else 0)
            h = v["simhash"]
            his.append(int(h[:8], 16))
            los.append(int(h[8:], 16))
            sketches.append(base64.b64decode(v["sketch"]))
    # The sketches as one matrix (row i: item i's values, padded), not an array object per item.
    width = max((len(s) for s in sketches), default=0) // 4
    lengths = np.array([len(s) // 4 for s in sketches], dtype=np.int32)
    matrix = np.zeros((len(sketches), width), dtype=np.uint32)
    for i, raw in enumerate(sketches):
        matrix[i, : lengths[i]] = np.frombuffer(raw, dtype="<u4")
    sketches = None
    return {
        "index": index,
        "names": np.array(names, dtype=object),
        "kind": np.array(kinds, dtype=np.uint8),
        "start": np.array(starts, dtype=np.int64),
        "end": np.array(ends, dtype=np.int64),
        "hi": np.array(his, dtype=np.uint32),
        "lo": np.array(los, dtype=np.uint32),
        "sketch": matrix,
        "sketch_len": lengths,
    }


def _bucket_of(table, key, buckets):
    x = (key ^ np.uint64((table * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF)) * np.uint64(0xFF51AFD7ED558CCD)
    return ((x >> np.uint64(33)) % np.uint64(buckets)).astype(np.int64)


def split_part(part, kind, b, k, buckets):
    """Map: per bucket, the rows (table, key, shard, row, hi, lo) of this shard's fingerprints of one kind."""
    layout = Layout(b, k)
    rows = np.nonzero(part["kind"] == kind)[0]
    hi, lo = part["hi"][rows], part["lo"][rows]
    out = [[] for _ in range(buckets)]
    with np.errstate(over="ignore"):
        for t in range(len(layout.drop_masks)):
            key = ((hi & layout.kept_hi[t]).astype(np.uint64) << np.uint64(32)) | (lo & layout.kept_lo[t]).astype(np.uint64)
            bucket = _bucket_of(t, key, buckets)
            order = np.argsort(bucket, kind="stable")
            cuts = np.searchsorted(bucket[order], np.arange(buckets + 1))
            for p in range(buckets):
                sel = order[cuts[p]:cuts[p + 1]]
                if len(sel):
                    out[p].append((np.full(len(sel), t, dtype=np.int32), key[sel], np.full(len(sel), part["index"], dtype=np.int32), rows[sel].astype(np.int64), hi[sel], lo[sel]))
    return [_concat(pieces) for pieces in out]


def _concat(pieces):
    if not pieces:
        return None
    return tuple(np.concatenate([p[i] for p in pieces]) for i in range(6))


def join_bucket(pieces, b, k):
    """Reduce: the pairs within distance k of equal (table, key), each in its canonical table only."""
    pieces = [p for p in pieces if p is not None]
    empty = np.zeros(0, dtype=np.int64)
    if not pieces:
        return (empty, empty, empty, empty, empty)
    t, key, shard, row, hi, lo = (np.concatenate([p[i] for p in pieces]) for i in range(6))
    order = np.lexsort((row, shard, key, t))
    t, key, shard, row, hi, lo = t[order], key[order], shard[order], row[order], hi[order], lo[order]
    layout = Layout(b, k)
    drop = np.array(layout.drop_masks, dtype=np.int64)
    found = []
    alive = np.arange(len(t) - 1)
    offset = 1
    while len(alive):
        j = alive + offset
        ok = j < len(t)
        alive, j = alive[ok], j[ok]
        same = (t[alive] == t[j]) & (key[alive] == key[j])
        alive, j = alive[same], j[same]
        if not len(alive):
            break
        xh, xl = hi[alive] ^ hi[j], lo[alive] ^ lo[j]
        d = popcount32(xh) + popcount32(xl)
        near = d <= k
        if near.any():
            a, c, xh, xl, d = alive[near], j[near], xh[near], xl[near], d[near]
            mine = layout.canonical(xh, xl) == drop[t[a]]
            found.append((shard[a[mine]], row[a[mine]], shard[c[mine]], row[c[mine]], d[mine]))
        offset += 1
    if not found:
        return (empty, empty, empty, empty, empty)
    return tuple(np.concatenate([f[i] for f in found]).astype(np.int64) for i in range(5))


def jaccard(a, b, size):
    """estimateJaccard of src/core/fingerprint/simhash.ts: the share of the first `limit` values of the union held by both."""
    if len(a) == 0 and len(b) == 0:
        return 1.0
    union = np.union1d(a, b)
    if not (len(a) < size and len(b) < size):
        union = union[:size]
    both = int(np.count_nonzero(np.isin(union, a, assume_unique=True) & np.isin(union, b, assume_unique=True)))
    return both / len(union)


def confirm(part_a, part_b, rows_a, rows_b, dist, kind, sketch_size, min_similarity):
    """The candidates between two shards that pass the local join's rule and the sketches' estimate."""
    out = []
    for ra, rb, d in zip(rows_a.tolist(), rows_b.tolist(), dist.tolist()):
        na, nb = part_a["names"][ra], part_b["names"][rb]
        sa, ea, sb, eb = int(part_a["start"][ra]), int(part_a["end"][ra]), int(part_b["start"][rb]), int(part_b["end"][rb])
        if kind == 1 and na == nb and not (ea < sb or eb < sa):
            continue  # overlapping sections of one file
        sk_a = part_a["sketch"][ra, : part_a["sketch_len"][ra]]
        sk_b = part_b["sketch"][rb, : part_b["sketch_len"][rb]]
        if jaccard(sk_a, sk_b, sketch_size) >= min_similarity:
            out.append((na, sa, ea, nb, sb, eb, int(d)))
    return out


def main():
    spec = json.loads(sys.stdin.read())
    import dask
    from dask.distributed import Client, LocalCluster

    dask.config.set({"distributed.worker.daemon": False, "logging.distributed": "error"})
    started = time.time()
    if spec.get("scheduler"):
        client = Client(spec["scheduler"], timeout=10)
        cluster = None
        client.wait_for_workers(1, timeout=60)
    else:
        cluster = LocalCluster(n_workers=int(spec.get("workers") or 2), threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40)
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    say(f"{workers} workers ({'scheduler ' + spec['scheduler'] if spec.get('scheduler') else 'local cluster'})")
    try:
        parts = [client.submit(load_shard, i, p, pure=False) for i, p in enumerate(spec["shards"])]
        buckets = max(2, 4 * workers)
        pairs = []
        for kind, name in ((0, "file"), (1, "section")):
            kspec = spec.get(name)
            if not kspec:
                continue
            b, k = int(kspec["blocks"]), int(kspec["k"])
            split = [client.submit(split_part, part, kind, b, k, buckets, pure=False) for part in parts]
            joined = [client.submit(join_bucket, [client.submit(lambda s, p=p: s[p], s, pure=False) for s in split], b, k, pure=False) for p in range(buckets)]
            results = client.gather(joined)
            sa, ra, sb, rb, d = (np.concatenate([r[i] for r in results]) for i in range(5))
            # De-duplicate (each pair has one canonical table already; a pair is (a, b) with a < b).
            swap = (sa > sb) | ((sa == sb) & (ra > rb))
            sa, ra, sb, rb = np.where(swap, sb, sa), np.where(swap, rb, ra), np.where(swap, sa, sb), np.where(swap, ra, rb)
            uniq = np.unique(np.stack([sa, ra, sb, rb, d], axis=1), axis=0) if len(sa) else np.zeros((0, 5), dtype=np.int64)
            say(f"{name}s: C({b},{k}) = {len(Layout(b, k).drop_masks)} tables, {buckets} buckets, {len(uniq)} candidates")
            confirms = []
            for (x, y) in sorted(set(map(tuple, uniq[:, [0, 2]].tolist()))):
                sel = uniq[(uniq[:, 0] == x) & (uniq[:, 2] == y)]
                confirms.append(client.submit(confirm, parts[x], parts[y], sel[:, 1], sel[:, 3], sel[:, 4], kind, int(kspec["sketch"]), float(spec["minSimilarity"]), pure=False))
            for group in client.gather(confirms):
                for na, sa_, ea, nb, sb_, eb, dd in group:
                    pairs.append({"kind": name, "a": [na, sa_, ea], "b": [nb, sb_, eb], "d": dd})
        out = sys.stdout
        for p in pairs:
            out.write(json.dumps(p, ensure_ascii=False) + "\n")
        out.flush()
        say(f"{len(pairs)} confirmed pairs in {time.time() - started:.1f} s")
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # one line for the CLI's message, not a traceback
        sys.stderr.write(f"{type(e).__name__}: {e}\n")
        sys.exit(1)
