/*
 * The Node-API bindings of the region finder's bucket search (kernel.c lists them in its module
 * table): regionBuckets, its arguments read into a BucketCall (documentsOf, bucketCallOf) and its
 * regions handed back (bucketsFound); regionBucketsAsync, the same search as a job on libuv's pool
 * (queueJob, rejectJob); regionPlanAsync, the plan and search of regionplan.c as one such job.
 */
#include <stdlib.h>
#include <string.h>

#include "buckets.h"
#include "copysearch.h"
#include "kernelglue.h"
#include "regionplan.h"
#include "regiongroups.h"
#include "threads.h"

/* What a regionBuckets call searches, read off its arguments (bucketCallOf). */
typedef struct {
  RegionDoc *docs; /* malloc'ed; only the documents of the buckets searched are filled in */
  const uint8_t *prose, *wanted;
  const int32_t *seeds;
  const uint32_t *buckets;
  size_t nBuckets;
  BucketOptions o;
  int threads, startable;
} BucketCall;

/* An optional integer argument k (absent, null or undefined: fallback). */
static int optionalInt(napi_env env, size_t argc, const napi_value *argv, size_t k, int fallback) {
  napi_valuetype t;
  int32_t v;
  if (k >= argc || napi_typeof(env, argv[k], &t) != napi_ok || t != napi_number || napi_get_value_int32(env, argv[k], &v) != napi_ok) return fallback;
  return v;
}

/* The streams of the documents `needed` marks ([rawHi, rawLo, idsHi, idsLo, isIdent] per document
 * in the array `streams`) into *out (calloc'ed; the others zeroed); NULL, or what is wrong (then
 * nothing is allocated). */
/* documentsOf's complaints, as regionBuckets' (the WebAssembly kernel's words) and as the plan job's. */
static const char FIVE_STREAMS[] = "regionBuckets: five streams per document";
static const char STREAM_LENGTHS[] = "regionBuckets: token streams are Uint32Arrays of the documents' lengths";
static const char *asPlanJobs(const char *wrong) {
  if (wrong == FIVE_STREAMS) return "regionPlanAsync: five streams per document";
  if (wrong == STREAM_LENGTHS) return "regionPlanAsync: token streams are Uint32Arrays of the documents' lengths";
  return wrong;
}

static const char *documentsOf(napi_env env, napi_value streams, const int32_t *lengths, size_t nDocs, const uint8_t *needed, RegionDoc **out) {
  *out = NULL;
  bool isArray = false;
  uint32_t nStreams = 0;
  if (napi_is_array(env, streams, &isArray) != napi_ok || !isArray || napi_get_array_length(env, streams, &nStreams) != napi_ok || nStreams != 5 * nDocs)
    return FIVE_STREAMS;
  RegionDoc *docs = calloc(nDocs ? nDocs : 1, sizeof(RegionDoc));
  if (!docs) return "out of memory";
  void *data;
  size_t len;
  for (size_t d = 0; d < nDocs; d++) {
    if (!needed[d]) continue;
    napi_value v[5];
    int ok = lengths[d] >= 0;
    for (uint32_t i = 0; ok && i < 5; i++) ok = napi_get_element(env, streams, (uint32_t)(5 * d + i), &v[i]) == napi_ok;
    RegionDoc *D = &docs[d];
    D->length = lengths[d];
    ok = ok && streamArg(env, v[0], 0, D->length, &D->raw.hi) && streamArg(env, v[1], 0, D->length, &D->raw.lo) && streamArg(env, v[2], 1, D->length, &D->ids.hi) &&
         streamArg(env, v[3], 1, D->length, &D->ids.lo);
    napi_valuetype t4 = napi_undefined;
    if (ok && !D->ids.hi) ok = !D->ids.lo && napi_typeof(env, v[4], &t4) == napi_ok;
    if (ok && (D->ids.hi || (t4 != napi_null && t4 != napi_undefined))) {
      /* isIdent: with the ids, or alone (a lean code document: its normalised tokens made from it). */
      ok = typedArray(env, v[4], napi_uint8_array, &data, &len) && len >= (size_t)D->length && (D->ids.lo != NULL) == (D->ids.hi != NULL);
      D->isIdent = data;
    }
    if (!ok) {
      free(docs);
      return STREAM_LENGTHS;
    }
  }
  *out = docs;
  return NULL;
}

