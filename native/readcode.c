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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "kernelglue.h"
#include "regionblocks.h"
#include "utf8code.h"

/* readCode's statuses below 0 (above: the token count). */
#define READ_UNUSUAL (-1) /* not read here: the usual path reads the file */
#define READ_PLAIN_NOT (-2) /* read (out[0] bytes in the buffer), not plain: the usual path decodes them; out[1] says why (PLAIN_*) */

/*
 * The bytes of the file open as fd (closed here) into *buf (*cap bytes): their count, or -1 when the usual path must read it
 * (cannot open, not a regular file, over `limit`, read fails, the size changed, or more than
 * fits). What readTextSync would read: one read of its fstat size (of a size 0, none: a file whose
 * size the system does not know gives a byte, and is the usual path's). With `grow`, a
 * file bigger than the buffer grows it (realloc: *buf and *cap updated) instead of being left out.
 */
static long readWhole(int fd, uint8_t **buf, size_t *cap, double limit, int grow) {
  if (fd < 0) return -1;
  struct stat st;
  long got = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 && (double)st.st_size <= limit &&
      ((size_t)st.st_size < *cap || (grow && growArray((void **)buf, cap, (size_t)st.st_size + 1, 1)))) {
    const size_t size = (size_t)st.st_size;
    uint8_t *b = *buf;
    size_t n = 0;
    for (;;) {
      const ssize_t r = read(fd, b + n, size + 1 - n);
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

/* How a file is opened: as readTextSync opens it (no symbolic link followed, no wait on a FIFO). */
#define OPEN_FLAGS (O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)

/* The last directory readCodeBatch opened: the files of a batch (a walk's, a directory's files
 * one after another) are opened relative to it, without a walk of their whole path each. */
typedef struct {
  int fd; /* -1: none, or it could not be opened (its files are opened by their whole path) */
  char *path;
  size_t len, cap;
} LastDir;

/* The file at `path` opened (OPEN_FLAGS) relative to its directory when it is d's, else by its
 * whole path; a directory that cannot be opened (no read permission: its files may still be)
 * leaves its files to open(path). */
static int openInDir(LastDir *d, const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash || slash == path) return open(path, OPEN_FLAGS);
  const size_t len = (size_t)(slash - path);
  if (!d->path || d->len != len || memcmp(d->path, path, len) != 0) {
    if (d->fd >= 0) close(d->fd);
    d->fd = -1;
    if (!growArray((void **)&d->path, &d->cap, len + 1, 1)) {
      d->len = 0;
      return open(path, OPEN_FLAGS);
    }
    memcpy(d->path, path, len);
    d->path[len] = 0;
    d->len = len;
    d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  }
  return d->fd < 0 ? open(path, OPEN_FLAGS) : openat(d->fd, slash + 1, OPEN_FLAGS);
}

/* A batch's language id for a prose file (readCodeBatch's languageIds): tokenised by
 * kernelTokenizeProseFile (prosesections.c), its region document anchored on its words (salt 0). */
#define BATCH_PROSE (-2)
/* Why a prose file was left after it was read (after plainCodeText's PLAIN_* reasons): a word of
 * other letters, a CJK run (their lower case and segments are JavaScript's). */
#define LEFT_PROSE_WORDS PLAIN_REASONS
#define LEFT_PROSE_CJK (PLAIN_REASONS + 1)

/* Read and, when plain code text, tokenised (readCode's work for one file, open as fd): the token count (out:
 * bytes, lines), READ_UNUSUAL, or READ_PLAIN_NOT (out: bytes, why); -3 out of memory. A prose
 * file (langId BATCH_PROSE) by kernelTokenizeProseFile, with its sections when `sections`; left
 * (READ_PLAIN_NOT, LEFT_PROSE_WORDS or _CJK) when that does not take it. */
static int readCodeFile(Kernel *K, int fd, uint8_t **buf, size_t *cap, double limit, int grow, int langId, int normalize, int region, int fold, int sections, uint32_t *out) {
  const long n = readWhole(fd, buf, cap, limit, grow);
  if (n < 0) return READ_UNUSUAL;
  uint16_t *text = kernelTextBuffer(K, (size_t)n);
  if (!text) return READ_UNUSUAL;
  uint32_t plain[PLAIN_INFO_WORDS];
  /* decodeText removes a UTF-8 byte order mark (checkText's answers on the rest are checkShape's) */
  const long bom = n >= 3 && (*buf)[0] == 0xef && (*buf)[1] == 0xbb && (*buf)[2] == 0xbf ? 3 : 0;
  const int why = plainCodeText(*buf + bom, (size_t)(n - bom), fold, K->foldTable, text, plain);
  out[0] = (uint32_t)n;
  if (why != PLAIN_OK) {
    out[1] = (uint32_t)why;
    return READ_PLAIN_NOT;
  }
  out[1] = plain[1];
  if (langId == BATCH_PROSE) {
    const int tokens = kernelTokenizeProseFile(K, (int)plain[0], sections, region);
    if (tokens != PROSE_LEFT && tokens != PROSE_LEFT_CJK) return tokens < 0 ? -3 : tokens;
    out[1] = tokens == PROSE_LEFT_CJK ? LEFT_PROSE_CJK : LEFT_PROSE_WORDS;
    return READ_PLAIN_NOT;
  }
  const int tokens = kernelTokenize(K, (int)plain[0], &K->langs[langId], normalize, region);
  return tokens < 0 ? -3 : tokens;
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
  uint8_t *bytes = buf;
  const int got = strlen(path) == len ? readCodeFile(K, open(path, OPEN_FLAGS), &bytes, &cap, limit, 0, langId, normalize, region, fold, 0, out) : READ_UNUSUAL;
  if (path != small) free(path);
  if (got == -3) return throwError(env, "out of memory");
  return number(env, got);
}

/* readCodeBatch's options (a Uint32Array), by index. OPT_REGION: 1 the region documents too, 2 the
 * region documents alone (no fingerprint: each fast file's words none, an empty document's). */
enum { OPT_NORMALIZE, OPT_FOLD, OPT_TF, OPT_MIN_TOKENS, OPT_SECTIONS, OPT_FILE_SKETCH, OPT_SECTION_SKETCH, OPT_SHINGLE, OPT_REGION, OPT_REGION_K, OPT_REGION_W, OPT_REGION_SALT, OPT_COUNT };
/* Per file, BATCH_STATE words of `state`: fast (1) or left to the caller (0), bytes, lines, its words' offset and count, its region's tokens, lines, anchors;
 * a file left after it was read: why in the second word (PLAIN_*, utf8code.h; 0 when it was not read). */
#define BATCH_STATE 8
/* The batch's buffers are kept in the kernel for the next one up to this size. */
#define BATCH_KEEP_BYTES (4u << 20)

/* One fast file's words (fingerprint's layout) appended to *words at *used; 0 out of memory. */
static int appendFingerprint(Kernel *K, int total, const uint32_t *o, uint32_t **words, size_t *cap, size_t *used) {
  const int minTokens = o[OPT_MIN_TOKENS] > 1 ? (int)o[OPT_MIN_TOKENS] : 1;
  if (total < minTokens) return 1; /* no item: fingerprintWithKernel's empty document */
  const int k = (int)o[OPT_SHINGLE] < total ? (int)o[OPT_SHINGLE] : total; /* effectiveShingleSize */
  for (;;) {
    double result = 0;
    const int status = kernelFingerprint(K, k < 1 ? 1 : k, o[OPT_TF] != 0, (int)o[OPT_FILE_SKETCH], (int)o[OPT_SECTION_SKETCH], minTokens, o[OPT_SECTIONS] != 0, *words + *used, *cap - *used, &result);
    if (status < 0) return 0;
    if (result >= 0) {
      *used += (size_t)result;
      return 1;
    }
    if (!growArray((void **)words, cap, *used + (size_t)-result, 4)) return 0;
  }
}

/* Where a batch's region documents go: sink(ctx, K, f) takes file f's (K's last kernelRegion); 0 when it cannot. */
typedef int (*RegionSink)(void *ctx, const Kernel *K, size_t f);

/*
 * A batch's files (paths: each followed by "\0", len bytes) read, checked and fingerprinted by K,
 * one after another, into `state` (n * BATCH_STATE words) and K->batchWords (*used words); with
 * OPT_REGION each fast file's region document to `sink` first. 1, or 0 out of memory (or the sink
 * failed). What readCodeBatch and readCodeBatchAsync's jobs run.
 */
static int batchFiles(Kernel *K, const char *paths, size_t len, const int32_t *ids, size_t n, double limit, const uint32_t *o, uint32_t *state, size_t *used,
                      RegionSink sink, void *ctx) {
  memset(state, 0, n * BATCH_STATE * 4);
  *used = 0;
  int failed = !growArray((void **)&K->batchWords, &K->batchCap, 65536, 4);
  LastDir dir = {-1, NULL, 0, 0};
  const char *p = paths, *end = paths + len;
  for (size_t f = 0; f < n && p < end && !failed; f++) {
    const char *path = p;
    p += strlen(p) + 1;
    if (!(ids[f] >= 0 && ids[f] < K->nLangs) && ids[f] != BATCH_PROSE) continue;
    uint32_t out[2];
    const int total = readCodeFile(K, openInDir(&dir, path), &K->readBuf, &K->readCap, limit, 1, ids[f], o[OPT_NORMALIZE] != 0, o[OPT_REGION] != 0, o[OPT_FOLD] != 0,
                                   o[OPT_SECTIONS] != 0, out);
    if (total == -3) failed = 1;
    if (total == READ_PLAIN_NOT) state[f * BATCH_STATE + 1] = out[1];
    if (total < 0) continue;
    uint32_t *st = state + f * BATCH_STATE;
    if (o[OPT_REGION]) {
      if (kernelRegion(K, (int)o[OPT_REGION_K], (int)o[OPT_REGION_W], ids[f] == BATCH_PROSE ? 0 : o[OPT_REGION_SALT]) != 0 || !sink(ctx, K, f)) {
        failed = 1;
        break;
      }
      st[5] = (uint32_t)K->ntok;
      st[6] = (uint32_t)K->nLines;
      st[7] = (uint32_t)K->nAnchors;
    }
    const size_t from = *used;
    if (o[OPT_REGION] != 2 && !appendFingerprint(K, total, o, &K->batchWords, &K->batchCap, used)) {
      failed = 1;
      break;
    }
    st[0] = 1;
    st[1] = out[0];
    st[2] = out[1];
    st[3] = (uint32_t)from;
    st[4] = (uint32_t)(*used - from);
  }
  if (dir.fd >= 0) close(dir.fd);
  free(dir.path);
  return !failed;
}

/* The batch's words (with `ok`) as a new ArrayBuffer into *ab (0 when it cannot be made); then K's
 * read buffer and words are kept for the next batch, unless a big file made them big. */
static int batchWordsBuffer(napi_env env, Kernel *K, int ok, size_t used, napi_value *ab) {
  void *data;
  const int made = ok && napi_create_arraybuffer(env, used * 4, &data, ab) == napi_ok;
  if (made && used) memcpy(data, K->batchWords, used * 4);
  if (K->readCap > BATCH_KEEP_BYTES) {
    free(K->readBuf);
    K->readBuf = NULL;
    K->readCap = 0;
  }
  if (K->batchCap * 4 > BATCH_KEEP_BYTES) {
    free(K->batchWords);
    K->batchWords = NULL;
    K->batchCap = 0;
  }
  return made;
}

/* readCodeBatch's arguments shared with readCodeBatchAsync (argv[0, 4): paths, languageIds, limit,
 * options): NULL, or what is wrong. *paths is the caller's to free. */
static const char *batchArgsOf(napi_env env, napi_value *argv, char **paths, size_t *len, const int32_t **ids, size_t *n, double *limit, const uint32_t **o) {
  void *idsData, *optData;
  size_t optLen;
  if (!typedArray(env, argv[1], napi_int32_array, &idsData, n) || !typedArray(env, argv[3], napi_uint32_array, &optData, &optLen) || optLen < OPT_COUNT ||
      napi_get_value_double(env, argv[2], limit) != napi_ok || napi_get_value_string_utf8(env, argv[0], NULL, 0, len) != napi_ok)
    return "wrong arguments";
  *ids = idsData;
  *o = optData;
  *paths = malloc(*len + 1);
  if (!*paths) return "out of memory";
  napi_get_value_string_utf8(env, argv[0], *paths, *len + 1, len);
  return NULL;
}

/* readCodeBatch's sink: file f's region document a new ArrayBuffer, element f of the regions array. */
typedef struct {
  napi_env env;
  napi_value regions;
} NapiRegions;

static int napiRegion(void *ctx, const Kernel *K, size_t f) {
  NapiRegions *r = ctx;
  napi_value ab;
  return kernelRegionBuffer(r->env, K, &ab) && napi_set_element(r->env, r->regions, (uint32_t)f, ab) == napi_ok;
}

/*
 * readCodeBatch(paths: string (each path followed by "\0"), languageIds: Int32Array(n) (-1: left to
 * the caller), limit, options: Uint32Array(OPT_COUNT), state: Uint32Array(n * BATCH_STATE), regions:
 * Array (with OPT_REGION)) -> ArrayBuffer: readCode, then fingerprint (with `region`, region first:
 * its ArrayBuffer into regions[i], as region(k, w, salt) gives it), for a batch of files in one
 * call, every fast file's words one after another. A file not plain code text (or not read) is
 * left to the caller's usual path, which reads it again and says why. The buffer the files are
 * read into grows to the largest file (readCode leaves a file bigger than its buffer to the usual path).
 */
napi_value jsReadCodeBatch(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  void *stateData;
  size_t n, stateLen, len = 0;
  double limit;
  const int32_t *ids;
  const uint32_t *o;
  char *paths = NULL;
  const char *wrong = !K || !K->ready || argc < 6 ? "wrong arguments" : batchArgsOf(env, argv, &paths, &len, &ids, &n, &limit, &o);
  if (!wrong && (!typedArray(env, argv[4], napi_uint32_array, &stateData, &stateLen) || stateLen < n * BATCH_STATE)) wrong = "wrong arguments";
  if (wrong) {
    free(paths);
    return throwError(env, wrong[0] == 'o' ? wrong : "readCodeBatch(paths, languageIds, limit, options, state, regions) after init");
  }
  NapiRegions sink = {env, argv[5]};
  size_t used = 0;
  const int ok = batchFiles(K, paths, len, ids, n, limit, o, stateData, &used, napiRegion, &sink);
  free(paths);
  napi_value ab;
  const int made = batchWordsBuffer(env, K, ok, used, &ab);
  return made ? ab : throwError(env, ok ? "napi call failed" : "out of memory");
}

/* ------------------------------------------------------------------------------- readCodeBatchAsync */

/* Thread kernels kept for the next jobs (the instance's `spares`), at most; and the largest
 * memory a job leaves its kernel (a job runs on a lane's working memory, below, so what it leaves
 * is its batch words: a kernel past this is made again on the job's thread, tables and all, so
 * that the kernels queued jobs hold stay small). */
#define SPARES_KEPT 8
#define SPARE_KEEP_BYTES (8u << 20)

/* About the bytes of a kernel's working memory (its main arrays' capacities). */
static size_t scratchBytes(const Kernel *K) {
  return K->textCap * 2 + K->tokCap * 16 + K->regionCap * 9 + K->idsCap * 8 + K->linesCap * 4 + K->anchorCap * 12 + (K->file.cap + K->spare.cap) * 20 + K->tableCap * 4 +
         K->idCap * 8 + K->itemCap * 16 + K->candCap * 8 + K->bucketCap * 4 + K->secTextCap * 2 + K->readCap + K->batchCap * 4;
}

/*
 * The lanes of readCodeBatchAsync's jobs: at most a job's `lanes` run at once (its caller's threads:
 * the scan's --workers); a job queued beyond them waits on its thread of libuv's pool and runs as
 * soon as one ends, with no turn of Node's thread between (the caller keeps a few queued).
 */
static pthread_mutex_t laneLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t laneFree = PTHREAD_COND_INITIALIZER;
static int lanesBusy = 0;

static void takeLane(int lanes) {
  pthread_mutex_lock(&laneLock);
  while (lanes > 0 && lanesBusy >= lanes) pthread_cond_wait(&laneFree, &laneLock);
  lanesBusy++;
  pthread_mutex_unlock(&laneLock);
}

static void giveLane(void) {
  pthread_mutex_lock(&laneLock);
  lanesBusy--;
  pthread_cond_broadcast(&laneFree);
  pthread_mutex_unlock(&laneLock);
}

/*
 * The lanes' working memory: kernels (kernelNew) used only for their working memory, which a job
 * takes into its own kernel while it runs (kernelSwapScratch) and gives back. So the arrays a job
 * grows (text, tokens, shingles, region streams, read buffer) are those earlier jobs grew, not
 * fresh pages (~10 µs each on first touch on a virtual machine), however many jobs, and kernels,
 * are queued: as many are kept as ran at once, at most SCRATCH_KEPT, each while under
 * SCRATCH_KEEP_BYTES (a job of big files leaves a big one: freed).
 */
#define SCRATCH_KEPT 4
#define SCRATCH_KEEP_BYTES (32u << 20)
static Kernel *laneScratch = NULL; /* a list through `spares`, under laneLock */
static size_t jobsQueued = 0;      /* jobs queued and not yet complete (any instance's), under laneLock */

/* Working memory for a job that took its lane: a kept one, else a new empty one, or NULL (out of memory). */
static Kernel *takeScratch(void) {
  pthread_mutex_lock(&laneLock);
  Kernel *s = laneScratch;
  if (s) laneScratch = s->spares;
  pthread_mutex_unlock(&laneLock);
  if (!s) return kernelNew();
  s->spares = NULL;
  return s;
}

static void giveScratch(Kernel *s) {
  size_t kept = 0;
  pthread_mutex_lock(&laneLock);
  for (const Kernel *k = laneScratch; k; k = k->spares) kept++;
  const int keep = kept < SCRATCH_KEPT && scratchBytes(s) <= SCRATCH_KEEP_BYTES;
  if (keep) {
    s->spares = laneScratch;
    laneScratch = s;
  }
  pthread_mutex_unlock(&laneLock);
  if (!keep) kernelFree(s);
}

/* A job queued (+1) or complete (-1); the lanes' working memory freed once none is left (a scan's
 * batches are over: its region documents, report and output come next, with no use for it). */
static void jobsQueuedMove(int by) {
  Kernel *gone = NULL;
  pthread_mutex_lock(&laneLock);
  jobsQueued = by > 0 ? jobsQueued + 1 : jobsQueued - 1;
  const int over = jobsQueued == 0;
  if (over) {
    gone = laneScratch;
    laneScratch = NULL;
  }
  pthread_mutex_unlock(&laneLock);
  kernelFree(gone); /* (frees the list through `spares`) */
  if (over) regionBlocksClose(); /* the last block goes with its documents */
}

/*
 * The calling thread's nice value raised to at least `nice` (a lower priority; 0: left as it is).
 * On Linux a thread's own (setpriority of "process" 0; threads it starts inherit it); elsewhere
 * the priority is the whole process's: nothing is done. It is never raised back (an unprivileged
 * thread cannot): for a process of its own, as the CLI's, whose libuv threads run nothing else.
 */
static void lowerThreadPriority(int nice) {
#ifdef __linux__
  if (nice <= 0) return;
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, 0);
  if (errno == 0 && now < nice) setpriority(PRIO_PROCESS, 0, nice);
#else
  (void)nice;
#endif
}

