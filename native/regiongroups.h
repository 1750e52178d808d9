/* The groups of copies of the regions a plan job found (native/regiongroups.c, the native addon
 * only): src/core/regions/groups.ts groupRegions made in the job instead of on Node's thread, and
 * of a job's regions with more searched on that thread afterwards (kernelbuckets.c regionGroups). */
#ifndef NEARDUP_REGIONGROUPS_H
#define NEARDUP_REGIONGROUPS_H
#include <stddef.h>
#include <stdint.h>

#include "buckets.h"

/*
 * groupRegions of the regions of `found` (a search of buckets `buckets`: docA docB end each): sides
 * 2i (a) and 2i + 1 (b) of region i; sides of one document overlapping by at least half of the
 * shorter are one place, places linked by regions one group. Into *out (malloc'ed, *outLength
 * ints), group after group in groupRegions' order: its number of places and of regions, then per
 * place (by document and start) the side that first made it (in order of document, start, side),
 * its start and end, then its regions in order. Returns 1, -1 out of memory.
 */
int regionGroupsOf(const uint32_t *buckets, const BucketResult *found, int32_t **out, size_t *outLength);

#endif
