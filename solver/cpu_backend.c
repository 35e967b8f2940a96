/* cpu_backend.c — the CPU backend: OpenMP over the blocks of the same maps the GPU
 * launches, each block running the shared tile bodies (tile_cpu.h over triplet.h).
 *
 * Each thread accumulates forces into its own buffer; the buffers are then summed per
 * particle in thread order, and the per-thread energies in thread order, so a run is
 * bitwise repeatable for a given number of threads (OMP_NUM_THREADS). Blocks are dealt
 * out statically and cyclically (chunks of 1): every thread sees discarded and working
 * blocks alike, even when a map launches only a few dozen blocks.
 *
 * Precision: double (double arithmetic and sums); mixed (float arithmetic per triplet,
 * partial sums over one row of k in float, everything else in double); single (float
 * arithmetic and float force buffers). */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "../maps3d/map2d.h"
#include "../maps3d/map3d.h"
#include "backend.h"
#include "check.h"
#include "pot.h"

#define TB_REAL double
#define TB_ACC double
#define TB_NAME(x) x##_d
#define TB_TNAME(x) x##_dd
#include "tile_cpu.h"
#undef TB_REAL
#undef TB_ACC
#undef TB_NAME
#undef TB_TNAME

#define TB_REAL float
#define TB_ACC double
#define TB_NAME(x) x##_f
#define TB_TNAME(x) x##_fd
#include "tile_cpu.h"
#undef TB_ACC
#undef TB_TNAME

#define TB_ACC float
#define TB_TNAME(x) x##_ff
#include "tile_cpu.h"
#undef TB_REAL
#undef TB_ACC
#undef TB_NAME
#undef TB_TNAME

struct backend {
    sim_state s; /* the backend's own copy of the state */
    pot_params pp;
    int precision; /* enum cfg_precision */
    int edge;      /* tile edge rho */
    int nthreads;
    double dt;
    const map3d_type *m3;
    const map2d_type *m2;
    map3d_plan p3;
    map2d_plan p2;
    double *acc_d;  /* nthreads * 3n force buffers (double, mixed) */
    float *acc_f;   /* nthreads * 3n force buffers (single) */
    float *x_f;     /* positions in float (mixed, single) */
    double *e_thr;  /* 2 * nthreads energies: triplet, pair */
};

static void cpu_destroy(backend *b)
{
    if (!b)
        return;
    map3d_plan_free(&b->p3);
    sim_state_free(&b->s);
    free(b->acc_d);
    free(b->acc_f);
    free(b->x_f);
    free(b->e_thr);
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
    if (b->pp.atm_on && map3d_plan_make(b->m3, nb, &o3, &b->p3, err, sizeof err) != 0) {
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
    b->s.mass = s->mass;
    b->s.box = s->box;
    memcpy(b->s.pos, s->pos, n3 * sizeof *s->pos);
    memcpy(b->s.vel, s->vel, n3 * sizeof *s->vel);
    memcpy(b->s.force, s->force, n3 * sizeof *s->force);
    b->s.e_pair = s->e_pair;
    b->s.e_triplet = s->e_triplet;
    pot_params_init(&b->pp, c);
    b->precision = c->solver.precision;
    b->edge = c->solver.tile;
    b->dt = c->integrator.dt;
    b->nthreads = omp_get_max_threads();
    if ((rc = cpu_plans(b, c)) != 0) {
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
    if ((!b->acc_f && !b->acc_d) || (b->precision != CFG_PREC_DOUBLE && !b->x_f) || !b->e_thr) {
        const int nthreads = b->nthreads;
        cpu_destroy(b);
        return tb_error(NULL, 0, "out of host memory for the CPU force buffers (%d threads)",
                        nthreads);
    }
    *out = b;
    return 0;
}

/* Energy of one triplet tile in the backend's precision; forces into thread buffer t. */
static double run_triplet_tile(backend *b, int t, int I, int J, int K)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    switch (b->precision) {
    case CFG_PREC_DOUBLE:
        return tile_triplets_dd(&b->pp.d, b->s.pos, b->s.n, b->edge, I, J, K, b->acc_d + off);
    case CFG_PREC_MIXED:
        return tile_triplets_fd(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, K, b->acc_d + off);
    default:
        return tile_triplets_ff(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, K, b->acc_f + off);
    }
}

static double run_pair_tile(backend *b, int t, int I, int J)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    switch (b->precision) {
    case CFG_PREC_DOUBLE:
        return tile_pairs_dd(&b->pp.d, b->s.pos, b->s.n, b->edge, I, J, b->acc_d + off);
    case CFG_PREC_MIXED:
        return tile_pairs_fd(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, b->acc_d + off);
    default:
        return tile_pairs_ff(&b->pp.f, b->x_f, b->s.n, b->edge, I, J, b->acc_f + off);
    }
}