/* readCodeBatchAsync's job: its arguments copied, the kernel it runs on, what it made. */
typedef struct {
  int lanes, nice;
  Kernel *T;
  char *paths;
  size_t len, n, used;
  int32_t *ids;
  double limit;
  uint32_t o[OPT_COUNT];
  uint32_t *state;
  uint32_t *words; /* the batch's words when its kernel was made again (else the kernel's batchWords) */
  /* file f's region document (cut from a region block on the job's thread, which writes it: handed to
   * JavaScript as it is where it can be, so that Node's thread neither copies nor first touches
   * it) and its bytes; NULL: none */
  void **regions;
  size_t *regionBytes;
  RegionBlock **regionBlocks; /* the block each was cut from (regionblocks.c; NULL: a malloc) */
  int ok;
  napi_async_work work;
  napi_deferred deferred;
} BatchJob;

static void batchJobFree(napi_env env, BatchJob *j) {
  if (j->work) napi_delete_async_work(env, j->work);
  free(j->paths);
  free(j->ids);
  free(j->state);
  free(j->words);
  if (j->regions)
    for (size_t f = 0; f < j->n; f++)
      if (j->regions[f]) regionBlockFree(j->regions[f], j->regionBlocks[f]);
  free(j->regions);
  free(j->regionBlocks);
  free(j->regionBytes);
  free(j);
}