/* Reads regionBuckets' arguments (argv[7] threads, argv[8] startable: optional) into *c; NULL, or
 * what is wrong (then nothing is allocated). */
static const char *bucketCallOf(napi_env env, size_t argc, napi_value *argv, BucketCall *c) {
  memset(c, 0, sizeof *c);
  if (argc < 7) return "regionBuckets: 7 arguments";
  void *data;
  size_t nDocs, len, nSeeds, nBuckets;
  if (!typedArray(env, argv[1], napi_int32_array, &data, &nDocs)) return "regionBuckets: lengths";
  const int32_t *lengths = data;
  if (!typedArray(env, argv[2], napi_uint8_array, &data, &len) || len < nDocs) return "regionBuckets: prose";
  c->prose = data;
  if (!typedArray(env, argv[3], napi_int32_array, &data, &nSeeds) || nSeeds % 2) return "regionBuckets: seeds";
  c->seeds = data;
  if (!typedArray(env, argv[4], napi_uint32_array, &data, &nBuckets) || nBuckets % 3) return "regionBuckets: buckets";
  c->buckets = data;
  c->nBuckets = nBuckets /= 3;
  napi_valuetype t;
  if (napi_typeof(env, argv[5], &t) != napi_ok) return "regionBuckets: wanted";
  if (t != napi_null && t != napi_undefined) {
    if (!typedArray(env, argv[5], napi_uint8_array, &data, &len) || len < nBuckets) return "regionBuckets: wanted";
    c->wanted = data;
  }
  if (!typedArray(env, argv[6], napi_float64_array, &data, &len) || len < BUCKET_PARAMS || !bucketOptionsOf(data, &c->o)) return "regionBuckets: params";
  c->threads = optionalInt(env, argc, argv, 7, 1);
  c->startable = optionalInt(env, argc, argv, 8, -1);
  if (!bucketsValid(lengths, (uint32_t)nDocs, c->seeds, nSeeds / 2, c->buckets, nBuckets)) return "regionBuckets: a bucket outside its documents";
  uint8_t *needed = calloc(nDocs ? nDocs : 1, 1);
  if (!needed) return "out of memory";
  /* Only the documents of the buckets searched are read (a worker's run names a few of them). */
  for (size_t b = 0; b < nBuckets; b++)
    if (!c->wanted || c->wanted[b]) needed[c->buckets[3 * b]] = needed[c->buckets[3 * b + 1]] = 1;
  const char *wrong = documentsOf(env, argv[0], lengths, nDocs, needed, &c->docs);
  free(needed);
  return wrong;
}

static int bucketSearch(const BucketCall *c, BucketResult *r) {
  return bucketRegionsThreaded(c->docs, c->prose, c->seeds, c->buckets, c->nBuckets, c->wanted, &c->o, c->threads, c->startable, r);
}

/* { ints, floats, chains, aligned } of a search (r freed); NULL when it cannot be made (nothing thrown). */
static napi_value bucketsFound(napi_env env, BucketResult *r) {
  napi_value abI, abF, ints, floats, result, chains, aligned;
  void *pi, *pf;
  int ok = napi_create_arraybuffer(env, r->count * BUCKET_PAIR_INTS * 4, &pi, &abI) == napi_ok &&
           napi_create_arraybuffer(env, r->count * BUCKET_PAIR_FLOATS * 8, &pf, &abF) == napi_ok;
  if (ok && r->count) {
    memcpy(pi, r->ints, r->count * BUCKET_PAIR_INTS * 4);
    memcpy(pf, r->floats, r->count * BUCKET_PAIR_FLOATS * 8);
  }
  ok = ok && napi_create_typedarray(env, napi_int32_array, r->count * BUCKET_PAIR_INTS, abI, 0, &ints) == napi_ok &&
       napi_create_typedarray(env, napi_float64_array, r->count * BUCKET_PAIR_FLOATS, abF, 0, &floats) == napi_ok &&
       napi_create_double(env, r->chains, &chains) == napi_ok && napi_create_double(env, r->aligned, &aligned) == napi_ok && napi_create_object(env, &result) == napi_ok &&
       napi_set_named_property(env, result, "ints", ints) == napi_ok && napi_set_named_property(env, result, "floats", floats) == napi_ok &&
       napi_set_named_property(env, result, "chains", chains) == napi_ok && napi_set_named_property(env, result, "aligned", aligned) == napi_ok;
  bucketResultFree(r);
  return ok ? result : NULL;
}

