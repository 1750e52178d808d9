/*
 * readCode: a code file read, decoded and tokenised in one call (the worker's fast path,
 * src/node/workers/fingerprintFile.ts fastCode): open (O_NOFOLLOW, O_NONBLOCK), fstat, read, close as readTextSync
 * of src/node/workers/fingerprintFile.ts does, into the caller's buffer; then, when
 * plainCodeText (utf8code.c) says the usual path would fingerprint the bytes as plain UTF-8, their
 * UTF-16 text into the kernel's text buffer and kernelTokenize, as tokenize(text) would. Anything
 * unusual gives a status that sends the caller back to the usual path, which then says why (its
 * own reason strings: none are made here). POSIX only: on Windows the addon has no readCode.
 */
#ifndef _WIN32
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernelglue.h"
#include "utf8code.h"

/* readCode's statuses below 0 (above: the token count). */
#define READ_UNUSUAL (-1) /* not read here: the usual path reads the file */
#define READ_PLAIN_NOT (-2) /* read (out[0] bytes in the buffer), not plain: the usual path decodes them; out[1] says why (PLAIN_*) */

/*
 * The file's bytes into buf (cap bytes): their count, or -1 when the usual path must read it
 * (cannot open, not a regular file, size unknown (0) or over `limit`, read fails, the size changed,
 * or more than fits). What readTextSync would read: one read of its fstat size.
 */
static long readWhole(const char *path, uint8_t *buf, size_t cap, double limit) {
  const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  long got = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (double)st.st_size <= limit && (size_t)st.st_size < cap) {
    const size_t size = (size_t)st.st_size;
    size_t n = 0;
    for (;;) {
      const ssize_t r = read(fd, buf + n, size + 1 - n);
      if (r < 0) {
        if (errno == EINTR) continue;
        n = (size_t)-1;
        break;
      }
      if (r == 0) break;
      n += (size_t)r;
      if (n >= size) break;
    }
    if (n == size) got = (long)n; /* shorter or longer than its fstat: the usual path reads it again */
  }
  close(fd);
  return got;
}

/*
 * readCode(path, buffer: Uint8Array, limit, languageId, normalize, region, fold, out: Uint32Array(2))
 * -> the token count of kernelTokenize (out: bytes, lines), or READ_UNUSUAL, or READ_PLAIN_NOT
 * (out: bytes in buffer, why). `limit`: the largest file taken (the usual path's checks on sizes).
 */
napi_value jsReadCode(napi_env env, napi_callback_info info) {
  size_t argc = 8;
  napi_value argv[8];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  void *buf, *outWords;
  size_t cap, outLen, len = 0;
  double limit;
  int32_t langId;
  bool normalize, region, fold;
  if (!K || !K->ready || argc < 8 || !typedArray(env, argv[1], napi_uint8_array, &buf, &cap) || !typedArray(env, argv[7], napi_uint32_array, &outWords, &outLen) || outLen < 2 ||
      napi_get_value_double(env, argv[2], &limit) != napi_ok || napi_get_value_int32(env, argv[3], &langId) != napi_ok || napi_get_value_bool(env, argv[4], &normalize) != napi_ok ||
      napi_get_value_bool(env, argv[5], &region) != napi_ok || napi_get_value_bool(env, argv[6], &fold) != napi_ok || langId < 0 || langId >= K->nLangs)
    return throwError(env, "readCode(path, buffer, limit, languageId, normalize, region, fold, out) after init");
  uint32_t *out = outWords;
  char small[1024];
  if (napi_get_value_string_utf8(env, argv[0], NULL, 0, &len) != napi_ok) return throwError(env, "readCode: a path");
  char *path = len < sizeof small ? small : malloc(len + 1);
  if (!path) return number(env, READ_UNUSUAL);
  napi_get_value_string_utf8(env, argv[0], path, len + 1, &len);
  /* A path with a NUL is Node's to refuse. */
  const long n = strlen(path) == len ? readWhole(path, buf, cap, limit) : -1;
  if (path != small) free(path);
  if (n < 0) return number(env, READ_UNUSUAL);
  uint16_t *text = kernelTextBuffer(K, (size_t)n);
  if (!text) return number(env, READ_UNUSUAL);
  uint32_t plain[PLAIN_INFO_WORDS];
  const int why = plainCodeText(buf, (size_t)n, fold, text, plain);
  out[0] = (uint32_t)n;
  if (why != PLAIN_OK) {
    out[1] = (uint32_t)why;
    return number(env, READ_PLAIN_NOT);
  }
  out[1] = plain[1];
  const int tokens = kernelTokenize(K, (int)plain[0], &K->langs[langId], normalize, region);
  if (tokens < 0) return throwError(env, "out of memory");
  return number(env, tokens);
}
#endif