/* A job's sink: file f's region document, cut from the region blocks (regionblocks.c). */
static int jobRegion(void *ctx, const Kernel *K, size_t f) {
  BatchJob *j = ctx;
  const size_t bytes = kernelRegionBytes(K);
  void *doc = regionDocWrite(K, bytes, &j->regionBlocks[f]);
  if (!doc) return 0;
  j->regions[f] = doc;
  j->regionBytes[f] = bytes;
  return 1;
}

/* On a thread of libuv's pool (no Node-API here): the batch, on the job's own kernel. */
static void batchJobExecute(napi_env env, void *data) {
  (void)env;
  BatchJob *j = data;
  lowerThreadPriority(j->nice);
  takeLane(j->lanes);
  Kernel *scratch = takeScratch();
  if (scratch) kernelSwapScratch(j->T, scratch);
  j->ok = batchFiles(j->T, j->paths, j->len, j->ids, j->n, j->limit, j->o, j->state, &j->used, jobRegion, j);
  if (scratch) {
    kernelSwapScratch(j->T, scratch);
    giveScratch(scratch);
  }
  giveLane();
  Kernel *fresh = j->ok && scratchBytes(j->T) > SPARE_KEEP_BYTES ? kernelClone(j->T) : NULL;
  if (fresh) {
    /* the batch's words go with the job (batchResult reads them), the big kernel goes */
    j->words = j->T->batchWords;
    j->T->batchWords = NULL;
    kernelFree(j->T);
    j->T = fresh;
  }
}

