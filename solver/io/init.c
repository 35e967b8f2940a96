/* init.c — the initial state (init.h): sim_init's dispatch to the generators (init_random.c,
 * init_lattice.c) or a file (xyz.c, lammps_data.c), the files' boxes, the placement into the box
 * and the Maxwell–Boltzmann velocities.
 *
 * Random numbers: GSL mt19937. Positions use the seed itself (its two 32-bit halves
 *   xor-ed together, since mt19937 takes 32 bits: the identity below 2^32); velocities use
 *   a stream seeded from a hash of the seed, so they are not a function of the position
 *   draws. Everything runs in one fixed order: the same seed gives the same bits. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "common/check.h"
#include "common/phase.h"
#include "common/simd.h"
#include "solver/box.h"
#include "config/units.h"
#include "solver/io/init.h"
#include "solver/io/init_gen.h"
#include "solver/io/lammps_data.h"
#include "solver/io/xyz.h"

unsigned long init_seed32(unsigned long long x)
{
    return (unsigned long)((x ^ (x >> 32)) & 0xffffffffULL);
}

unsigned long long init_splitmix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

gsl_rng *init_rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r)
        gsl_rng_set(r, seed);
    return r;
}

int sim_check_cutoffs(const sim_state *s, const sim_config *c, const char *where,
                      const char *setting, const char *whose)
{
    const double half = box_half_width_d(&s->box);
    if (!(half > 0))
        return 0;
    if (c->potential.lj.enabled && cfg_lj_cutoff_max(c) > half)
        return tb_error(where, 0, "%s: %s %.17g exceeds half the smallest periodic width of %s "
                                  "(%.17g)", setting,
                        c->potential.lj.n_pairs > 0 ? "a cutoff of potential.lj.pairs"
                                                    : "potential.lj.cutoff",
                        cfg_lj_cutoff_max(c), whose, half);
    if (c->potential.atm.cutoff > half)
        return tb_error(where, 0, "%s: potential.atm.cutoff %.17g exceeds half the smallest "
                                  "periodic width of %s (%.17g)", setting,
                        c->potential.atm.cutoff, whose, half);
    return 0;
}

/* A file's box against the configured cutoffs. */
static int check_file_cutoffs(const sim_state *s, const sim_config *c)
{
    return sim_check_cutoffs(s, c, c->system.init.file, "system.init.file", "the file's box");
}

/* s allocated for c's particles, of c's species, in c's box. */
static int init_allocated(sim_state *s, const sim_config *c)
{
    const int n = c->system.particles;
    const tb_box_d box = cfg_box(c);
    int rc = 0;
    if (n < 1)
        rc = tb_error(NULL, 0, "system.particles must be >= 1 (got %d)", n);
    else if (!(c->system.mass > 0))
        rc = tb_error(NULL, 0, "system.mass must be > 0 (got %g)", c->system.mass);
    for (int a = 0; a < 3 && rc == 0; a++)
        if ((box.pbc >> a & 1) && !(box.l[a] > 0))
            rc = tb_error(NULL, 0, "system.box must be > 0 along a periodic axis (got %g along "
                                   "%c)", box.l[a], 'x' + a);
    if (rc != 0)
        return TB_EXIT_USAGE;
    if (sim_state_alloc(s, n) != 0)
        return -1;
    sim_set_species(s, c);
    s->box = box;
    return 0;
}

/* The box of an XYZ state: system.box when given (the frame's Lattice unused); else the
 * frame's cell (Lattice, Origin, pbc), whose periodicity must be system.boundary's when that
 * is given, checked against the cutoffs; else open boundaries, which system.boundary must
 * then allow. */