/* regionBuckets(streams: [rawHi, rawLo, idsHi, idsLo, isIdent] per document (ids and isIdent null
 *               for prose; ids null and isIdent given for a lean code document), lengths: Int32Array, prose: Uint8Array, seeds: Int32Array, buckets:
 *               Uint32Array (docA docB end per bucket, as anchorSeeds gives them), wanted: Uint8Array
 *               | null, params: Float64Array(BUCKET_PARAMS), threads?, startable?) -> { ints, floats, chains, aligned }:
 *               bucketRegions of src/core/regions/regions.ts for every wanted bucket (native/buckets.c),
 *               on `threads` threads (native/threads.c; default 1; `startable`: a test's limit on
 *               the threads that start). */
napi_value jsRegionBuckets(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  BucketCall c;
  const char *wrong = bucketCallOf(env, argc, argv, &c);
  if (wrong) return throwError(env, wrong);
  BucketResult r;
  const int status = bucketSearch(&c, &r);
  free(c.docs);
  if (status < 0) return throwError(env, "out of memory");
  napi_value result = bucketsFound(env, &r);
  bool pending = false;
  if (!result && napi_is_exception_pending(env, &pending) == napi_ok && !pending) return throwError(env, "out of memory");
  return result;
}

/* Rejects a job's promise: with the exception pending, else an Error of `why`. */
void rejectJob(napi_env env, napi_deferred deferred, const char *why) {
  napi_value error = NULL, msg;
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) napi_get_and_clear_last_exception(env, &error);
  if (!error && napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &msg) == napi_ok) napi_create_error(env, NULL, msg, &error);
  napi_reject_deferred(env, deferred, error);
}

/* Holds the objects among argv[0, n) (refs[i]: their arrays are read off this thread) and queues a
 * job on libuv's pool; *promise settles when it completes. 0 when it cannot start (then the caller
 * frees it: a promise never settled is dropped with its deferred, nothing else holds it). */
int queueJob(napi_env env, const char *name, napi_value *argv, size_t n, napi_ref *refs, napi_async_execute_callback execute,
                    napi_async_complete_callback complete, void *data, napi_async_work *work, napi_deferred *deferred, napi_value *promise) {
  int ok = 1;
  for (size_t i = 0; ok && i < n; i++) {
    napi_valuetype t;
    ok = napi_typeof(env, argv[i], &t) == napi_ok;
    if (ok && t == napi_object) ok = napi_create_reference(env, argv[i], 1, &refs[i]) == napi_ok; /* (null: none) */
  }
  napi_value label;
  ok = ok && napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &label) == napi_ok &&
       napi_create_async_work(env, NULL, label, execute, complete, data, work) == napi_ok && napi_create_promise(env, deferred, promise) == napi_ok;
  return ok && napi_queue_async_work(env, *work) == napi_ok;
}

/* The arguments regionBucketsAsync holds on to until its search is over (its arrays' memory is read off this thread). */
#define BUCKET_JOB_REFS 6

typedef struct {
  BucketCall call;
  napi_ref refs[BUCKET_JOB_REFS];
  napi_async_work work;
  napi_deferred deferred;
  BucketResult res;
  int status;
} BucketJob;

static void bucketJobFree(napi_env env, BucketJob *j) {
  for (int i = 0; i < BUCKET_JOB_REFS; i++)
    if (j->refs[i]) napi_delete_reference(env, j->refs[i]);
  if (j->work) napi_delete_async_work(env, j->work);
  free(j->call.docs);
  free(j);
}

/* On a thread of libuv's pool (no Node-API here): the search, on call.threads threads. */
static void bucketJobExecute(napi_env env, void *data) {
  (void)env;
  BucketJob *j = data;
  j->status = bucketSearch(&j->call, &j->res);
}

/* Back on Node's thread: the promise settled, the arguments let go. */
static void bucketJobComplete(napi_env env, napi_status done, void *data) {
  BucketJob *j = data;
  napi_value result = NULL;
  if (done == napi_ok && j->status >= 0)
    result = bucketsFound(env, &j->res);
  else
    bucketResultFree(&j->res);
  if (result)
    napi_resolve_deferred(env, j->deferred, result);
  else
    rejectJob(env, j->deferred, done == napi_cancelled ? "regionBucketsAsync: cancelled" : "out of memory");
  bucketJobFree(env, j);
}

