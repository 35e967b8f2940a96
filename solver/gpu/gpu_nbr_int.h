/* gpu_nbr_int.h — what the two halves of the GPU neighbour lists share (CUDA C++ only): the
 * lists' state, built by gpu_nbr_build.cu and read by the force kernel of gpu_nbr.cu. */
#ifndef TB_GPU_NBR_INT_H
#define TB_GPU_NBR_INT_H

#include "solver/gpu/gpu_internal.h"
#include "solver/physics/nbr.h"

struct gpu_nbr {
    int n;
    tb_box_d box; /* the box (box.h); the lists work in double whatever the precision */
    tb_box_d box_ref; /* the box at the last build (nbr.h: a box that moves) */
    const tb_box_d *d_box;  /* a box that moves on the device (gpu_nbr_box_dev), else NULL */
    gpu_box_rec *d_boxr;    /* what the skin test reads of it (gpu_internal.h) */
    int (*box_read)(void *ctx); /* the backend brings it back into box at a build (and
                                   checks it: a fault stops the run) */
    void *box_ctx;
    double radius, skin;
    nbr_grid g;
    int *d_key, *d_key2, *d_seq, *d_perm; /* [n] */
    int *d_start, *d_end;                 /* [cells] */
    long long cells_cap;
    int *d_cnt, *d_off;                   /* [n + 1]: row lengths, offsets (cell order) */
    int *d_roff;                          /* [n + 1]: this rank's rows' offsets in d_idx */
    long long *d_work, *d_wpre;           /* [n + 1]: anchors' work and its scan (P > 1) */
    int *d_meta;                          /* [8]: a_lo, a_hi, off[a_lo], off[a_hi], max, total,
                                             most candidates of a cell */
    int *d_scnt;                          /* [NBR_SLICES n]: row slices' lengths (scnt_cap) */
    long long scnt_cap;
    int *d_idx, *d_idx2;                  /* [cap], [cap2]: this rank's rows (d_idx2: the
                                             segmented sort of TB_NBR_BUILD=0 only) */
    long long cap, cap2, entries;
    tb_double4 *d_xref;                   /* [n] positions at the build */
    double *d_part;                       /* [256 * 6] bounding-box partials */
    unsigned *d_flag;                     /* skin test: NBR_STALE, NBR_SOON bits */
    unsigned *h_flag;                     /* its pinned host copy (the speculative test) */
    unsigned *h_flag_dev;                 /* h_flag as the device writes it (mapped) */
    unsigned *d_pub;                      /* [2] the speculative test's flag and its blocks
                                             done: 0 between tests (gpu_nbr_stale.cu) */
    cudaEvent_t ev_flag;                  /* recorded behind that copy */
    unsigned long long *d_stats;          /* [3]: entry-pair slots, triplets that counted,
                                             the rows' checksum (d_stats2, TB_NBR_PHASES) */
    unsigned long long *d_stats2;
    void *d_tmp;
    size_t tmp_bytes;
    int max_row;
    long long builds;
    int a_lo, a_hi;                       /* this rank's blocks (positions in perm) */
    long long share_entries;              /* list entries of this rank's anchors (held here) */
    int fresh;                            /* gpu_nbr_refresh just ran: forces skip the check */
    int smem_max;                         /* largest dynamic shared memory per block */
    int full;                             /* 1: every partner within R (a centred body,
                                             Stillinger-Weber: gpu_sw.cu), not nbr.h's rows */
    const void *sw_fn;                    /* gpu_sw.cu's last launch: kernel, block, shared */
    int sw_block, sw_smem;                /* bytes; SMs and resident blocks per SM (queried */
    int sw_sms, sw_res;                   /* again when one of the first three changes) */
    int *d_swq;                           /* [2] gpu_sw.cu's queue of centres: 0 between
                                             launches */
    int *d_swlegs;                        /* [5 n] gpu_sw_order.cu's legs per particle, its
                                             keys, values and the order of the centres */
    int sw_legs_ok, sw_order_n;           /* legs recorded; the centres the order holds */
    long long sw_order_at;                /* the build the order was sorted after (-1: none) */
};

/* The skin test's bits: a particle moved more than skin/2 since the build (the lists are
 * stale), or may do so within the next step (the early flag of the speculative test). */
#define NBR_STALE 1u
#define NBR_SOON 2u
#define NBR_BAD 4u /* the step's kick-drift found a non-finite value (gpu_fin_check) */

/* The order of the SW centres for gpu_sw.cu's queue (gpu_sw_order.cu): *legs, where the kernel
 * records each particle's legs, and *order (NULL: the rows' order), sorted again after a build;
 * both NULL under TB_SW_ORDER=0. 0 or -1 (reported). */
int gpu_sw_order(gpu_nbr *b, int count, cudaStream_t st, int **legs, const int **order);

/* CUB's scratch of the lists (b->d_tmp) grown to at least bytes; 0 or -1 (reported). */
int gpu_nbr_tmp_fit(gpu_nbr *b, size_t bytes);

/* The build itself (gpu_nbr_build.cu), at pos, whatever the skin test says; 0 or -1. */
int gpu_nbr_build(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st);

/* Rebuilds the lists when none exists or a particle moved more than skin/2 since the last
 * build (skipped once after gpu_nbr_refresh); 0 or -1 (reported). */
int gpu_nbr_update(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st);

#endif