static int xyz_box(sim_state *s, const sim_config *c, int has_cell)
{
    int per[3];
    const char *file = c->system.init.file;
    cfg_periodic(c, per);
    if (c->system.box_group || c->system.box > 0) {
        s->box = cfg_box(c);
        return 0;
    }
    if (!has_cell) {
        if (per[0] || per[1] || per[2]) {
            tb_error(file, 2, "system.init.file: the frame has no periodic Lattice, and "
                              "system.boundary = \"%s\" needs a box: give system.box or a "
                              "Lattice with pbc", cfg_boundary_name(c->system.boundary));
            return TB_EXIT_USAGE;
        }
        return 0;
    }
    if (c->system.boundary_given && (unsigned)s->box.pbc != ((unsigned)per[0] | (unsigned)per[1] << 1 |
                                                             (unsigned)per[2] << 2)) {
        tb_error(file, 2, "system.init.file: the frame's pbc=\"%c %c %c\" is not "
                          "system.boundary's (%c%c%c)", s->box.pbc & 1 ? 'T' : 'F',
                 s->box.pbc & 2 ? 'T' : 'F', s->box.pbc & 4 ? 'T' : 'F', per[0] ? 'p' : 'f',
                 per[1] ? 'p' : 'f', per[2] ? 'p' : 'f');
        return TB_EXIT_USAGE;
    }
    return check_file_cutoffs(s, c) != 0 ? TB_EXIT_USAGE : 0;
}

/* The particles of each species (system.init.composition, fractions summing to 1): first
 * floor(f_t n) each, then one more each to the species of the largest remainders
 * f_t n - floor(f_t n) until n are given, ties to the earlier species (Hamilton's rule). */
void init_species_counts(const double *f, int nt, int n, int *count)
{
    double rem[TB_TYPES_MAX];
    int given = 0;
    for (int t = 0; t < nt; t++) {
        const double x = f[t] * n;
        count[t] = (int)floor(x);
        rem[t] = x - count[t];
        given += count[t];
    }
    while (given < n) {
        int best = 0;
        for (int t = 1; t < nt; t++)
            if (rem[t] > rem[best])
                best = t;
        count[best]++;
        rem[best] = -1.0; /* one extra particle per species at most */
        given++;
    }
}

/* The species of a generated state: the counts of init_species_counts in species order,
 * then shuffled over the sites (GSL's Fisher–Yates, gsl_ran_shuffle) by a stream of its own
 * seeded from a hash of system.seed, so the positions are those of one species. */
static int init_species(sim_state *s, const sim_config *c)
{
    const int nt = c->system.init.n_composition;
    int count[TB_TYPES_MAX], i = 0;
    gsl_rng *rng;
    if (nt < 2)
        return 0; /* all species 0, as allocated */
    init_species_counts(c->system.init.composition, nt, s->n, count);
    for (int t = 0; t < nt; t++)
        for (int k = 0; k < count[t]; k++)
            s->type[i++] = t;
    if (!(rng = init_rng_new(init_seed32(init_splitmix64(c->system.seed ^ 0x73706563696573ULL)))))
        return tb_error(NULL, 0, "out of host memory for the random number generator");
    gsl_ran_shuffle(rng, s->type, (size_t)s->n, sizeof *s->type);
    gsl_rng_free(rng);
    return 0;
}

/* A generated state (random, lattice) of c's particles in c's box: a cluster with open
 * boundaries, else the box (an open axis: its given extent). */
static int init_generated(sim_state *s, const sim_config *c)
{
    int rc;
    if ((rc = init_allocated(s, c)) != 0)
        return rc;
    for (int a = 0; a < 3; a++)
        if (s->box.pbc && !(s->box.l[a] > 0)) {
            tb_error(c->path[0] ? c->path : NULL, 0, "system.box: system.init.type = \"%s\" "
                     "needs an extent along the open axis %c of this box (got %g)",
                     cfg_init_name(c->system.init.type), 'x' + a, s->box.l[a]);
            return TB_EXIT_USAGE;
        }
    if (c->system.init.type == CFG_INIT_RANDOM) {
        rc = c->system.init.placement == CFG_PLACE_PARALLEL ? init_random_parallel(s, c)
                                                            : init_random(s, c);
    } else if (s->box.pbc) {
        const double sigma = c->potential.lj.enabled && c->potential.lj.sigma > 0
                                 ? c->potential.lj.sigma
                                 : 1.0;
        init_lattice_periodic(s, sigma);
    } else if (!(c->system.init.min_distance > 0)) {
        tb_error(NULL, 0, "system.init.min_distance must be > 0 for an fcc lattice (got %g)",
                 c->system.init.min_distance);
        rc = TB_EXIT_USAGE;
    } else {
        rc = init_lattice_open(s, c->system.init.min_distance);
    }
    return rc != 0 ? rc : init_species(s, c);
}

