/* cpu_backend.c — the CPU backend: OpenMP over the blocks of the same maps the GPU
 * launches, each block running the tile loops: the vectorized ATM triplet tile (tile_simd.h,
 * over pot_atm.h's algebra) and the pair tile (tile_cpu.h over triplet.h); or, for cutoff
 * systems, over the anchors of the neighbour lists (nbr_cpu.h around the vectorized triangle
 * of nbr_simd.h). The integrators' primitives (kick, drift, ...) are in cpu_motion.c; the sums
 * over threads and ranks (the buffers, the deterministic mode's fixed-point words) in
 * cpu_sums.c; the backend's state, struct backend, in cpu_internal.h.
 *
 * Each thread accumulates forces into its own buffer; the buffers are then summed per
 * particle in thread order, and the per-thread energies in thread order, so a run is
 * bitwise repeatable for a given number of threads (OMP_NUM_THREADS). Blocks are dealt
 * out statically and cyclically (chunks of 1): every thread sees discarded and working
 * blocks alike, even when a map launches only a few dozen blocks.
 *
 * Precision: double (double arithmetic and sums); mixed (float arithmetic per triplet,
 * partial sums of at most one tile edge of terms in float (tile_simd_body.h), everything else
 * in double); single (float arithmetic and float force buffers).
 *
 * solver.deterministic: each work unit (a triplet tile, a pair tile, an anchor) runs into the
 * thread's zeroed buffer as above, and its forces, energies and virial are then added to the
 * thread's fixed-point words (fixed.h) and the buffer entries it touched zeroed again; the
 * words of the threads and of the ranks are summed as integers, so the result is the same
 * bits for any number of threads and ranks.
 *
 * Ranks (mpi.h, split.h): each rank takes its share of the tiles (the lambda-order range
 * [w_lo, w_hi): the enumerating maps launch only that, the others are filtered per tile), of
 * the pair tiles (filtered) or of the anchors (a contiguous index range of equal work), and
 * the shares are summed over the ranks at the end of each evaluation. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/lambda2d.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/finite.h"
#include "solver/par/mpi.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot.h"
#include "solver/par/split.h"
#include "solver/cpu/nbr_simd.h"
#include "solver/cpu/tile_simd.h"
#include "solver/cpu/cpu_internal.h"

#define TB_CPU_TEMPLATE "solver/cpu/tile_cpu.h"
#define TB_CPU_TEMPLATE2 "solver/cpu/nbr_cpu.h"
#define TB_CPU_TEMPLATE3 "solver/cpu/sw_cpu.h"
#include "solver/cpu/cpu_instances.h"

/* SoA arrays of st reals in one thread's neighbour scratch: the entries' d and v (4 + 4), and
 * with several species one nu array per species (nbr_cpu.h). */
/* the anchors' SoA arrays: 8, then per species (typed) or Stillinger-Weber's legs' radial
 * factors (3 per leg, sw_cpu.h; with several species they take the species' room) */
#define NBR_SCR_REALS(st, typed) ((8 + ((typed) ? TB_TYPES_MAX : 3)) * (size_t)(st))

static void cpu_destroy(backend *b)
{
    if (!b)
        return;
    map3d_plan_free(&b->p3);
    nbr_list_free(&b->nl);
    free(b->scr);
    free(b->hits_thr);
    free(b->slots_thr);
    sim_state_free(&b->s);
    free(b->acc_d);
    free(b->acc_f);
    free(b->x_f);
    free(b->tscr);
    free(b->e_thr);
    free(b->w_thr);
    free(b->a_prefix);
    free(b->red);
    free(b->fix_thr);
    free(b);
}

