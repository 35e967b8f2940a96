/* nbr_list.h — neighbour lists on the host (the CPU backend's; the GPU builds its own, the
 * same lists, in gpu_nbr.cu). What a list holds and why: nbr.h. */
#ifndef TB_NBR_LIST_H
#define TB_NBR_LIST_H

#include "config/config.h"
#include "solver/physics/nbr.h"
#include "solver/physics/pot_params.h"

TB_BEGIN_DECLS

typedef struct nbr_list {
    int n;
    tb_box_d box;   /* the box now (box.h); no periodic axis = open */
    tb_box_d box_ref; /* the box at the last build (nbr.h: a box that moves) */
    double radius;  /* R = max(cutoffs) + skin [sigma] */
    double skin;    /* [sigma] */
    int full;       /* 1: every partner within R, before the anchor too (a centred body,
                       Stillinger-Weber, needs all its neighbours: sw_cpu.h); 0: nbr.h's rows */
    int *off;       /* [n + 1]: row i is idx[off[i] .. off[i+1]) */
    int *idx;       /* rows lo..hi-1 only, each ascending: row i at idx + off[i] - off[lo] */
    long long cap;  /* entries idx can hold */
    int lo, hi;     /* the rows filled by the last build (a rank's anchors; 0, n on one rank) */
    int max_row;    /* longest row of the last build */
    double *xref;   /* [3n] positions at the last build */
    long long builds; /* builds so far */
    nbr_grid g;
    int *cell_start;  /* [cells + 1] */
    int *cell_part;   /* [n]: particles by cell, ascending index within a cell */
    long long cells_cap;
} nbr_list;

/* 1 when the configuration takes the neighbour-list path: solver.cull and every term that
 * runs with a cutoff (pot_range, potential.h: ATM's is potential.atm.cutoff or, in a periodic
 * box, L/4; LJ's always). */
int nbr_wanted(const sim_config *c, const pot_params *pp);

/* The list radius: the largest cutoff of the terms that run (pot_range) + skin. */
double nbr_radius(const sim_config *c, const pot_params *pp);

/* Sets up an empty list for n particles; 0 or -1 (reported). nbr_list_free accepts a zeroed
 * list. */
int nbr_list_init(nbr_list *l, int n, const tb_box_d *box, double radius, double skin);
void nbr_list_free(nbr_list *l);

/* Builds the lists at positions pos[3n] (wrapped into the box when periodic). 0 or -1. */
int nbr_list_build(nbr_list *l, const double *pos);

/* The same build in two halves, for ranks that fill only their anchors' rows: nbr_list_count
 * bins the particles and counts every row (off[], max_row: the same on every rank); the caller
 * cuts its anchors from off[]; nbr_list_fill writes rows lo..hi-1 only (the other rows are
 * never read on this rank). nbr_list_build = count + fill(0, n). 0 or -1. */
int nbr_list_count(nbr_list *l, const double *pos);
int nbr_list_fill(nbr_list *l, const double *pos, int lo, int hi);

/* Row i (lo <= i < hi of the last build). */
static inline const int *nbr_list_row(const nbr_list *l, int i)
{
    return l->idx + (l->off[i] - l->off[l->lo]);
}

/* 1 when no list was built yet or some particle has moved more than skin/2 since (in a box
 * that moved since the build: more than nbr_stretch_limit, nbr.h). */
int nbr_list_stale(const nbr_list *l, const double *pos);

/* The box moved to `box` (a diagonal stretch of the build's: a barostat): the next staleness
 * test accounts for it, the next build bins in it. */
void nbr_list_move_box(nbr_list *l, const tb_box_d *box);

TB_END_DECLS

#endif