/* regionBucketsAsync(the arguments of regionBuckets) -> Promise of what regionBuckets returns: the
 * search made off Node's thread (libuv's pool: its thread and threads - 1 more), while JavaScript
 * runs on. The arguments are held until it settles; their arrays (and the streams array's) must
 * not be changed meanwhile. */
napi_value jsRegionBucketsAsync(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  BucketJob *j = calloc(1, sizeof *j);
  if (!j) return throwError(env, "out of memory");
  const char *wrong = bucketCallOf(env, argc, argv, &j->call);
  if (wrong) {
    free(j);
    return throwError(env, wrong);
  }
  napi_value promise;
  if (!queueJob(env, "neardup:regionBuckets", argv, BUCKET_JOB_REFS, j->refs, bucketJobExecute, bucketJobComplete, j, &j->work, &j->deferred, &promise)) {
    bucketJobFree(env, j);
    return throwError(env, "regionBucketsAsync: cannot start");
  }
  return promise;
}

/* ------------------------------------------------------------ regionPlanAsync (regionplan.c) */

/* The arguments regionPlanAsync holds on to: streams, lengths, prose, anchors, caps (argv[0, 5)),
 * and the places and side options (argv[9], argv[10]) when given. */
#define PLAN_JOB_REFS 11

typedef struct {
  PlanCall call;
  RegionDoc *docs;
  const uint32_t **hashes;
  const int32_t **positions;
  uint32_t *counts;
  DocPlaces *places; /* with the sides asked for (sidesOf) */
  double *logs;
  SideCall sides;
  napi_ref refs[PLAN_JOB_REFS];
  napi_async_work work;
  napi_deferred deferred;
  PlanResult res;
  int status;
} PlanJob;

static void planJobFree(napi_env env, PlanJob *j) {
  for (int i = 0; i < PLAN_JOB_REFS; i++)
    if (j->refs[i]) napi_delete_reference(env, j->refs[i]);
  if (j->work) napi_delete_async_work(env, j->work);
  regionPlanFree(&j->res);
  free(j->docs);
  free(j->hashes);
  free(j->positions);
  free(j->counts);
  free(j->places);
  free(j->logs);
  free(j);
}

/* An Int32Array argument of at least `min` elements into *out (its length into *n). */
static int int32Arg(napi_env env, napi_value v, size_t min, const int32_t **out, size_t *n) {
  void *data;
  if (!typedArray(env, v, napi_int32_array, &data, n) || *n < min) return 0;
  *out = data;
  return 1;
}

/*
 * regionPlanAsync's optional sides (argv[9]: [start, lineStarts, reportLines | null] per document,
 * argv[10]: Uint32Array [normalizeIdentifiers, tf, closer hi, lo, ...]) into j->call.sides; NULL
 * (none asked: both absent, or asked and read), or what is wrong. The kernel's tf logs are copied
 * (this thread's kernel may be initialised again while the job runs).
 */