/* Builds the map plans for nb tiles; a map that cannot cover nb is a configuration error. */
static int cpu_plans(backend *b, const sim_config *c)
{
    char err[256];
    const int nb = map3d_nb(b->s.n, b->edge);
    map3d_opts o3 = {0};
    map2d_opts o2 = {0};
    b->m3 = map3d_find(c->solver.map);
    b->m2 = map2d_find(c->solver.map2d);
    if (!b->m3 || !b->m2)
        return tb_error(c->path, 0, "solver.map/solver.map2d: unknown map"), TB_EXIT_USAGE;
    o2.root = map2d_root_find(c->solver.root);
    o3.w_begin = b->w_lo;
    o3.w_end = b->w_hi;
    if (b->pp.atm_on && b->w_lo < b->w_hi &&
        map3d_plan_make(b->m3, nb, &o3, &b->p3, err, sizeof err) != 0) {
        tb_error(c->path, 0, "solver.map: %s (n = %d, solver.tile = %d)", err, b->s.n, b->edge);
        return TB_EXIT_USAGE;
    }
    if (b->pp.lj_on && map2d_plan_make(b->m2, nb, &o2, &b->p2, err, sizeof err) != 0) {
        tb_error(c->path, 0, "solver.map2d: %s (n = %d, solver.tile = %d)", err, b->s.n, b->edge);
        return TB_EXIT_USAGE;
    }
    return 0;
}

static int cpu_create(backend **out, const sim_config *c, const sim_state *s)
{
    const size_t n3 = 3 * (size_t)s->n;
    backend *b = calloc(1, sizeof *b);
    int rc;
    *out = NULL;
    if (!b)
        return tb_error(NULL, 0, "out of host memory");
    if (sim_state_alloc(&b->s, s->n) != 0) {
        free(b);
        return -1;
    }
    b->s.units = s->units;
    b->s.ntypes = s->ntypes;
    memcpy(b->s.type_name, s->type_name, sizeof s->type_name);
    memcpy(b->s.mass, s->mass, sizeof s->mass);
    memcpy(b->s.type, s->type, (size_t)s->n * sizeof *s->type);
    b->s.box = s->box;
    memcpy(b->s.pos, s->pos, n3 * sizeof *s->pos);
    memcpy(b->s.vel, s->vel, n3 * sizeof *s->vel);
    memcpy(b->s.force, s->force, n3 * sizeof *s->force);
    b->s.e_pair = s->e_pair;
    b->s.e_triplet = s->e_triplet;
    memcpy(b->s.virial, s->virial, sizeof s->virial);
    pot_params_init_box(&b->pp, c, &s->box);
    b->typed = b->pp.d.ntypes > 1;
    for (int i = 0; i < s->n; i++)
        if (s->type[i] < 0 || s->type[i] >= b->pp.d.ntypes) {
            const int t = s->type[i], nt = b->pp.d.ntypes;
            cpu_destroy(b);
            return tb_error(c->path, 0, "particle %d is of species %d, but system.species has "
                                        "%d (0 .. %d)", i, t, nt, nt - 1), TB_EXIT_USAGE;
        }
    b->precision = c->solver.precision;
    b->edge = c->solver.tile;
    b->dt = c->integrator.dt;
    b->nthreads = omp_get_max_threads();
    b->cull = nbr_wanted(c, &b->pp);
    b->rank = tb_split_rank();
    b->nranks = tb_split_nranks();
    b->det = c->solver.deterministic;
    split_triplets(s->n, b->edge, b->rank, b->nranks, &b->w_lo, &b->w_hi);
    split_pairs(s->n, b->edge, b->rank, b->nranks, &b->q_lo, &b->q_hi);
    b->a_lo = 0;
    b->a_hi = s->n;
    b->red = malloc((3 * (size_t)s->n + 8) * sizeof *b->red);
    if (b->det)
        b->fix_thr = calloc(FIX_WORDS(s->n) * (size_t)b->nthreads, sizeof *b->fix_thr);
    if (b->cull)
        b->a_prefix = malloc(((size_t)s->n + 1) * sizeof *b->a_prefix);
    if (!b->red || (b->det && !b->fix_thr) || (b->cull && !b->a_prefix)) {
        cpu_destroy(b);
        return tb_error(NULL, 0, "out of host memory for the rank and fixed-point buffers");
    }
    if (b->pp.sw_on && !b->cull) {
        cpu_destroy(b);
        return tb_error(c->path, 0, "solver.cull: Stillinger-Weber (potential.sw) runs on the "
                                    "neighbour lists only (got false)"), TB_EXIT_USAGE;
    }
    if (b->cull) {
        b->hits_thr = calloc((size_t)b->nthreads, sizeof *b->hits_thr);
        b->slots_thr = calloc((size_t)b->nthreads, sizeof *b->slots_thr);
        if (nbr_list_init(&b->nl, s->n, &b->pp.d.box, nbr_radius(c, &b->pp), c->solver.skin) != 0) {
            cpu_destroy(b); /* reported */
            return -1;
        }
        b->nl.full = b->pp.sw_on; /* a centred body sees all its neighbours */
        if (!b->hits_thr || !b->slots_thr) {
            cpu_destroy(b);
            return tb_error(NULL, 0, "out of host memory for the neighbour lists");
        }
    } else if ((rc = cpu_plans(b, c)) != 0) {
        cpu_destroy(b);
        return rc;
    }
    if (b->precision == CFG_PREC_SINGLE)
        b->acc_f = malloc(n3 * b->nthreads * sizeof *b->acc_f);
    else
        b->acc_d = malloc(n3 * b->nthreads * sizeof *b->acc_d);
    if (b->precision != CFG_PREC_DOUBLE)
        b->x_f = malloc(n3 * sizeof *b->x_f);
    b->e_thr = calloc(2 * (size_t)b->nthreads, sizeof *b->e_thr);
    if (!b->cull && b->pp.atm_on)
        b->tscr = aligned_alloc(64, tile_simd_scratch(b->edge) * (size_t)b->nthreads);
    b->w_thr = calloc(8 * (size_t)b->nthreads, sizeof *b->w_thr);
    if ((!b->acc_f && !b->acc_d) || (b->precision != CFG_PREC_DOUBLE && !b->x_f) || !b->e_thr ||
        !b->w_thr || (!b->cull && b->pp.atm_on && !b->tscr)) {
        const int nthreads = b->nthreads;
        cpu_destroy(b);
        return tb_error(NULL, 0, "out of host memory for the CPU force buffers (%d threads)",
                        nthreads);
    }
    *out = b;
    return 0;
}