/* The calling thread's share of every block of every launch of the triplet plan. */
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
                e += run_triplet_tile(b, t, cur.I, cur.J, cur.K);
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
            if (b->m2->first(L, (unsigned)(blk % L->gx), (unsigned)(blk / L->gx), &cur))
                e += run_pair_tile(b, t, cur.I, cur.J);
        }
    }
    return e;
}

static int cpu_compute(backend *b)
{
    const long long n3 = 3LL * b->s.n;
    if (b->x_f)
        for (long long i = 0; i < n3; i++)
            b->x_f[i] = (float)b->s.pos[i];
#pragma omp parallel num_threads(b->nthreads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        if (b->acc_d)
            memset(b->acc_d + n3 * t, 0, (size_t)n3 * sizeof *b->acc_d);
        else
            memset(b->acc_f + n3 * t, 0, (size_t)n3 * sizeof *b->acc_f);
        b->e_thr[2 * t] = b->pp.atm_on ? walk_triplet_blocks(b, t) : 0.0;
        b->e_thr[2 * t + 1] = b->pp.lj_on ? walk_pair_blocks(b, t) : 0.0;
#pragma omp barrier
#pragma omp for schedule(static)
        for (long long i = 0; i < n3; i++) {
            if (b->acc_d) {
                double sum = 0.0;
                for (int u = 0; u < nt; u++)
                    sum += b->acc_d[n3 * u + i];
                b->s.force[i] = sum;
            } else {
                float sum = 0.0f;
                for (int u = 0; u < nt; u++)
                    sum += b->acc_f[n3 * u + i];
                b->s.force[i] = (double)sum;
            }
        }
    }
    b->s.e_triplet = b->s.e_pair = 0.0;
    for (int t = 0; t < b->nthreads; t++) {
        b->s.e_triplet += b->e_thr[2 * t];
        b->s.e_pair += b->e_thr[2 * t + 1];
    }
    return 0;
}

/* v += (dt/2m) F */
static void half_kick(backend *b)
{
    const double h = 0.5 * b->dt / b->s.mass;
    const long long n3 = 3LL * b->s.n;
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
    for (long long i = 0; i < n3; i++)
        b->s.vel[i] += h * b->s.force[i];
}

/* x += dt v, wrapped into [0, L) in a periodic box. */
static void drift(backend *b)
{
    const double dt = b->dt, L = b->s.box;
    const long long n3 = 3LL * b->s.n;
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
    for (long long i = 0; i < n3; i++) {
        double x = b->s.pos[i] + dt * b->s.vel[i];
        if (L > 0.0)
            x -= L * floor(x / L);
        b->s.pos[i] = x;
    }
}

static int cpu_advance(backend *b, long nsteps)
{
    for (long s = 0; s < nsteps; s++) {
        half_kick(b);
        drift(b);
        if (cpu_compute(b) != 0)
            return -1;
        half_kick(b);
    }
    return 0;
}

static int cpu_fetch(backend *b, sim_state *s)
{
    const size_t bytes = 3 * (size_t)b->s.n * sizeof *s->pos;
    memcpy(s->pos, b->s.pos, bytes);
    memcpy(s->vel, b->s.vel, bytes);
    memcpy(s->force, b->s.force, bytes);
    s->e_pair = b->s.e_pair;
    s->e_triplet = b->s.e_triplet;
    return 0;
}

static int cpu_check_finite(backend *b, long step, tb_nonfinite *nf)
{
    sim_find_nonfinite(&b->s, nf);
    if (nf->step >= 0)
        nf->step = step;
    return 0;
}

const backend_ops cpu_backend_ops = {"cpu", cpu_create, cpu_compute, cpu_advance, cpu_fetch,
                                     cpu_destroy, cpu_check_finite};