static const char *sidesOf(napi_env env, size_t argc, napi_value *argv, const int32_t *lengths, size_t nDocs, PlanJob *j) {
  napi_valuetype t = napi_undefined;
  if (argc < 11 || napi_typeof(env, argv[10], &t) != napi_ok || t == napi_null || t == napi_undefined) return NULL;
  static const char WRONG[] = "regionPlanAsync: places are [start, lineStarts, reportLines | null] per document, side options a Uint32Array";
  void *data;
  size_t len;
  bool isArray = false;
  uint32_t n = 0;
  if (!typedArray(env, argv[10], napi_uint32_array, &data, &len) || len < 2 || len % 2) return WRONG;
  const uint32_t *o = data;
  if (napi_is_array(env, argv[9], &isArray) != napi_ok || !isArray || napi_get_array_length(env, argv[9], &n) != napi_ok || n != 3 * nDocs) return WRONG;
  Kernel *K = kernelOf(env);
  if (!K || !K->ready) return "regionPlanAsync: the sides need the kernel initialised";
  j->places = calloc(nDocs ? nDocs : 1, sizeof(DocPlaces));
  j->logs = malloc((K->nLogs ? (size_t)K->nLogs : 1) * sizeof(double));
  if (!j->places || !j->logs) return "out of memory";
  if (K->nLogs) memcpy(j->logs, K->logs, (size_t)K->nLogs * sizeof(double));
  for (uint32_t d = 0; d < nDocs; d++) {
    if (lengths[d] <= 0) continue;
    napi_value v[3];
    size_t nStart, nLines, nReport = 0;
    DocPlaces *p = &j->places[d];
    for (uint32_t i = 0; i < 3; i++)
      if (napi_get_element(env, argv[9], 3 * d + i, &v[i]) != napi_ok) return WRONG;
    if (!int32Arg(env, v[0], (size_t)lengths[d], &p->start, &nStart) || !int32Arg(env, v[1], 1, &p->lineStarts, &nLines) || nLines > INT32_MAX) return WRONG;
    p->nLines = (int32_t)nLines;
    if (napi_typeof(env, v[2], &t) != napi_ok) return WRONG;
    if (t != napi_null && t != napi_undefined && !int32Arg(env, v[2], nLines, &p->reportLines, &nReport)) return WRONG;
  }
  j->sides = (SideCall){j->places, (int)o[0], (int)o[1], o + 2, (int)(len - 2) / 2, j->logs, K->nLogs};
  j->call.sides = &j->sides;
  return NULL;
}

/* Document d's anchors in `anchors` ([hash: Uint32Array, pos: Int32Array] per document, nulls:
 * none) into *hash, *pos, *count (untouched when null): 1, or 0 when the element cannot be read,
 * -1 when it is not a Uint32Array of hashes and an Int32Array of as many positions. */
static int documentAnchorsOf(napi_env env, napi_value anchors, uint32_t d, const uint32_t **hash, const int32_t **pos, uint32_t *count) {
  napi_value h, p;
  napi_valuetype t;
  if (napi_get_element(env, anchors, 2 * d, &h) != napi_ok || napi_get_element(env, anchors, 2 * d + 1, &p) != napi_ok || napi_typeof(env, h, &t) != napi_ok) return 0;
  if (t == napi_null || t == napi_undefined) return 1;
  size_t nh, np;
  void *hd, *pd;
  if (!typedArray(env, h, napi_uint32_array, &hd, &nh) || !typedArray(env, p, napi_int32_array, &pd, &np) || np < nh || nh > UINT32_MAX) return -1;
  *hash = hd;
  *pos = pd;
  *count = (uint32_t)nh;
  return 1;
}

/* Reads regionPlanAsync's arguments into *j; NULL, or what is wrong. */
static const char *planJobOf(napi_env env, size_t argc, napi_value *argv, PlanJob *j) {
  if (argc < 9) return "regionPlanAsync: 9 arguments";
  void *data;
  size_t nDocs, len;
  if (!typedArray(env, argv[1], napi_int32_array, &data, &nDocs) || nDocs > UINT32_MAX) return "regionPlanAsync: lengths";
  const int32_t *lengths = data;
  PlanCall *c = &j->call;
  if (!typedArray(env, argv[2], napi_uint8_array, &data, &len) || len < nDocs) return "regionPlanAsync: prose";
  c->prose = data;
  if (!typedArray(env, argv[4], napi_uint32_array, &data, &len)) return "regionPlanAsync: caps";
  c->caps = data;
  c->nCaps = (uint32_t)(len < nDocs ? len : nDocs);
  double maxDocs;
  if (napi_get_value_double(env, argv[5], &maxDocs) != napi_ok) return "regionPlanAsync: maxDocs";
  c->maxDocs = maxDocs >= 4294967295.0 || maxDocs != maxDocs ? UINT32_MAX : maxDocs < 0 ? 0 : (uint32_t)maxDocs;
  if (!typedArray(env, argv[6], napi_float64_array, &data, &len) || len < BUCKET_PARAMS || !bucketOptionsOf(data, &c->o)) return "regionPlanAsync: params";
  if (!typedArray(env, argv[7], napi_float64_array, &data, &len) || len < 3) return "regionPlanAsync: plan";
  const double *plan = data;
  c->selfMatches = plan[0] != 0;
  c->minBucketSeeds = plan[1];
  c->holdIdentical = plan[2] != 0;
  c->threads = optionalInt(env, argc, argv, 8, 1);
  c->nDocs = (uint32_t)nDocs;
  bool isArray = false;
  uint32_t nAnchors = 0;
  if (napi_is_array(env, argv[3], &isArray) != napi_ok || !isArray || napi_get_array_length(env, argv[3], &nAnchors) != napi_ok || nAnchors != 2 * nDocs)
    return "regionPlanAsync: two anchor arrays (or nulls) per document";
  const size_t slots = nDocs ? nDocs : 1;
  j->hashes = calloc(slots, sizeof *j->hashes);
  j->positions = calloc(slots, sizeof *j->positions);
  j->counts = calloc(slots, sizeof *j->counts);
  uint8_t *needed = calloc(slots, 1);
  const char *wrong = j->hashes && j->positions && j->counts && needed ? NULL : "out of memory";
  for (uint32_t d = 0; !wrong && d < nDocs; d++) {
    const int read = documentAnchorsOf(env, argv[3], d, &j->hashes[d], &j->positions[d], &j->counts[d]);
    if (read <= 0) {
      wrong = read == 0 ? "regionPlanAsync: anchors" : "regionPlanAsync: a document's anchors are a Uint32Array of hashes and an Int32Array of positions";
      break;
    }
    /* Streams of every document with tokens: its twins are looked for too. */
    needed[d] = lengths[d] > 0;
  }
  if (!wrong) wrong = asPlanJobs(documentsOf(env, argv[0], lengths, nDocs, needed, &j->docs));
  free(needed);
  if (!wrong) wrong = sidesOf(env, argc, argv, lengths, nDocs, j);
  c->docs = j->docs;
  c->anchorHash = j->hashes;
  c->anchorPos = j->positions;
  c->anchorCount = j->counts;
  return wrong;
}