/* Energy of one triplet tile in the backend's precision; forces into thread buffer t, the
 * virial into w[6]. */
static double run_triplet_tile(backend *b, int t, int I, int J, int K, double *w)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    void *scr = b->tscr + tile_simd_scratch(b->edge) * (size_t)t;
    if (b->typed)
        switch (b->precision) {
        case CFG_PREC_DOUBLE:
            return tile_simd_triplets_typed_dd(&b->pp.d, b->s.type, b->s.pos, b->s.n, b->edge, I,
                                               J, K, b->acc_d + off, w, scr);
        case CFG_PREC_MIXED:
            return tile_simd_triplets_typed_fd(&b->pp.f, b->s.type, b->x_f, b->s.n, b->edge, I,
                                               J, K, b->acc_d + off, w, scr);
        default:
            return tile_simd_triplets_typed_ff(&b->pp.f, b->s.type, b->x_f, b->s.n, b->edge, I,
                                               J, K, b->acc_f + off, w, scr);
        }
    switch (b->precision) {
    case CFG_PREC_DOUBLE:
        return tile_simd_triplets_dd(&b->pp.d, b->s.pos, b->s.n, b->edge, I, J, K,
                                     b->acc_d + off, w, scr);
    case CFG_PREC_MIXED:
        return tile_simd_triplets_fd(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, K,
                                     b->acc_d + off, w, scr);
    default:
        return tile_simd_triplets_ff(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, K,
                                     b->acc_f + off, w, scr);
    }
}

