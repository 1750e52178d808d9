/*
 * The Node-API glue's shared part (internal to the addon; wasm.c has its own): the CALL macro, the
 * argument readers kernel.c and kernelbuckets.c both use (static inline), and the bindings
 * kernelbuckets.c defines for kernel.c's module table.
 */
#ifndef NEARDUP_KERNELGLUE_H
#define NEARDUP_KERNELGLUE_H

#define NAPI_VERSION 8
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>

#include "fingerprint.h"

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

/* kernelbuckets.c: regionBuckets, regionBucketsAsync, regionPlanAsync. */
napi_value jsRegionBuckets(napi_env env, napi_callback_info info);
napi_value jsRegionBucketsAsync(napi_env env, napi_callback_info info);
napi_value jsRegionPlanAsync(napi_env env, napi_callback_info info);

#endif
