/*
 * Where the batch jobs' region documents live (readcode.c jobRegion): blocks of a few MB, mapped
 * at 2 MB boundaries and marked for transparent huge pages or against them (Linux, madvise), the
 * documents cut from them one after another. Each document used to be a malloc of its own, first touched page
 * by page as it was written: ~15,000 page faults in a default scan of the small bench tree, at
 * ~12 µs each on one virtual machine (a 2 MB page: one fault). On another, 2 MB pages cost 3–5
 * times as much as 4 KB ones (hugepages.c), so the first blocks are a trial: huge pages and 4 KB
 * pages in turn, the CPU time of their documents' writes measured (regionDocWrite), until each
 * kind has TRIAL_BYTES; the cheaper one is the verdict (hugePagesVerdict) for the blocks after
 * them and the kernel's other big arrays. A block counts the documents in it and is unmapped when
 * the last is freed and no job cuts from it any more (regionBlocksClose, when the scan's batches
 * are over). POSIX only, like readcode.c; elsewhere nothing uses it.
 */
#ifndef _WIN32
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

#include "grow.h"
#include "regionblocks.h"

/* A block's bytes: two huge pages (a default scan of the small bench tree: ~100 MB of documents). */
#define BLOCK_BYTES (2 * HUGE_PAGE_BYTES)
/* Each document starts on 16 bytes (its parts are 4-byte words and bytes). */
#define DOC_ALIGN 16
/* The trial's bytes of documents written in each kind of page (two blocks' worth). */
#define TRIAL_BYTES (2 * BLOCK_BYTES)

struct RegionBlock {
  uint8_t *base;
  size_t size, used;
  /* documents not yet freed, and 1 while it is the block jobs cut from */
  size_t refs;
  /* its pages: 1 huge, 0 4 KB; and whether its documents' writes are timed for the trial */
  int huge, trial;
};

static pthread_mutex_t blockLock = PTHREAD_MUTEX_INITIALIZER;
/* the block documents are cut from now (NULL: the next document maps one) */
static RegionBlock *current;
/* The trial (under blockLock): blocks made in it so far, and each kind's documents' bytes and CPU ns. */
static size_t trialBlocks;
static size_t trialBytes[2];
static int64_t trialNs[2];
static int trialOver;

/* A block of `size` bytes (a multiple of HUGE_PAGE_BYTES, at least two) at a 2 MB boundary, marked
 * for huge pages or against them (`huge`): NULL when it cannot be mapped. */
static RegionBlock *blockMap(size_t size, int huge) {
  RegionBlock *b = malloc(sizeof *b);
  if (!b) return NULL;
  /* map HUGE_PAGE_BYTES more than asked, then give back the ends outside the aligned span */
  uint8_t *raw = mmap(NULL, size + HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) {
    free(b);
    return NULL;
  }
  uint8_t *base = (uint8_t *)(((uintptr_t)raw + HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(HUGE_PAGE_BYTES - 1));
  if (base > raw) munmap(raw, (size_t)(base - raw));
  const size_t tail = (size_t)(raw + size + HUGE_PAGE_BYTES - (base + size));
  if (tail) munmap(base + size, tail);
  hugePagesMark(base, size, huge); /* (hugepages.c; with huge pages off, 4 KB pages either way) */
  b->base = base;
  b->size = size;
  b->used = 0;
  b->refs = 0;
  b->huge = huge;
  b->trial = 0;
  return b;
}

static void blockUnmap(RegionBlock *b) {
  munmap(b->base, b->size);
  free(b);
}

void *regionBlockAlloc(size_t bytes, RegionBlock **block) {
  const size_t need = (bytes + DOC_ALIGN - 1) & ~(size_t)(DOC_ALIGN - 1);
  *block = NULL;
  if (need == 0 || need > BLOCK_BYTES / 2) {
    /* a big document has a block of its own (no block's tail left for it); an empty one a malloc */
    if (need == 0) return malloc(1);
    RegionBlock *own = blockMap((need + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1), hugePagesInUse());
    if (!own) return malloc(bytes);
    own->used = need;
    own->refs = 1;
    *block = own;
    return own->base;
  }
  RegionBlock *gone = NULL;
  void *doc = NULL;
  pthread_mutex_lock(&blockLock);
  if (current && current->size - current->used < need) {
    /* full: jobs cut from a new one; this one lives as long as its documents */
    if (--current->refs == 0) gone = current;
    current = NULL;
  }
  if (!current) {
    /* in the trial, huge pages and 4 KB ones in turn; after it (or when forced), the verdict */
    const int trial = !trialOver && hugePagesForced() < 0;
    if ((current = blockMap(BLOCK_BYTES, trial ? (int)(trialBlocks % 2 == 0) : hugePagesInUse())) != NULL) {
      current->refs = 1;
      current->trial = trial;
      trialBlocks += trial;
    }
  }
  if (current) {
    doc = current->base + current->used;
    current->used += need;
    current->refs++;
    *block = current;
  }
  pthread_mutex_unlock(&blockLock);
  if (gone) blockUnmap(gone);
  return doc ? doc : malloc(bytes);
}

static int64_t threadCpuNs(void) {
  struct timespec t;
  return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? (int64_t)t.tv_sec * 1000000000 + t.tv_nsec : -1;
}

void *regionDocWrite(const Kernel *K, size_t bytes, RegionBlock **block) {
  void *doc = regionBlockAlloc(bytes, block);
  if (!doc) return NULL;
  const RegionBlock *b = *block;
  const int timed = b && b->trial; /* (fixed once the block is made: read without the lock) */
  const int64_t t0 = timed ? threadCpuNs() : 0;
  kernelRegionWrite(K, doc);
  if (timed) {
    const int64_t t1 = threadCpuNs();
    pthread_mutex_lock(&blockLock);
    if (!trialOver && t0 >= 0 && t1 >= t0) {
      trialBytes[b->huge] += bytes;
      trialNs[b->huge] += t1 - t0;
      if (trialBytes[0] >= TRIAL_BYTES && trialBytes[1] >= TRIAL_BYTES) {
        trialOver = 1;
        hugePagesVerdict((double)trialNs[1] * 1048576.0 / (double)trialBytes[1], (double)trialNs[0] * 1048576.0 / (double)trialBytes[0]);
      }
    }
    pthread_mutex_unlock(&blockLock);
  }
  return doc;
}

void regionBlockFree(void *doc, RegionBlock *block) {
  if (!block) {
    free(doc);
    return;
  }
  pthread_mutex_lock(&blockLock);
  const int last = --block->refs == 0;
  pthread_mutex_unlock(&blockLock);
  if (last) blockUnmap(block);
}

void regionBlocksClose(void) {
  RegionBlock *gone = NULL;
  pthread_mutex_lock(&blockLock);
  if (current && --current->refs == 0) gone = current;
  current = NULL;
  pthread_mutex_unlock(&blockLock);
  if (gone) blockUnmap(gone);
}
#endif