static void planJobExecute(napi_env env, void *data) {
  (void)env;
  PlanJob *j = data;
  j->status = regionPlanSearch(&j->call, &j->res);
}

static napi_value planFound(napi_env env, PlanJob *j) {
  PlanResult *r = &j->res;
  napi_value result, wanted, classOf, found, sides, groups;
  const size_t regions = r->found.count; /* (bucketsFound frees found) */
  const int ok = napi_create_object(env, &result) == napi_ok && setSeedsFound(env, result, &r->seeds) &&
                 copiedArray(env, napi_uint8_array, r->wanted, r->seeds.nBuckets, 1, &wanted) &&
                 copiedArray(env, napi_int32_array, r->classOf, j->call.nDocs, 4, &classOf) && (found = bucketsFound(env, &r->found)) != NULL &&
                 napi_set_named_property(env, result, "wanted", wanted) == napi_ok && napi_set_named_property(env, result, "classOf", classOf) == napi_ok &&
                 napi_set_named_property(env, result, "found", found) == napi_ok &&
                 napi_set_named_property(env, result, "anchors", number(env, (double)r->anchors)) == napi_ok &&
                 (!r->sides || (copiedArray(env, napi_int32_array, r->sides, regions * SIDE_INTS, 4, &sides) && napi_set_named_property(env, found, "sides", sides) == napi_ok)) &&
                 (!r->groups || (copiedArray(env, napi_int32_array, r->groups, r->nGroupInts, 4, &groups) && napi_set_named_property(env, found, "groups", groups) == napi_ok));
  return ok ? result : NULL;
}

static void planJobComplete(napi_env env, napi_status done, void *data) {
  PlanJob *j = data;
  napi_value result = done == napi_ok && j->status > 0 ? planFound(env, j) : NULL;
  if (result)
    napi_resolve_deferred(env, j->deferred, result);
  else {
    const char *why = done == napi_cancelled ? "regionPlanAsync: cancelled"
                      : j->status == -2      ? "regionPlanAsync: an anchor outside its document"
                      : j->status == -3      ? "regionPlanAsync: a document with anchors and no postings cap"
                                             : "out of memory";
    rejectJob(env, j->deferred, why);
  }
  planJobFree(env, j);
}