static double run_pair_tile(backend *b, int t, int I, int J, double *w)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    const int *type = b->typed ? b->s.type : NULL;
    switch (b->precision) {
    case CFG_PREC_DOUBLE:
    case CFG_PREC_MIXED: /* mixed: float triplets, pairs in double (O(n^2) against O(n^3)) */
        return tile_pairs_dd(&b->pp.d, type, b->s.pos, b->s.n, b->edge, I, J, b->acc_d + off, w);
    default:
        return tile_pairs_ff(&b->pp.f, type, b->x_f, b->s.n, b->edge, I, J, b->acc_f + off, w);
    }
}

/* One triplet tile by the accumulation mode. */
static double do_triplet_tile(backend *b, int t, const map3d_cursor *cur)
{
    if (!b->det)
        return run_triplet_tile(b, t, cur->I, cur->J, cur->K, b->w_thr + 8 * t);
    double w[6] = {0, 0, 0, 0, 0, 0};
    const double e = run_triplet_tile(b, t, cur->I, cur->J, cur->K, w);
    const int T[3] = {cur->I, cur->J, cur->K};
    for (int q = 0; q < 3; q++)
        if (q == 0 || T[q] != T[q - 1])
            cpu_fix_flush(b, t, T[q] * b->edge, (T[q] + 1) * b->edge);
    cpu_fix_unit(b, t, e, 0.0, w);
    return 0.0;
}

/* The calling thread's share of every block of every launch of the triplet plan; tiles outside
 * this rank's range [w_lo, w_hi) are skipped (maps that do not enumerate omega). */
static double walk_triplet_blocks(backend *b, int t)
{
    double e = 0.0;
    for (int l = 0; l < b->p3.n_launch; l++) {
        const map3d_launch *L = &b->p3.launch[l];
        const long long gxy = (long long)L->gx * L->gy, nblk = gxy * L->gz;
#pragma omp for schedule(static, 1) nowait
        for (long long blk = 0; blk < nblk; blk++) {
            map3d_cursor cur;
            const unsigned bx = (unsigned)(blk % L->gx), by = (unsigned)(blk / L->gx % L->gy);
            if (!b->m3->first(L, bx, by, (unsigned)(blk / gxy), &cur))
                continue;
            do
                if (map3d_in_range(&cur, b->w_lo, b->w_hi))
                    e += do_triplet_tile(b, t, &cur);
            while (b->m3->next(L, &cur));
        }
    }
    return e;
}

static double walk_pair_blocks(backend *b, int t)
{
    double e = 0.0;
    for (int l = 0; l < b->p2.n_launch; l++) {
        const map2d_launch *L = &b->p2.launch[l];
        const long long nblk = (long long)L->gx * L->gy;
#pragma omp for schedule(static, 1) nowait
        for (long long blk = 0; blk < nblk; blk++) {
            map2d_cursor cur;
            if (!b->m2->first(L, (unsigned)(blk % L->gx), (unsigned)(blk / L->gx), &cur))
                continue;
            const long long w2 = map3d_tri(cur.J) + cur.I;
            if (w2 < b->q_lo || w2 >= b->q_hi)
                continue; /* another rank's pair tile */
            if (!b->det) {
                e += run_pair_tile(b, t, cur.I, cur.J, b->w_thr + 8 * t);
                continue;
            }
            double w[6] = {0, 0, 0, 0, 0, 0};
            const double ep = run_pair_tile(b, t, cur.I, cur.J, w);
            cpu_fix_flush(b, t, cur.I * b->edge, (cur.I + 1) * b->edge);
            if (cur.J != cur.I)
                cpu_fix_flush(b, t, cur.J * b->edge, (cur.J + 1) * b->edge);
            cpu_fix_unit(b, t, 0.0, ep, w);
        }
    }
    return e;
}

/* Scratch for anchors of up to cap entries in every thread; 0 or -1. Lists with no entry at
 * all (cap 0: a dilute gas, atoms farther apart than every cutoff) are a valid state, and an
 * anchor still writes its NBR_SIMD_PAD entries of padding (nbr_cpu.h), so the scratch is
 * allocated whenever there is none, whatever cap. */
