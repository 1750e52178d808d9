/*
 * The Node-API glue's shared part (internal to the addon; wasm.c has its own): the CALL macro, the
 * argument readers kernel.c, kernelbuckets.c and kernelpairs.c use (static inline), and the
 * bindings kernelbuckets.c and kernelpairs.c define for kernel.c's module table.
 */
#ifndef NEARDUP_KERNELGLUE_H
#define NEARDUP_KERNELGLUE_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "seeds.h"

#define CALL(e)                                                    \
  do {                                                             \
    if ((e) != napi_ok) return throwError(env, "napi call failed"); \
  } while (0)

static inline napi_value throwError(napi_env env, const char *msg) {
  napi_throw_error(env, NULL, msg);
  return NULL;
}

static inline Kernel *kernelOf(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok) return NULL;
  return data;
}

static inline napi_value number(napi_env env, double v) {
  napi_value r;
  napi_create_double(env, v, &r);
  return r;
}

static inline int typedArray(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *length) {
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return 0;
  napi_typedarray_type type;
  napi_value ab;
  size_t off;
  if (napi_get_typedarray_info(env, v, &type, length, data, &ab, &off) != napi_ok) return 0;
  return type == want;
}

/* A stream argument: a Uint32Array of `length` tokens, or (optional) null / undefined. */
static inline int streamArg(napi_env env, napi_value v, int optional, int32_t length, const uint32_t **out) {
  napi_valuetype t;
  if (napi_typeof(env, v, &t) != napi_ok) return 0;
  if (optional && (t == napi_null || t == napi_undefined)) {
    *out = NULL;
    return 1;
  }
  void *data;
  size_t len;
  if (!typedArray(env, v, napi_uint32_array, &data, &len) || len < (size_t)length) return 0;
  *out = data;
  return 1;
}

/* A new typed array holding a copy of `count` elements of `size` bytes; 0 when it cannot be made. */
static inline int copiedArray(napi_env env, napi_typedarray_type type, const void *src, size_t count, size_t size, napi_value *out) {
  void *p;
  napi_value ab;
  if (napi_create_arraybuffer(env, count * size, &p, &ab) != napi_ok) return 0;
  if (count) memcpy(p, src, count * size);
  return napi_create_typedarray(env, type, count, ab, 0, out) == napi_ok;
}

static inline void freeHanded(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  free(data);
}

/*
 * An ArrayBuffer of the `bytes` at *src, handed to JavaScript (`finalize` with `hint` frees it once
 * collected; *src set to NULL) where external buffers are allowed, so that Node's thread neither
 * copies nor first touches it; else (Electron) a copy, *src left to the caller. 0 when it cannot
 * be made.
 */
static inline int handedBuffer(napi_env env, void **src, size_t bytes, napi_finalize finalize, void *hint, napi_value *ab) {
  if (bytes && *src && napi_create_external_arraybuffer(env, *src, bytes, finalize, hint, ab) == napi_ok) {
    *src = NULL;
    return 1;
  }
  bool pending = false;
  if (napi_is_exception_pending(env, &pending) == napi_ok && pending) {
    napi_value ignored;
    napi_get_and_clear_last_exception(env, &ignored);
  }
  void *data;
  if (napi_create_arraybuffer(env, bytes, &data, ab) != napi_ok) return 0;
  if (bytes) memcpy(data, *src, bytes);
  return 1;
}

/* A typed array of `count` elements of `size` bytes over the malloc'ed block *src: handedBuffer's
 * (the plan's seed pairs: ~8 MB on the small bench tree). 0 when it cannot be made. */
static inline int handedArray(napi_env env, napi_typedarray_type type, void **src, size_t count, size_t size, napi_value *out) {
  napi_value ab;
  return handedBuffer(env, src, count * size, freeHanded, NULL, &ab) && napi_create_typedarray(env, type, count, ab, 0, out) == napi_ok;
}

/* anchorSeeds' result on `obj` (AnchorSeedsFound: pairs, buckets, dropped, frequent, frequentOver),
 * its pairs and buckets handed over (handedArray: `s` then holds NULL for them), the rest copied;
 * `s` stays the caller's to free. 0 when it cannot be made. */
static inline int setSeedsFound(napi_env env, napi_value obj, SeedResult *s) {
  napi_value pairs, buckets, frequent;
  return handedArray(env, napi_int32_array, (void **)&s->pairs, s->seeds * 2, 4, &pairs) && handedArray(env, napi_uint32_array, (void **)&s->buckets, s->nBuckets * 3, 4, &buckets) &&
         copiedArray(env, napi_uint32_array, s->frequent, s->nFrequent * 2, 4, &frequent) && napi_set_named_property(env, obj, "pairs", pairs) == napi_ok &&
         napi_set_named_property(env, obj, "buckets", buckets) == napi_ok && napi_set_named_property(env, obj, "dropped", number(env, s->dropped)) == napi_ok &&
         napi_set_named_property(env, obj, "frequent", frequent) == napi_ok && napi_set_named_property(env, obj, "frequentOver", number(env, s->frequentOver)) == napi_ok;
}

/* kernel.c: the region document of the last kernelRegion as an ArrayBuffer (region, readCodeBatch). */
int kernelRegionBuffer(napi_env env, const Kernel *K, napi_value *ab);

/* kernelbuckets.c: a job's promise rejected (the pending exception, else an Error of `why`); the
 * objects among argv[0, n) held (refs) and a job queued on libuv's pool (0: it cannot start). */
void rejectJob(napi_env env, napi_deferred deferred, const char *why);
int queueJob(napi_env env, const char *name, napi_value *argv, size_t n, napi_ref *refs, napi_async_execute_callback execute, napi_async_complete_callback complete,
             void *data, napi_async_work *work, napi_deferred *deferred, napi_value *promise);

/* kernelpairs.c: allPairs, allPairsVetted. */
napi_value jsAllPairs(napi_env env, napi_callback_info info);
napi_value jsAllPairsVetted(napi_env env, napi_callback_info info);
napi_value jsSortPairs(napi_env env, napi_callback_info info);
napi_value jsKeepOutermostPairs(napi_env env, napi_callback_info info);

/* kernelbuckets.c: regionBuckets, regionBucketsAsync, regionPlanAsync. */
napi_value jsRegionBuckets(napi_env env, napi_callback_info info);
napi_value jsRegionBucketsAsync(napi_env env, napi_callback_info info);
napi_value jsRegionPlanAsync(napi_env env, napi_callback_info info);
napi_value jsCopySearch(napi_env env, napi_callback_info info);
napi_value jsRegionGroups(napi_env env, napi_callback_info info);
#ifndef _WIN32
napi_value jsListDir(napi_env env, napi_callback_info info);
/* readcode.c: readCode, readCodeBatch, readCodeBatchAsync, releaseBuffer. */
napi_value jsReadCode(napi_env env, napi_callback_info info);
napi_value jsReadCodeBatch(napi_env env, napi_callback_info info);
napi_value jsReadCodeBatchAsync(napi_env env, napi_callback_info info);
napi_value jsReleaseBuffer(napi_env env, napi_callback_info info);
#endif

#endif