/* regionPlanAsync(streams, lengths, prose (as regionBuckets), anchors: [hash: Uint32Array, pos:
 * Int32Array] per document (nulls: none), caps: Uint32Array, maxDocs, params:
 * Float64Array(BUCKET_PARAMS), plan: Float64Array [selfMatches, max(minSeeds, minBucketSeeds),
 * holdIdentical], threads) -> Promise of { pairs, buckets, dropped, frequent, frequentOver (as
 * anchorSeeds), wanted: Uint8Array (0 not searched, 1 searched, 2 held back), classOf: Int32Array,
 * anchors, found: what regionBuckets returns }: the plan and search of regionplan.c off Node's
 * thread (libuv's pool: its thread, and threads - 1 more for the search). The arguments are held
 * until it settles and must not be changed meanwhile. */
napi_value jsRegionPlanAsync(napi_env env, napi_callback_info info) {
  size_t argc = 11;
  napi_value argv[11];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  PlanJob *j = calloc(1, sizeof *j);
  if (!j) return throwError(env, "out of memory");
  const char *wrong = planJobOf(env, argc, argv, j);
  if (wrong) {
    planJobFree(env, j);
    return throwError(env, wrong);
  }
  napi_value promise;
  if (!queueJob(env, "neardup:regionPlan", argv, argc < PLAN_JOB_REFS ? argc : PLAN_JOB_REFS, j->refs, planJobExecute, planJobComplete, j, &j->work, &j->deferred, &promise)) {
    planJobFree(env, j);
    return throwError(env, "regionPlanAsync: cannot start");
  }
  return promise;
}

/* regionGroups(buckets: Uint32Array (docA docB end each), ints: Int32Array (BUCKET_PAIR_INTS per
 * region, as regionBuckets gives them, their buckets < buckets.length / 3)) -> Int32Array: the
 * groups of those regions, flat (regiongroups.c; groups.ts groupsOfFlat reads them): a plan job's
 * regions with more searched on Node's thread grouped again (regionThreads.ts). */
napi_value jsRegionGroups(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  void *data;
  size_t nCuts, nInts;
  if (argc < 2 || !typedArray(env, argv[0], napi_uint32_array, &data, &nCuts) || nCuts % 3) return throwError(env, "regionGroups: buckets");
  const uint32_t *cuts = data;
  if (!typedArray(env, argv[1], napi_int32_array, &data, &nInts) || nInts % BUCKET_PAIR_INTS) return throwError(env, "regionGroups: regions");
  BucketResult found = {.ints = data, .count = nInts / BUCKET_PAIR_INTS};
  for (size_t p = 0; p < found.count; p++)
    if (found.ints[p * BUCKET_PAIR_INTS] < 0 || (size_t)found.ints[p * BUCKET_PAIR_INTS] >= nCuts / 3) return throwError(env, "regionGroups: a region outside the buckets");
  int32_t *groups;
  size_t nGroupInts;
  if (regionGroupsOf(cuts, &found, &groups, &nGroupInts) < 0) return throwError(env, "out of memory");
  napi_value out;
  const int ok = copiedArray(env, napi_int32_array, groups, nGroupInts, 4, &out);
  free(groups);
  return ok ? out : NULL;
}

/* ------------------------------------------------------------ copySearch (copysearch.c) */

/* A Uint32Array argument into *out (its length into *n); 0 when it is not one. */
static int uint32Arg(napi_env env, napi_value v, const uint32_t **out, size_t *n) {
  void *data;
  if (!typedArray(env, v, napi_uint32_array, &data, n)) return 0;
  *out = data;
  return 1;
}

/* copySearch(streams, lengths, prose (as regionBuckets), anchors: [hash: Uint32Array, pos:
 *            Int32Array] per document (nulls: none), drop: [code: Uint32Array, prose: Uint32Array]
 *            (sorted), pairs: Uint32Array (x y, x < y), caps: Uint32Array [code, prose], params:
 *            Float64Array(BUCKET_PARAMS), search: Float64Array [max(minSeeds, minBucketSeeds),
 *            cover], threads?) -> { buckets: Uint32Array (x y end per bucket searched), ints,
 *            floats, chains, aligned (as regionBuckets) }: fileCopies' second search of
 *            src/core/regions/fileCopies.ts (searchAllAlone) in one call (native/copysearch.c). */