static int nbr_scratch_fit(backend *b, int cap)
{
    if (b->scr && cap <= b->scr_cap)
        return 0;
    cap = cap + cap / 4 + NBR_TILE;
    /* each thread's block starts 64-byte aligned: NBR_SCR_REALS(st) SoA arrays of
     * nbr_simd_stride(cap) doubles (or floats, in the same room), then 2 cap particle indices
     * and, with several species, st entry species (nbr_cpu.h) */
    const size_t st = (size_t)nbr_simd_stride(cap);
    const size_t bytes = (NBR_SCR_REALS(st, b->typed) * sizeof(double) +
                          (2 * (size_t)cap + (b->typed ? st : 0)) * sizeof(int) + 63) &
                         ~(size_t)63;
    free(b->scr);
    b->scr = malloc(bytes * (size_t)b->nthreads);
    if (!b->scr) {
        b->scr_cap = 0;
        return tb_error(NULL, 0, "out of host memory for neighbour scratch (%d entries)", cap);
    }
    b->scr_bytes = bytes;
    b->scr_cap = cap;
    return 0;
}

/* One anchor in the backend's precision; s is the thread's scratch block. */
static double nbr_run_anchor(backend *b, int t, int i, double *ep, double vir[6], long long *h,
                             long long *slots)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    unsigned char *raw = (unsigned char *)b->scr + b->scr_bytes * (size_t)t;
    const int *row = nbr_list_row(&b->nl, i), cnt = b->nl.off[i + 1] - b->nl.off[i];
    const int cap = b->scr_cap;
    const size_t st = (size_t)nbr_simd_stride(cap);
    int *tix = (int *)(raw + NBR_SCR_REALS(st, b->typed) * sizeof(double));
    int *tt = b->typed ? tix + 2 * (size_t)cap : NULL;
    const int *type = b->typed ? b->s.type : NULL;
    if (b->pp.sw_on) { /* the centred body: legs' d in the reals, their forces after them */
        double *fq = (double *)raw + 4 * st, *lf = (double *)raw + 8 * st; /* lf: legs' factors */
        if (b->precision == CFG_PREC_DOUBLE)
            return sw_centre_dd(&b->pp, &b->pp.d, type, b->s.pos, i, row, cnt, (double *)raw, lf,
                                fq, tix, b->acc_d + off, ep, vir, h);
        if (b->precision == CFG_PREC_MIXED)
            return sw_centre_fd(&b->pp, &b->pp.f, type, b->s.pos, i, row, cnt, (float *)raw,
                                (float *)lf, fq, tix, b->acc_d + off, ep, vir, h);
        return sw_centre_ff(&b->pp, &b->pp.f, type, b->s.pos, i, row, cnt, (float *)raw,
                            (float *)lf, fq, tix, b->acc_f + off, ep, vir, h);
    }
    if (b->precision == CFG_PREC_DOUBLE) {
        nbr_scratch_dd s = {(double *)raw, (double *)raw + 4 * st, tix, cap, type,
                            (double *)raw + 8 * st, tt, {0}};
        return nbr_anchor_dd(&b->pp, &b->pp.d, b->s.pos, i, row, cnt, &s,
                             b->acc_d + off, ep, vir, h, slots);
    }
    if (b->precision == CFG_PREC_MIXED) {
        nbr_scratch_fd s = {(float *)raw, (float *)raw + 4 * st, tix, cap, type,
                            (float *)raw + 8 * st, tt, {0}};
        return nbr_anchor_fd(&b->pp, &b->pp.f, b->s.pos, i, row, cnt, &s,
                             b->acc_d + off, ep, vir, h, slots);
    }
    nbr_scratch_ff s = {(float *)raw, (float *)raw + 4 * st, tix, cap, type,
                        (float *)raw + 8 * st, tt, {0}};
    return nbr_anchor_ff(&b->pp, &b->pp.f, b->s.pos, i, row, cnt, &s, b->acc_f + off,
                         ep, vir, h, slots);
}

