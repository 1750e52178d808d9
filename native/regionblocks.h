/* The batch jobs' region documents' memory (regionblocks.c): cut from blocks marked for huge pages. POSIX only. */
#ifndef NEARDUP_REGIONBLOCKS_H
#define NEARDUP_REGIONBLOCKS_H
#include <stddef.h>

#include "fingerprint.h"

typedef struct RegionBlock RegionBlock;

/* `bytes` for a region document (any thread): its memory, *block the block it was cut from (NULL: a malloc, freed by free); NULL when out of memory. */
void *regionBlockAlloc(size_t bytes, RegionBlock **block);
/* The region document of K's last tokenize (kernelRegionWrite), `bytes` long (kernelRegionBytes), written into memory of
 * regionBlockAlloc (any thread; its CPU time counted for the blocks' trial of huge pages): NULL when out of memory. */
void *regionDocWrite(const Kernel *K, size_t bytes, RegionBlock **block);
/* A document regionBlockAlloc gave (any thread): its block unmapped once none of its documents is left and no job cuts from it. */
void regionBlockFree(void *doc, RegionBlock *block);
/* No job cuts from the current block any more (a scan's batches are over): it goes with its last document. */
void regionBlocksClose(void);
#endif