static void freeRegion(napi_env env, void *data, void *hint) {
  (void)env;
  regionBlockFree(data, hint);
}

/*
 * releaseBuffer(buffer: ArrayBuffer) -> boolean: detaches a region document's buffer that nothing
 * reads any more (a scan let go of its region documents), so that its memory (freeRegion's, or
 * V8's) is freed now rather than at some later garbage collection; false when it cannot be.
 */
napi_value jsReleaseBuffer(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  bool isBuffer = false;
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1 || napi_is_arraybuffer(env, argv[0], &isBuffer) != napi_ok || !isBuffer) return throwError(env, "releaseBuffer(buffer: ArrayBuffer)");
  const int detached = napi_detach_arraybuffer(env, argv[0]) == napi_ok;
  bool pending = false;
  if (!detached && napi_is_exception_pending(env, &pending) == napi_ok && pending) {
    napi_value ignored;
    napi_get_and_clear_last_exception(env, &ignored);
  }
  napi_value result;
  CALL(napi_get_boolean(env, detached, &result));
  return result;
}

/* { words: ArrayBuffer, state: Uint32Array, regions: Array (with OPT_REGION: file f's ArrayBuffer at f) } into *out: 0 when it cannot be made. */
static int batchResult(napi_env env, BatchJob *j, napi_value *out) {
  napi_value words, state, regions = NULL;
  int madeWords;
  if (j->words) {
    void *data;
    madeWords = napi_create_arraybuffer(env, j->used * 4, &data, &words) == napi_ok;
    if (madeWords && j->used) memcpy(data, j->words, j->used * 4);
  } else {
    madeWords = batchWordsBuffer(env, j->T, j->ok, j->used, &words);
  }
  if (napi_create_object(env, out) != napi_ok || !madeWords ||
      !copiedArray(env, napi_uint32_array, j->state, j->n * BATCH_STATE, 4, &state) || napi_set_named_property(env, *out, "words", words) != napi_ok ||
      napi_set_named_property(env, *out, "state", state) != napi_ok)
    return 0;
  if (!j->o[OPT_REGION]) return 1;
  if (napi_create_array_with_length(env, j->n, &regions) != napi_ok) return 0;
  for (size_t f = 0; f < j->n; f++) {
    if (!j->regions[f]) continue;
    napi_value ab; /* (handed over, the ArrayBuffer's: j->regions[f] then NULL) */
    if (!handedBuffer(env, &j->regions[f], j->regionBytes[f], freeRegion, j->regionBlocks[f], &ab) || napi_set_element(env, regions, (uint32_t)f, ab) != napi_ok) return 0;
  }
  return napi_set_named_property(env, *out, "regions", regions) == napi_ok;
}