/* Deterministic mode: one anchor into thread t's fixed-point words. */
static void nbr_det_anchor(backend *b, int t, int i, long long *h, long long *sl)
{
    double ep = 0.0, vir[6] = {0, 0, 0, 0, 0, 0};
    const double et = nbr_run_anchor(b, t, i, &ep, vir, h, sl);
    const int *row = nbr_list_row(&b->nl, i);
    for (int q = 0; q < b->nl.off[i + 1] - b->nl.off[i]; q++) /* the anchor's partners */
        cpu_fix_flush(b, t, row[q], row[q] + 1);
    cpu_fix_flush(b, t, i, i + 1);
    cpu_fix_unit(b, t, et, ep, vir);
}

/* This rank's anchors for the lists just counted: a contiguous index range of equal work, the
 * work of anchor i taken as c (c + 1) + 1 for a row of c entries (its entry pairs and entries).
 * Cut before the rows are filled, so that a rank fills only its own (nbr_list_fill). */
static void nbr_share(backend *b)
{
    if (b->nranks == 1)
        return;
    b->a_prefix[0] = 0;
    for (int i = 0; i < b->s.n; i++) {
        const long long c = b->nl.off[i + 1] - b->nl.off[i];
        b->a_prefix[i + 1] = b->a_prefix[i] + c * (c + 1) + 1;
    }
    split_prefix(b->a_prefix, b->s.n, b->rank, b->nranks, &b->a_lo, &b->a_hi);
}

/* Rebuilds the lists when stale: every row counted, this rank's rows filled. 0 or -1. */
static int nbr_refresh(backend *b)
{
    if (!nbr_list_stale(&b->nl, b->s.pos))
        return 0;
    if (nbr_list_count(&b->nl, b->s.pos) != 0)
        return -1;
    nbr_share(b);
    return nbr_list_fill(&b->nl, b->s.pos, b->a_lo, b->a_hi);
}

/* Forces through the neighbour lists (nbr.h): rebuild when stale, then every anchor of this
 * rank's share. Anchors are dealt statically in index order, so the sums do not depend on the
 * lists' build. */
/* Whether this evaluation keeps the virial (virial_next). The CPU sums it anyway, a few
 * operations per pair; an evaluation that was not asked for it drops this rank's share, as the
 * GPU's kernel without the virial does, so that ranks which disagree on the steps of the
 * virial show it in the sums (tests/test_mpi.c) instead of only on GPUs. */
static int vir_wanted(backend *b)
{
    const int vir = backend_virial_due(&b->vir_countdown);
    b->vir_skip = !vir;
    b->tm.virials += b->timing && vir;
    return vir;
}

