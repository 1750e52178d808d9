/*
 * Big arrays' pages (grow.h hugePagesHint): an array the kernel writes soon and whole is marked
 * for transparent huge pages (Linux, madvise), so that its 2 MB-aligned interior faults in 2 MB at
 * a time instead of 4 KB — unless this process found 4 KB pages cheaper. Which is cheaper depends
 * on the machine: on one virtual machine a fresh 4 KB page cost ~12 µs (100 MB first touched:
 * ~300 ms of CPU, ~9 ms in 2 MB pages); on another, whose host takes back free 2 MB blocks (free
 * page reporting), a fresh 2 MB page cost 1.2–2.1 ms a MB and a 4 KB page 0.4 ms a MB, except
 * the few 2 MB pages just freed (0.06 ms a MB: a probe of one page says nothing). So the region
 * documents' blocks measure both as they are filled (regionblocks.c) and give the verdict here
 * (hugePagesVerdict); until then, and in a process that makes none, arrays are marked.
 * NEARDUP_HUGE_PAGES=1 or 0 decides instead (benches, tests). A hint: with huge pages off (or
 * not Linux), nothing changes.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

/* -2 not read yet, -1 none, else NEARDUP_HUGE_PAGES's 0 or 1 */
static int forcedHuge = -2;
/* -1 no verdict yet, else 1 (mark) or 0 (leave in 4 KB pages) */
static int verdictHuge = -1;
/* what the verdict was drawn from: ns of CPU per MB first written, each way (-1: not measured) */
static double verdictHugeNsPerMb = -1, verdictSmallNsPerMb = -1;

int hugePagesForced(void) {
  int f = __atomic_load_n(&forcedHuge, __ATOMIC_ACQUIRE);
  if (f == -2) {
    const char *env = getenv("NEARDUP_HUGE_PAGES");
    f = env && (env[0] == '0' || env[0] == '1') && env[1] == '\0' ? env[0] - '0' : -1;
    __atomic_store_n(&forcedHuge, f, __ATOMIC_RELEASE);
  }
  return f;
}

int hugePagesInUse(void) {
  const int f = hugePagesForced();
  if (f >= 0) return f;
  return __atomic_load_n(&verdictHuge, __ATOMIC_ACQUIRE) != 0;
}

void hugePagesVerdict(double hugeNsPerMb, double smallNsPerMb) {
  verdictHugeNsPerMb = hugeNsPerMb;
  verdictSmallNsPerMb = smallNsPerMb;
  __atomic_store_n(&verdictHuge, hugeNsPerMb <= smallNsPerMb, __ATOMIC_RELEASE);
}

int hugePagesState(double *hugeNsPerMb, double *smallNsPerMb) {
  const int verdict = __atomic_load_n(&verdictHuge, __ATOMIC_ACQUIRE); /* (its figures are written before it) */
  *hugeNsPerMb = verdict < 0 ? -1 : verdictHugeNsPerMb;
  *smallNsPerMb = verdict < 0 ? -1 : verdictSmallNsPerMb;
  return verdict;
}

#ifdef __linux__
#include <sys/mman.h>

void hugePagesMark(void *p, size_t bytes, int huge) {
  if (!p || bytes < HUGE_PAGE_BYTES) return;
  const uintptr_t page = HUGE_PAGE_BYTES;
  const uintptr_t s = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + bytes) & ~(page - 1);
  if (e > s) madvise((void *)s, e - s, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
}

void hugePagesHint(void *p, size_t bytes) {
  if (bytes >= HUGE_HINT_MIN && hugePagesInUse()) hugePagesMark(p, bytes, 1);
}
#else
void hugePagesMark(void *p, size_t bytes, int huge) {
  (void)p;
  (void)bytes;
  (void)huge;
}
void hugePagesHint(void *p, size_t bytes) {
  (void)p;
  (void)bytes;
}
#endif