napi_value jsCopySearch(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 9) return throwError(env, "copySearch: 9 arguments");
  CopyCall c;
  memset(&c, 0, sizeof c);
  void *data;
  size_t nDocs, len, nPairs;
  if (!typedArray(env, argv[1], napi_int32_array, &data, &nDocs) || nDocs > UINT32_MAX) return throwError(env, "copySearch: lengths");
  const int32_t *lengths = data;
  if (!typedArray(env, argv[2], napi_uint8_array, &data, &len) || len < nDocs) return throwError(env, "copySearch: prose");
  c.prose = data;
  c.nDocs = (uint32_t)nDocs;
  napi_value drops[2];
  bool isArray = false;
  uint32_t nAnchors = 0, nDrops = 0;
  if (napi_is_array(env, argv[4], &isArray) != napi_ok || !isArray || napi_get_array_length(env, argv[4], &nDrops) != napi_ok || nDrops != 2 ||
      napi_get_element(env, argv[4], 0, &drops[0]) != napi_ok || napi_get_element(env, argv[4], 1, &drops[1]) != napi_ok ||
      !uint32Arg(env, drops[0], &c.drop[0], &c.nDrop[0]) || !uint32Arg(env, drops[1], &c.drop[1], &c.nDrop[1]))
    return throwError(env, "copySearch: drop");
  if (!uint32Arg(env, argv[5], &c.pairs, &nPairs) || nPairs % 2) return throwError(env, "copySearch: pairs");
  c.nPairs = nPairs / 2;
  const uint32_t *caps;
  if (!uint32Arg(env, argv[6], &caps, &len) || len < 2) return throwError(env, "copySearch: caps");
  c.cap[0] = caps[0];
  c.cap[1] = caps[1];
  if (!typedArray(env, argv[7], napi_float64_array, &data, &len) || len < BUCKET_PARAMS || !bucketOptionsOf(data, &c.o)) return throwError(env, "copySearch: params");
  if (!typedArray(env, argv[8], napi_float64_array, &data, &len) || len < 2) return throwError(env, "copySearch: search");
  c.minBucketSeeds = ((const double *)data)[0];
  c.cover = ((const double *)data)[1];
  c.threads = optionalInt(env, argc, argv, 9, 1);
  if (napi_is_array(env, argv[3], &isArray) != napi_ok || !isArray || napi_get_array_length(env, argv[3], &nAnchors) != napi_ok || nAnchors != 2 * nDocs)
    return throwError(env, "copySearch: two anchor arrays (or nulls) per document");
  const size_t slots = nDocs ? nDocs : 1;
  const uint32_t **hashes = calloc(slots, sizeof *hashes);
  const int32_t **positions = calloc(slots, sizeof *positions);
  uint32_t *counts = calloc(slots, sizeof *counts);
  uint8_t *needed = calloc(slots, 1);
  RegionDoc *docs = NULL;
  const char *wrong = hashes && positions && counts && needed ? NULL : "out of memory";
  for (size_t p = 0; !wrong && p < 2 * c.nPairs; p++) {
    if (c.pairs[p] >= nDocs) wrong = "copySearch: a pair outside the documents";
    else needed[c.pairs[p]] = 1;
  }
  for (uint32_t d = 0; !wrong && d < nDocs; d++) {
    if (!needed[d]) continue;
    const int read = documentAnchorsOf(env, argv[3], d, &hashes[d], &positions[d], &counts[d]);
    if (read <= 0) {
      wrong = read == 0 ? "copySearch: anchors" : "copySearch: a document's anchors are a Uint32Array of hashes and an Int32Array of positions";
      break;
    }
  }
  if (!wrong) wrong = documentsOf(env, argv[0], lengths, nDocs, needed, &docs);
  free(needed);
  CopyResult r;
  int status = 0;
  if (!wrong) {
    c.docs = docs;
    c.anchorHash = hashes;
    c.anchorPos = positions;
    c.anchorCount = counts;
    status = copySearch(&c, &r);
    if (status == -2) wrong = "copySearch: an anchor outside its document, or a pair not x < y";
    else if (status < 0) wrong = "out of memory";
  }
  free(hashes);
  free(positions);
  free(counts);
  free(docs);
  if (wrong) return throwError(env, wrong);
  napi_value buckets, result;
  const int ok = copiedArray(env, napi_uint32_array, r.buckets, r.nBuckets * 3, 4, &buckets);
  free(r.seeds);
  free(r.buckets);
  result = bucketsFound(env, &r.found); /* (frees found) */
  if (!ok || !result || napi_set_named_property(env, result, "buckets", buckets) != napi_ok) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && !pending) return throwError(env, "out of memory");
    return NULL;
  }
  return result;
}