static int nbr_compute(backend *b)
{
    const int keep_vir = vir_wanted(b);
    double t0 = omp_get_wtime();
    if (nbr_refresh(b) != 0)
        return -1;
    if (b->timing)
        b->tm.lists += omp_get_wtime() - t0, t0 = omp_get_wtime();
    if (nbr_scratch_fit(b, b->nl.max_row) != 0)
        return -1;
    cpu_det_zero(b);
#pragma omp parallel num_threads(b->nthreads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        double et = 0.0, ep = 0.0, *vir = b->w_thr + 8 * t;
        long long h = 0, sl = 0;
        if (!b->det)
            cpu_zero_forces(b, t);
        memset(vir, 0, 6 * sizeof *vir);
#pragma omp for schedule(static, 16) nowait
        for (int i = b->a_lo; i < b->a_hi; i++) {
            if (b->det)
                nbr_det_anchor(b, t, i, &h, &sl);
            else
                et += nbr_run_anchor(b, t, i, &ep, vir, &h, &sl);
        }
        b->e_thr[2 * t] = et;
        b->e_thr[2 * t + 1] = ep;
        b->hits_thr[t] = h;
        b->slots_thr[t] = sl;
#pragma omp barrier
        if (b->det)
            cpu_fix_sum_threads(b, nt);
        else
            cpu_sum_forces(b, nt);
    }
    b->s.e_triplet = b->s.e_pair = 0.0;
    memset(b->s.virial, 0, sizeof b->s.virial);
    b->hits = b->slots = 0;
    for (int t = 0; t < b->nthreads; t++) {
        b->s.e_triplet += b->e_thr[2 * t];
        b->s.e_pair += b->e_thr[2 * t + 1];
        b->hits += b->hits_thr[t];
        b->slots += b->slots_thr[t];
        for (int x = 0; x < 6; x++)
            b->s.virial[x] += b->w_thr[8 * t + x];
    }
    if (b->timing)
        b->tm.force += omp_get_wtime() - t0, t0 = omp_get_wtime();
    if (cpu_count_reduce(b) != 0)
        return -1;
    if (!keep_vir)
        cpu_vir_drop(b);
    const int rc = b->det ? cpu_fix_reduce(b, b->s.virial) : cpu_rank_reduce(b, b->s.virial);
    if (b->timing)
        b->tm.sum += omp_get_wtime() - t0, b->tm.evals++;
    return rc;
}

static int cpu_compute(backend *b)
{
    const long long n3 = 3LL * b->s.n;
    if (tb_mpi_fault())
        return -1;
    if (b->cull)
        return nbr_compute(b);
    const int keep_vir = vir_wanted(b);
    const double t0 = omp_get_wtime();
    double t1;
    int rc;
    if (b->x_f)
        for (long long i = 0; i < n3; i++)
            b->x_f[i] = (float)b->s.pos[i];
    memset(b->w_thr, 0, 8 * (size_t)b->nthreads * sizeof *b->w_thr);
    cpu_det_zero(b);
#pragma omp parallel num_threads(b->nthreads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        if (!b->det)
            cpu_zero_forces(b, t);
        b->e_thr[2 * t] = b->pp.atm_on ? walk_triplet_blocks(b, t) : 0.0;
        b->e_thr[2 * t + 1] = b->pp.lj_on ? walk_pair_blocks(b, t) : 0.0;
#pragma omp barrier
        if (b->det)
            cpu_fix_sum_threads(b, nt);
        else
            cpu_sum_forces(b, nt);
    }
    t1 = omp_get_wtime();
    if (b->det) {
        if (!keep_vir)
            cpu_vir_drop(b);
        rc = cpu_fix_reduce(b, b->s.virial);
        goto timed;
    }
    b->s.e_triplet = b->s.e_pair = 0.0;
    memset(b->s.virial, 0, sizeof b->s.virial);
    for (int t = 0; t < b->nthreads; t++) {
        b->s.e_triplet += b->e_thr[2 * t];
        b->s.e_pair += b->e_thr[2 * t + 1];
        for (int c = 0; c < 6; c++)
            b->s.virial[c] += b->w_thr[8 * t + c];
    }
    if (!keep_vir)
        cpu_vir_drop(b);
    rc = cpu_rank_reduce(b, b->s.virial);
timed:
    if (b->timing) {
        b->tm.force += t1 - t0;
        b->tm.sum += omp_get_wtime() - t1;
        b->tm.evals++;
    }
    return rc;
}

static int cpu_advance(backend *b, long nsteps)
{
    for (long s = 0; s < nsteps; s++) {
        const double t0 = omp_get_wtime();
        cpu_kick_by(b, 0.5 * b->dt);
        cpu_drift_by(b, b->dt);
        const double t1 = omp_get_wtime();
        if (cpu_compute(b) != 0)
            return -1;
        const double t2 = omp_get_wtime();
        cpu_kick_by(b, 0.5 * b->dt);
        if (b->timing) {
            b->tm.integrate += (t1 - t0) + (omp_get_wtime() - t2);
            b->tm.steps++;
        }
    }
    return 0;
}