/* Back on Node's thread: the promise settled, the job's kernel kept for the next one (when its tables are still the instance's). */
static void batchJobComplete(napi_env env, napi_status done, void *data) {
  BatchJob *j = data;
  napi_value result = NULL;
  if (done == napi_ok && j->ok && batchResult(env, j, &result))
    napi_resolve_deferred(env, j->deferred, result);
  else
    rejectJob(env, j->deferred, done == napi_cancelled ? "readCodeBatchAsync: cancelled" : "out of memory");
  Kernel *K = kernelOf(env);
  size_t kept = 0;
  for (const Kernel *s = K ? K->spares : NULL; s; s = s->spares) kept++;
  if (K && j->T->generation == K->generation && kept < SPARES_KEPT) {
    j->T->spares = K->spares;
    K->spares = j->T;
  } else {
    kernelFree(j->T);
  }
  batchJobFree(env, j);
  jobsQueuedMove(-1);
}

/*
 * readCodeBatchAsync(paths, languageIds, limit, options, lanes, nice) -> Promise of { words: ArrayBuffer,
 * state: Uint32Array(n * BATCH_STATE), regions?: Array }: readCodeBatch's work (the same words,
 * state and region documents) on a thread of libuv's pool with a kernel of its own (a copy of this
 * one's tables and languages, kept for the next jobs), while JavaScript runs on; at most `lanes`
 * such jobs at once (0: no limit but libuv's threads); `nice` (optional, 0: none): that thread's
 * priority lowered to at least this nice value for good (lowerThreadPriority). The arguments are copied.
 */
