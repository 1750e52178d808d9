/*
 * Where the batch jobs' region documents live (readcode.c jobRegion): blocks of a few MB, mapped
 * at 2 MB boundaries and marked for transparent huge pages (Linux, madvise), the documents cut
 * from them one after another. Each document used to be a malloc of its own, first touched page
 * by page as it was written: ~15,000 page faults in a default scan of the small bench tree, at
 * ~12 µs each on this virtual machine (a 2 MB page: one fault). A block counts the documents in
 * it and is unmapped when the last is freed and no job cuts from it any more (regionBlocksClose,
 * when the scan's batches are over). POSIX only, like readcode.c; elsewhere nothing uses it.
 */
#ifndef _WIN32
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "grow.h"
#include "regionblocks.h"

/* A block's bytes: two huge pages (a default scan of the small bench tree: ~100 MB of documents). */
#define BLOCK_BYTES (2 * HUGE_PAGE_BYTES)
/* Each document starts on 16 bytes (its parts are 4-byte words and bytes). */
#define DOC_ALIGN 16

struct RegionBlock {
  uint8_t *base;
  size_t size, used;
  /* documents not yet freed, and 1 while it is the block jobs cut from */
  size_t refs;
};

static pthread_mutex_t blockLock = PTHREAD_MUTEX_INITIALIZER;
/* the block documents are cut from now (NULL: the next document maps one) */
static RegionBlock *current;

/* A block of `size` bytes (a multiple of HUGE_PAGE_BYTES, at least two) at a 2 MB boundary, marked for huge pages: NULL when it cannot be mapped. */
static RegionBlock *blockMap(size_t size) {
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
  hugePagesHint(base, size); /* (hugepages.c; with huge pages off, 4 KB pages as before) */
  b->base = base;
  b->size = size;
  b->used = 0;
  b->refs = 0;
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
    RegionBlock *own = blockMap((need + HUGE_PAGE_BYTES - 1) & ~(HUGE_PAGE_BYTES - 1));
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
  if (!current && (current = blockMap(BLOCK_BYTES)) != NULL) current->refs = 1;
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