int sim_init(sim_state *s, const sim_config *c)
{
    int rc = 0, has_vel = 0, has_cell = 0;

    memset(s, 0, sizeof *s);
    switch (c->system.init.type) {
    case CFG_INIT_RANDOM:
    case CFG_INIT_LATTICE:
        rc = init_generated(s, c);
        break;
    case CFG_INIT_XYZ:
        rc = xyz_read(c->system.init.file, "system.init.file", c, s, &has_vel, &has_cell);
        if (rc == 0)
            rc = xyz_box(s, c, has_cell);
        break;
    case CFG_INIT_LAMMPS:
        rc = lmp_data_read(c->system.init.file, "system.init.file", c, s, &has_vel);
        if (rc == 0 && check_file_cutoffs(s, c) != 0)
            rc = TB_EXIT_USAGE;
        break;
    default:
        tb_error(NULL, 0, "system.init.type: unknown initial state %d", c->system.init.type);
        rc = TB_EXIT_USAGE;
    }
    if (rc != 0) {
        sim_state_free(s);
        return rc;
    }
    tb_phase("init_positions");
    sim_place(s);
    if ((rc = sim_check_extent(s, c->solver.precision, c->path)) != 0) {
        sim_state_free(s);
        return rc;
    }
    /* An explicit temperature wins over velocities read from the file (docs/config.md). */
    if (has_vel && c->system.init.temperature_set)
        tb_notice("system.init.temperature = %g replaces the velocities read from %s",
                  c->system.init.temperature, c->system.init.file);
    if (!has_vel || c->system.init.temperature_set)
        sim_init_velocities(s, c->system.init.temperature, c->system.seed);
    tb_phase("init_velocities");
    return 0;
}

/* The bounding box of the positions: lo[3], hi[3]. */
static void bounding_box(const sim_state *s, double lo[3], double hi[3])
{
    for (int d = 0; d < 3; d++)
        lo[d] = hi[d] = s->n > 0 ? s->pos[d] : 0.0;
    for (long i = 0; i < 3L * s->n; i++) {
        const int d = (int)(i % 3);
        if (s->pos[i] < lo[d])
            lo[d] = s->pos[i];
        if (s->pos[i] > hi[d])
            hi[d] = s->pos[i];
    }
}

enum { PLACE_THREADED = 8192, PLACE_BLOCK = 256 };

/* place's loop body for particle i of src into dst (see there); the first non-finite
 * coordinate's index into *bad when it is smaller. */
static inline void place_one(const tb_box_d *box, const double lim[3], const double hi[3],
                             int quick, int check, const double *y, double *x, long i, long *bad)
{
    if (check && !(isfinite(y[0]) & isfinite(y[1]) & isfinite(y[2]))) {
        const long k = 3L * i + (isfinite(y[0]) ? isfinite(y[1]) ? 2 : 1 : 0);
        *bad = k < *bad ? k : *bad;
        return;
    }
    const double t0 = y[0] - box->lo[0], t1 = y[1] - box->lo[1], t2 = y[2] - box->lo[2];
    if (quick & (t0 >= 0) & (t0 < lim[0]) & (t1 >= 0) & (t1 < lim[1]) & (t2 >= 0) & (t2 < lim[2])) {
        x[0] = t0 + box->lo[0];
        x[1] = t1 + box->lo[1];
        x[2] = t2 + box->lo[2];
    } else {
        if (x != y)
            memcpy(x, y, 3 * sizeof *x);
        box_wrap_d(box, x);
    }
    for (int a = 0; a < 3 && !box->tilted; a++)
        if (box->pbc >> a & 1 && (x[a] >= hi[a] || x[a] < box->lo[a]))
            x[a] = box->lo[a];
}