napi_value jsReadCodeBatchAsync(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Kernel *K = kernelOf(env);
  const int32_t *ids;
  const uint32_t *o;
  double limit;
  size_t n, len = 0;
  char *paths = NULL;
  const char *wrong = !K || !K->ready || argc < 4 ? "wrong arguments" : batchArgsOf(env, argv, &paths, &len, &ids, &n, &limit, &o);
  if (wrong) {
    free(paths);
    return throwError(env, wrong[0] == 'o' ? wrong : "readCodeBatchAsync(paths, languageIds, limit, options) after init");
  }
  BatchJob *j = calloc(1, sizeof *j);
  if (j) {
    j->paths = paths;
    j->len = len;
    j->n = n;
    j->limit = limit;
    memcpy(j->o, o, sizeof j->o);
    j->ids = malloc((n ? n : 1) * 4);
    j->state = malloc((n ? n : 1) * BATCH_STATE * 4);
    j->regions = calloc(n ? n : 1, sizeof(void *));
    j->regionBytes = calloc(n ? n : 1, sizeof(size_t));
    j->regionBlocks = calloc(n ? n : 1, sizeof(RegionBlock *));
  }
  if (j && (argc < 5 || napi_get_value_int32(env, argv[4], &j->lanes) != napi_ok)) j->lanes = 0;
  if (j && (argc < 6 || napi_get_value_int32(env, argv[5], &j->nice) != napi_ok)) j->nice = 0;
  if (!j || !j->ids || !j->state || !j->regions || !j->regionBytes || !j->regionBlocks) {
    if (j) batchJobFree(env, j);
    else free(paths);
    return throwError(env, "out of memory");
  }
  if (n) memcpy(j->ids, ids, n * 4);
  if (K->spares) {
    /* a kept kernel, given the languages defined and the fold table set since */
    j->T = K->spares;
    K->spares = j->T->spares;
    j->T->spares = NULL;
    if (!kernelSyncClone(j->T, K)) {
      kernelFree(j->T);
      j->T = NULL;
    }
  }
  if (!j->T && !(j->T = kernelClone(K))) {
    batchJobFree(env, j);
    return throwError(env, "out of memory");
  }
  napi_value promise;
  jobsQueuedMove(+1);
  if (!queueJob(env, "neardup:readCodeBatch", NULL, 0, NULL, batchJobExecute, batchJobComplete, j, &j->work, &j->deferred, &promise)) {
    kernelFree(j->T);
    batchJobFree(env, j);
    jobsQueuedMove(-1);
    return throwError(env, "readCodeBatchAsync: cannot start");
  }
  return promise;
}

#endif
