/* mapcheck.h — coverage checkers for the block maps (docs/maps.md#checking-a-map), shared by
 * the tests (tests/test_maps3d.c, tests/test_lambda.c) and `tribody maps --check`.
 *
 * Every checker walks the blocks of a plan on the CPU exactly as they are launched: every
 * launch, the same grid sides, each block through the map's host first()/next(). It counts
 * what each block produces against the domain and passes iff every element of the domain is
 * produced exactly once and nothing outside it is produced.
 *   tiles:     domain D3(nb) (D2(nb) in 2D), element = tile, index idx3 = Tet(K) + T2(J) + I.
 *   particles: domain {i < j < k < n} (pairs i < j < n in 2D); each produced tile is expanded
 *              into the particle triplets the kernel visits: tile T holds [T·edge,
 *              min((T+1)·edge, n)), mask i < j < k. Tiles with an index outside [0, nb) count
 *              as outside (a kernel would read out of range).
 * Memory: one bit per domain element (the bitset's atomic fetch-or also finds duplicates);
 * see map_check_bytes(). Walks run in parallel with OpenMP.
 *
 * For domains too large to hold (Tet(4096) = 1.1e10 tiles), map3d_check_sampled() checks
 * random blocks: every produced tile must lie in D3(nb); and when the map is an enumeration
 * (map3d_check_ordered() proves that at a small nb), the block of global linear index g must
 * produce exactly the tile idx3^-1(g) (the per-ω invariants of docs/maps.md#checking-a-map),
 * for random g and every layer boundary. Uniqueness of non-enumeration maps is not checked by
 * sampling. */
#ifndef TB_MAPS3D_MAPCHECK_H
#define TB_MAPS3D_MAPCHECK_H

#include <stddef.h>

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"

TB_BEGIN_DECLS

/* What a check found. Counts are over the whole walk. */
typedef struct map_check {
    long long expected;  /* size of the domain */
    long long blocks;    /* blocks visited */
    long long discarded; /* blocks whose first() returned 0 (DISCARD) */
    long long produced;  /* elements produced (tiles or particle tuples), outside included */
    long long outside;   /* produced outside the domain */
    long long duplicate; /* produced again after the first time */
    long long missing;   /* never produced */
    long long mismatch;  /* sampled check of an enumeration: block g did not produce idx3^-1(g) */
    char first[200];     /* the first problem found, "" when none */
} map_check;

/* Bytes of the bitset a check over `elements` needs. */
long long map_check_bytes(long long elements);

/* C(n, 3) and C(n, 2) in 64 bits. */
long long map_check_triplets(long long n);
long long map_check_pairs(long long n);

/* Exhaustive checks. Return 0 when everything passes, 1 when coverage fails (r says how),
 * -1 when the bitset cannot be allocated (r->first says so; nothing was checked). */
int map3d_check_tiles(const map3d_type *t, const map3d_plan *p, map_check *r);
int map3d_check_particles(const map3d_type *t, const map3d_plan *p, int n, int edge,
                          map_check *r);
int map2d_check_tiles(const map2d_type *t, const map2d_plan *p, map_check *r);
int map2d_check_particles(const map2d_type *t, const map2d_plan *p, int n, int edge,
                          map_check *r);

/* 1 when map t, planned with o at a small nb (40), is an enumeration in launch order: the
 * block of global linear index g (launches in plan order, b = bx + gx(by + gy·bz) within
 * each) produces the tile idx3^-1(g) for g < Tet and exits for g >= Tet, or, for a
 * persistent map, each block walks consecutive idx3 continuing where the previous block
 * stopped. 0 otherwise; -1 if the probe plan fails. */
int map3d_check_ordered(const map3d_type *t, const map3d_opts *o);

/* Sampled check of a plan too large for map3d_check_tiles (see the file comment): `samples`
 * random blocks (seeded), each block's tiles checked to lie in D3(nb). With ordered = 1 also
 * the enumeration identity, at the random blocks, at every layer boundary Tet(k) - 1, Tet(k)
 * and at the spare blocks past Tet; a persistent ordered map has every block's start checked
 * and a few whole blocks walked. Returns 0 or 1 as above. */
int map3d_check_sampled(const map3d_type *t, const map3d_plan *p, int ordered, long long samples,
                        unsigned long long seed, map_check *r);

/* The tile of linear index idx = Tet(K) + T2(J) + I (host, by lambda's exact decode). */
void map_check_tile_of(long long idx, int *I, int *J, int *K);

TB_END_DECLS

#endif