/* The quick case of a whole block of m particles from src into another array dst, in one
 * loop the compiler vectorizes (the coordinates as a flat array against lo, lim, hi repeated
 * per particle): x = (y - lo) + lo where every coordinate is finite, inside [0, lim) after
 * the shift and lands in [lo, hi); 0 when one is not, and the block is placed again by
 * place_one, which gives every other particle the same bits (the library's set_positions pays
 * this pass on every call: place_one alone is scalar, 0.13 ms at n = 32768). */
TB_SIMD_CLONES static int place_block_quick(const double *restrict y, double *restrict x, int m,
                             const double *restrict lo3, const double *restrict lim3,
                             const double *restrict hi3)
{
    /* the coordinates that are not so, counted (exactly) in doubles, which vectorize; eight
     * counts side by side: one would be a chain of dependent additions */
    double out[8] = {0};
    const long K = 3L * m;
    long k = 0;
    for (; k + 8 <= K; k += 8)
        for (int j = 0; j < 8; j++) {
            const double t = y[k + j] - lo3[k + j], v = t + lo3[k + j];
            out[j] += ((t >= 0.0) & (t < lim3[k + j]) & (v >= lo3[k + j]) & (v < hi3[k + j])) ? 0.0 : 1.0;
            x[k + j] = v;
        }
    for (; k < K; k++) {
        const double t = y[k] - lo3[k], v = t + lo3[k];
        out[0] += ((t >= 0.0) & (t < lim3[k]) & (v >= lo3[k]) & (v < hi3[k])) ? 0.0 : 1.0;
        x[k] = v;
    }
    double all = 0.0;
    for (int j = 0; j < 8; j++)
        all += out[j];
    return all == 0.0;
}

/* sim_place of src into dst (the same array or another): the first non-finite coordinate's
 * index when check asks (dst then partly written), else -1; keep (not NULL): src copied into
 * it as it is, each block right after its placement, while it is in the cache. */
static long place(sim_state *s, const double *src, double *dst, int check, double *keep)
{
    const tb_box_d box = s->box;
    if (box_periodic_d(&box)) {
        /* In an orthorhombic box periodic along every axis, t = x - lo in [0, l (1 - 2^-50))
         * has t / l < 1 after rounding, floor 0, and box_wrap's (t - l floor(t / l)) + lo is
         * t + lo: the same bits without the division and the floor (the library's
         * set_positions pays this loop on every call: 2.6x faster at n = 32768). Other
         * positions and boxes go through box_wrap; tests/test_box.c holds the two to the same
         * bits. Then rounding can land on the far face itself: clamped to lo. In a tilted box a
         * Cartesian coordinate outside [lo, lo + l) is no sign of that, and the minimum image
         * takes a fraction a hair off [0, 1) as it is. From another array, blocks of
         * PLACE_BLOCK particles go through place_block_quick first. */
        double lim[3], hi[3];
        for (int a = 0; a < 3; a++) {
            lim[a] = box.l[a] * (1.0 - 0x1p-50);
            hi[a] = box.lo[a] + box.l[a];
        }
        const int quick = !box.tilted && (box.pbc & 7) == 7;
        double lo3[3 * PLACE_BLOCK], lim3[3 * PLACE_BLOCK], hi3[3 * PLACE_BLOCK];
        for (int k = 0; quick && k < 3 * PLACE_BLOCK; k++) {
            lo3[k] = box.lo[k % 3];
            lim3[k] = lim[k % 3];
            hi3[k] = hi[k % 3];
        }
        const int blocks = quick && dst != src;
        const long nb = (s->n + PLACE_BLOCK - 1) / PLACE_BLOCK;
        long bad = LONG_MAX; /* the first non-finite coordinate: the least over the threads */
        /* the library's pass on OpenMP's threads from PLACE_THREADED particles (each particle
         * alone: the same bits on any number of threads; sim_host_threads: a few) */
#pragma omp parallel for schedule(static) reduction(min : bad) num_threads(sim_host_threads()) \
    if (check && s->n >= PLACE_THREADED)
        for (long q = 0; q < nb; q++) {
            const long i0 = q * PLACE_BLOCK, i1 = i0 + PLACE_BLOCK < s->n ? i0 + PLACE_BLOCK : s->n;
            if (!blocks || !place_block_quick(src + 3 * i0, dst + 3 * i0, (int)(i1 - i0), lo3, lim3, hi3))
                for (long i = i0; i < i1; i++)
                    place_one(&box, lim, hi, quick, check, src + 3 * i, dst + 3 * i, i, &bad);
            if (keep)
                memcpy(keep + 3 * i0, src + 3 * i0, 3 * (size_t)(i1 - i0) * sizeof *keep);
        }
        return bad == LONG_MAX ? -1 : bad;
    }
    if (keep)
        memcpy(keep, src, 3 * (size_t)s->n * sizeof *keep);
    for (long i = 0; check && i < 3L * s->n; i++)
        if (!isfinite(src[i]))
            return i;
    if (dst != src)
        memcpy(dst, src, 3 * (size_t)s->n * sizeof *dst);
    double lo[3], hi[3], *held = s->pos;
    s->pos = dst;
    bounding_box(s, lo, hi);
    for (int d = 0; d < 3; d++) {
        if (lo[d] <= 0 && hi[d] >= 0)
            continue; /* the origin is inside: coordinates are no larger than the extent */
        const double c = 0.5 * (lo[d] + hi[d]);
        for (int i = 0; i < s->n; i++)
            s->pos[3 * i + d] -= c;
    }
    s->pos = held;
    return -1;
}