/* The energies and the virial of the last evaluation into s. */
static int cpu_scalars(backend *b, sim_state *s)
{
    if (b->vir_skip) { /* the last evaluation dropped the virial: again, with it (as the GPU) */
        b->vir_countdown = 0;
        if (cpu_compute(b) != 0)
            return -1;
    }
    s->e_pair = b->s.e_pair;
    s->e_triplet = b->s.e_triplet;
    memcpy(s->virial, b->s.virial, sizeof s->virial);
    return 0;
}

int cpu_results(backend *b, sim_state *s)
{
    if (cpu_scalars(b, s) != 0)
        return -1;
    memcpy(s->force, b->s.force, 3 * (size_t)b->s.n * sizeof *s->force);
    return 0;
}

/* thermo() (backend.h): the host's serial sums of the backend's own state, the bits of a
 * fetched copy's, without the copy. */
static int cpu_thermo(backend *b, sim_state *s, double kin[7])
{
    if (cpu_scalars(b, s) != 0)
        return -1;
    s->box = b->s.box;
    sim_kinetic_sums(&b->s, kin);
    return 0;
}

static int cpu_fetch(backend *b, sim_state *s)
{
    const size_t bytes = 3 * (size_t)b->s.n * sizeof *s->pos;
    if (cpu_results(b, s) != 0)
        return -1;
    memcpy(s->pos, b->s.pos, bytes);
    memcpy(s->vel, b->s.vel, bytes);
    s->box = b->s.box;
    return 0;
}

static int cpu_virial_next(backend *b, long k)
{
    b->vir_countdown = k > 0 ? k : 0; /* vir_wanted */
    return 0;
}

static int cpu_info(backend *b, backend_info *out, int counting)
{
    /* the CPU always counts (counting & 1) */
    memset(out, 0, sizeof *out);
    out->cull = b->cull;
    if (b->cull) {
        out->builds = b->nl.builds;
        out->entries = b->nl.off ? b->nl.off[b->nl.n] : 0;
        out->max_row = b->nl.max_row;
        out->slots = b->slots;
        out->hits = b->hits;
    }
    out->times = b->tm;
    if (b->cull) { /* this rank's anchors (index order) and their entries */
        out->times.units = b->a_hi - b->a_lo;
        out->times.work = b->nl.off ? (double)(b->nl.off[b->a_hi] - b->nl.off[b->a_lo]) : 0.0;
        out->times.held = b->nl.off ? (double)(b->nl.off[b->nl.hi] - b->nl.off[b->nl.lo]) : 0.0;
    } else if (b->pp.atm_on) { /* its triplet tiles and their triplets (split.h) */
        out->times.units = b->w_hi - b->w_lo;
        out->times.work = (double)(split_triplets_before(b->s.n, b->edge, b->w_hi) -
                                   split_triplets_before(b->s.n, b->edge, b->w_lo));
    }
    if (counting & BACKEND_TIMERS) {
        memset(&b->tm, 0, sizeof b->tm);
        b->timing = 1;
    }
    if (counting & BACKEND_TIMERS_OFF)
        b->timing = 0;
    return 0;
}

const backend_ops cpu_backend_ops = {"cpu",     cpu_create, cpu_compute, cpu_advance, cpu_fetch,
                                     cpu_destroy, cpu_kick,  cpu_drift,   cpu_scale,   cpu_ostep,
                                     cpu_kinetic, cpu_info, cpu_virial_next, cpu_check_finite,
                                     cpu_put, cpu_rdf,
                                     cpu_virial,  cpu_kinetic_axes, cpu_rescale,
                                     NULL /* check_finite_late: every check is at once */,
                                     cpu_results, NULL /* mtk: the host runs it (integrate.c) */,
                                     NULL, NULL /* host_alloc, host_free: none */,
                                     NULL /* compute_results: compute and results */,
                                     cpu_thermo};
