/*
 * One directory listed for the CLI's walk (src/node/files/walk.ts with a native lister): its
 * entries' names, kinds (from readdir's d_type, else lstat's), and for each regular file its lstat
 * (mode, size, mtime) and, when not readable by everyone, whether this process may read it — what
 * the walk asked of Node one call at a time (readdirSync, then lstatSync and accessSync per file),
 * in one call: no Dirent nor Stats object per entry. POSIX only: on Windows the addon has no
 * listDir and the walk keeps Node's calls.
 */
#ifndef _WIN32
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "kernelglue.h"

/* An entry's kind: as walk.ts's Kind, and KIND_FAILED when lstat of an entry of unknown d_type failed. */
enum { KIND_FILE = 0, KIND_DIR = 1, KIND_SYMLINK = 2, KIND_OTHER = 3, KIND_FAILED = 4 };

static uint8_t kindOfMode(mode_t m) {
  return S_ISLNK(m) ? KIND_SYMLINK : S_ISDIR(m) ? KIND_DIR : S_ISREG(m) ? KIND_FILE : KIND_OTHER;
}

/* Per entry, as the JavaScript reads them (see jsListDir). */
typedef struct {
  uint8_t kind;
  uint32_t mode;
  double size, mtimeMs;
  int32_t statErrno, accessErrno;
} Entry;

static void statEntry(int dirFd, const char *name, Entry *e) {
  struct stat st;
  if (fstatat(dirFd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    e->statErrno = errno;
    return;
  }
  if (e->kind == KIND_FAILED) e->kind = kindOfMode(st.st_mode);
  e->mode = (uint32_t)st.st_mode;
  e->size = (double)st.st_size;
#ifdef __APPLE__
  const struct timespec mt = st.st_mtimespec;
#else
  const struct timespec mt = st.st_mtim;
#endif
  e->mtimeMs = (double)mt.tv_sec * 1000 + (double)mt.tv_nsec / 1e6; /* as Node's Stats.mtimeMs */
  /* Only files not readable by everyone can be unreadable (walk.ts statFileSync). */
  if (S_ISREG(st.st_mode) && (st.st_mode & 0444) != 0444 && faccessat(dirFd, name, R_OK, 0) != 0) e->accessErrno = errno;
}

/*
 * listDir(path) -> errno (a number: the directory cannot be opened or read) | { names: string (the
 * entries' names, each followed by "\0"), kinds: Uint8Array (0 file, 1 dir, 2 symlink, 3 other, 4
 * lstat failed: statErrno), mode: Uint32Array, size, mtimeMs: Float64Array, statErrno,
 * accessErrno: Int32Array } — mode, size and mtimeMs are lstat's of regular files (and of entries
 * whose d_type is unknown), statErrno its errno when it failed, accessErrno access(R_OK)'s errno
 * for a regular file not readable by everyone.
 */
napi_value jsListDir(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  CALL(napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  size_t len = 0;
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], NULL, 0, &len) != napi_ok) return throwError(env, "listDir: a path");
  char *dirPath = malloc(len + 1);
  if (!dirPath) return throwError(env, "out of memory");
  napi_get_value_string_utf8(env, argv[0], dirPath, len + 1, &len);
  const int dirFd = open(dirPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  free(dirPath);
  if (dirFd < 0) return number(env, errno);
  DIR *dir = fdopendir(dirFd);
  if (!dir) {
    const int e = errno;
    close(dirFd);
    return number(env, e);
  }
  char *names = NULL;
  Entry *entries = NULL;
  size_t nNames = 0, namesCap = 0, n = 0, cap = 0;
  int fault = 0;
  for (;;) {
    errno = 0;
    const struct dirent *d = readdir(dir);
    if (!d) {
      fault = errno;
      break;
    }
    if (d->d_name[0] == '.' && (d->d_name[1] == 0 || (d->d_name[1] == '.' && d->d_name[2] == 0))) continue;
    const size_t l = strlen(d->d_name) + 1;
    if (!growArray((void **)&names, &namesCap, nNames + l, 1) || !growArray((void **)&entries, &cap, n + 1, sizeof(Entry))) {
      fault = ENOMEM;
      break;
    }
    memcpy(names + nNames, d->d_name, l);
    nNames += l;
    Entry *e = &entries[n++];
    memset(e, 0, sizeof *e);
    switch (d->d_type) {
      case DT_REG: e->kind = KIND_FILE; break;
      case DT_DIR: e->kind = KIND_DIR; break;
      case DT_LNK: e->kind = KIND_SYMLINK; break;
      case DT_FIFO: case DT_SOCK: case DT_BLK: case DT_CHR: e->kind = KIND_OTHER; break;
      default: e->kind = KIND_FAILED; break; /* DT_UNKNOWN: lstat says */
    }
    if (e->kind == KIND_FILE || e->kind == KIND_FAILED) statEntry(dirFd, d->d_name, e);
  }
  closedir(dir);
  if (fault) {
    free(names);
    free(entries);
    return fault == ENOMEM ? throwError(env, "out of memory") : number(env, fault);
  }
  uint8_t *kinds = malloc(n ? n : 1);
  uint32_t *mode = malloc((n ? n : 1) * 4);
  double *size = malloc((n ? n : 1) * 8), *mtime = malloc((n ? n : 1) * 8);
  int32_t *statErrno = malloc((n ? n : 1) * 4), *accessErrno = malloc((n ? n : 1) * 4);
  napi_value result = NULL, text, k, m, s, t, se, ae;
  if (kinds && mode && size && mtime && statErrno && accessErrno) {
    for (size_t i = 0; i < n; i++) {
      kinds[i] = entries[i].kind, mode[i] = entries[i].mode, size[i] = entries[i].size, mtime[i] = entries[i].mtimeMs;
      statErrno[i] = entries[i].statErrno, accessErrno[i] = entries[i].accessErrno;
    }
    const int made = napi_create_string_utf8(env, names ? names : "", nNames, &text) == napi_ok && copiedArray(env, napi_uint8_array, kinds, n, 1, &k) &&
                     copiedArray(env, napi_uint32_array, mode, n, 4, &m) && copiedArray(env, napi_float64_array, size, n, 8, &s) &&
                     copiedArray(env, napi_float64_array, mtime, n, 8, &t) && copiedArray(env, napi_int32_array, statErrno, n, 4, &se) &&
                     copiedArray(env, napi_int32_array, accessErrno, n, 4, &ae) && napi_create_object(env, &result) == napi_ok &&
                     napi_set_named_property(env, result, "names", text) == napi_ok && napi_set_named_property(env, result, "kinds", k) == napi_ok &&
                     napi_set_named_property(env, result, "mode", m) == napi_ok && napi_set_named_property(env, result, "size", s) == napi_ok &&
                     napi_set_named_property(env, result, "mtimeMs", t) == napi_ok && napi_set_named_property(env, result, "statErrno", se) == napi_ok &&
                     napi_set_named_property(env, result, "accessErrno", ae) == napi_ok;
    if (!made) result = NULL;
  }
  free(names);
  free(entries);
  free(kinds);
  free(mode);
  free(size);
  free(mtime);
  free(statErrno);
  free(accessErrno);
  if (!result) {
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && !pending) return throwError(env, "out of memory");
  }
  return result;
}
#endif