void sim_place(sim_state *s)
{
    place(s, s->pos, s->pos, 0, NULL);
}

long sim_place_from(sim_state *s, const double *src, double *dst, double *keep)
{
    return place(s, src, dst, 1, keep);
}

int sim_check_extent(const sim_state *s, int precision, const char *where)
{
    double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, ext = 0.0;
    if (precision == CFG_PREC_DOUBLE)
        return 0;
    if ((s->box.pbc & 7) != 7) /* the positions matter only along an open axis */
        bounding_box(s, lo, hi);
    for (int d = 0; d < 3; d++) {
        const double e = s->box.pbc >> d & 1 ? s->box.l[d] : hi[d] - lo[d];
        if (e > ext)
            ext = e;
    }
    if (ext > SIM_FLOAT_EXTENT_MAX) {
        tb_error(where, 0, "the system extends over %g sigma, more than the %g sigma that "
                           "solver.precision = \"%s\" can resolve (float): use "
                           "solver.precision = \"double\"", ext, SIM_FLOAT_EXTENT_MAX,
                 cfg_precision_name(precision));
        return TB_EXIT_USAGE;
    }
    return 0;
}

void sim_init_velocities(sim_state *s, double T, unsigned long seed)
{
    const long n3 = 3L * s->n;
    const double kb = units_of(s->units)->boltz;
    double vcm[3] = {0.0, 0.0, 0.0}, wsum = 0.0, t_now, scale;
    gsl_rng *rng;

    memset(s->vel, 0, (size_t)n3 * sizeof *s->vel);
    if (!(T > 0) || s->n < 2)
        return;
    /* No memory for the generator leaves zero velocities and says so; the run is still
     * well defined (this function returns nothing to keep its callers simple). */
    if (!(rng = init_rng_new(init_seed32(init_splitmix64(seed ^ 0x76656c6f63697479ULL))))) {
        tb_error(NULL, 0, "out of host memory for the random number generator: zero velocities");
        return;
    }
    for (long i = 0; i < n3; i++)
        s->vel[i] = gsl_ran_gaussian(rng, sqrt(kb * T / sim_mass(s, (int)(i / 3))));
    gsl_rng_free(rng);
    /* The centre-of-mass velocity, weights m_i / m_0: exactly 1 with one species, so the
     * sum and the division by n are as before species. */
    for (long i = 0; i < n3; i++) {
        const double w = sim_mass(s, (int)(i / 3)) / s->mass[0];
        vcm[i % 3] += w * s->vel[i];
        wsum += i % 3 == 0 ? w : 0.0;
    }
    for (int d = 0; d < 3; d++)
        vcm[d] /= wsum;
    for (long i = 0; i < n3; i++)
        s->vel[i] -= vcm[i % 3];
    t_now = sim_temperature(s);
    if (!(t_now > 0))
        return;
    scale = sqrt(T / t_now);
    for (long i = 0; i < n3; i++)
        s->vel[i] *= scale;
}