/* test_nbr_simd.c — the CPU backend's vectorized anchor of the neighbour-list path
 * (solver/cpu/nbr_cpu.h's nbr_anchor around nbr_simd_triangle, solver/cpu/nbr_simd_body.h)
 * against the same anchor around the scalar triangle it replaced (nbr_anchor_scalar, compiled
 * here only, TB_NBR_SCALAR_TRIPLETS), anchor by anchor, in double, mixed and single precision.
 *
 * The cases put the vector loop's edges under test: periodic liquids with the ATM cutoff above
 * L/4 (up to near L/2: anchors of several tiles of entries, off-diagonal and clipped tiles),
 * one with cutoff_triple (the lane mask drops triplets by both tests), one without LJ, and an
 * open cluster with a cutoff; the anchors' ATM entry counts range widely and most are not a
 * multiple of the lane count (checked); two species (nbr_simd_triangle_typed; the scalar
 * triangle takes each triplet's nu, one species triplet of nu 0 does not count). Each anchor's
 * row is every other particle (nbr_entries filters it as the lists' rows are filtered). The
 * scratch is filled with NaN first (the anchor must not read what it did not write), and the
 * vector pass is run twice: the same bits. The vectorized anchor takes pot_atm_list_v and its
 * energy from the forces (Euler), the scalar one nbr_atm's energy per triplet: the energies
 * compare two formulations.
 *
 * Errors: energies relative to the scalar energy, also per anchor (max_i |dE_i| / max_i |E_i|);
 * forces max_m |dF_m| / max_m |F_m|; virial max_c |dW_c| / max_c |W_c|; the hit and slot counts
 * exactly, per anchor; every force and anchor energy finite. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "maps3d/lambda2d.h"
#include "maps3d/map3d.h"
#include "solver/cpu/nbr_simd.h"
#include "solver/io/init.h"
#include "solver/physics/nbr.h"
#include "solver/physics/pot.h"
#include "tests/tb_system.h"
#include "tests/tb_test.h"

#define TB_NBR_SCALAR_TRIPLETS
#define TB_CPU_TEMPLATE "solver/cpu/nbr_cpu.h"
#include "solver/cpu/cpu_instances.h"

enum { PREC_D, PREC_MIXED, PREC_SINGLE };
static const char *prec_name[] = {"double", "mixed", "single"};

/* The sums of one pass over every anchor. */
typedef struct {
    double e_trip, e_pair, w[6];
    double *f;         /* [3n] */
    double *ea;        /* [n] per anchor: its triplet energy */
    long long *hits;   /* [n] per anchor */
    long long *slots;  /* [n] per anchor */
} sums;

/* One pass of every anchor of s in precision `prec`, through the scalar triangle or the
 * vectorized one, into r. */
static void run(const pot_params *pp, const sim_state *s, int prec, int scalar, sums *r)
{
    const int n = s->n, cap = n, st = nbr_simd_stride(cap);
    const size_t nr = (8 + TB_TYPES_MAX) * (size_t)st; /* d, v, then nu per species */
    int *row = malloc((size_t)n * sizeof *row), *tix = malloc(2 * (size_t)cap * sizeof *tix);
    int *tt = malloc((size_t)st * sizeof *tt);
    const int *type = pp->d.ntypes > 1 ? s->type : NULL;
    double *scr = aligned_alloc(64, nr * sizeof(double));
    float *ff = calloc(3 * (size_t)n, sizeof *ff);
    for (size_t q = 0; q < nr; q++)
        scr[q] = NAN; /* as floats too: a NaN double is two NaN-or-garbage floats, never 0 */
    if (prec != PREC_D)
        for (size_t q = 0; q < nr; q++)
            ((float *)scr)[q] = NAN;
    memset(r->f, 0, 3 * (size_t)n * sizeof *r->f);
    r->e_trip = r->e_pair = 0.0;
    memset(r->w, 0, sizeof r->w);
    for (int i = 0; i < n; i++) {
        int cnt = 0;
        for (int t = 0; t < n; t++)
            if (t != i)
                row[cnt++] = t;
        long long h = 0, sl = 0;
        double e;
        if (prec == PREC_D) {
            nbr_scratch_dd sc = {scr, scr + 4 * (size_t)st, tix, cap, type, scr + 8 * (size_t)st,
                                 tt, {0}};
            e = (scalar ? nbr_anchor_scalar_dd : nbr_anchor_dd)(
                pp, &pp->d, s->pos, i, row, cnt, &sc, r->f, &r->e_pair, r->w, &h, &sl);
        } else if (prec == PREC_MIXED) {
            nbr_scratch_fd sc = {(float *)scr, (float *)scr + 4 * (size_t)st, tix, cap,
                                 type, (float *)scr + 8 * (size_t)st, tt, {0}};
            e = (scalar ? nbr_anchor_scalar_fd : nbr_anchor_fd)(
                pp, &pp->f, s->pos, i, row, cnt, &sc, r->f, &r->e_pair, r->w, &h, &sl);
        } else {
            nbr_scratch_ff sc = {(float *)scr, (float *)scr + 4 * (size_t)st, tix, cap,
                                 type, (float *)scr + 8 * (size_t)st, tt, {0}};
            e = (scalar ? nbr_anchor_scalar_ff : nbr_anchor_ff)(
                pp, &pp->f, s->pos, i, row, cnt, &sc, ff, &r->e_pair, r->w, &h, &sl);
        }
        r->e_trip += e;
        r->ea[i] = e;
        r->hits[i] = h;
        r->slots[i] = sl;
    }
    if (prec == PREC_SINGLE)
        for (size_t q = 0; q < 3 * (size_t)n; q++)
            r->f[q] = (double)ff[q];
    free(row);
    free(tix);
    free(tt);
    free(scr);
    free(ff);
}

static void sums_alloc(sums *r, int n)
{
    r->f = calloc(3 * (size_t)n, sizeof *r->f);
    r->ea = calloc((size_t)n, sizeof *r->ea);
    r->hits = calloc((size_t)n, sizeof *r->hits);
    r->slots = calloc((size_t)n, sizeof *r->slots);
}

static void sums_free(sums *r)
{
    free(r->f);
    free(r->ea);
    free(r->hits);
    free(r->slots);
}

/* The ATM entry counts of the anchors of s: how many anchors, how many of them with a count
 * not a multiple of the lane count (NBR_SIMD_PAD and so every clone's), the largest count. */
static void entry_stats(const pot_params *pp, const sim_state *s, int *odd, int *big, int *mx)
{
    const int n = s->n, st = nbr_simd_stride(n);
    int *row = malloc((size_t)n * sizeof *row), *tix = malloc(2 * (size_t)n * sizeof *tix);
    double *scr = aligned_alloc(64, 8 * (size_t)st * sizeof(double));
    nbr_scratch_dd sc = {scr, scr + 4 * (size_t)st, tix, n, NULL, NULL, NULL, {0}};
    *odd = *big = *mx = 0;
    for (int i = 0; i < n; i++) {
        int cnt = 0, ma;
        for (int t = 0; t < n; t++)
            if (t != i)
                row[cnt++] = t;
        nbr_entries_dd(pp, s->pos, i, row, cnt, &sc, &ma);
        *odd += ma % NBR_SIMD_PAD != 0;
        *big += ma > NBR_TILE && ma % NBR_TILE != 0; /* several tiles, the last clipped */
        *mx = ma > *mx ? ma : *mx;
    }
    free(row);
    free(tix);
    free(scr);
}

typedef struct {
    const char *what;
    int n;
    double rho;      /* periodic: L = (n/rho)^(1/3) */
    double radius;   /* > 0: an open cluster of this radius */
    double atm_cut, triple, lj_cut; /* lj_cut 0: no LJ */
    int multi;       /* 1: some anchors must have several tiles of entries */
    int species;     /* 2: two species (nbr_simd_triangle_typed), one triplet's nu 0 */
} nbr_case;

/* Two species, 70 % and 30 %: LJ (0,0) and (1,1) given, the cross pair mixed; ATM (0,0,0),
 * (0,1,1), (1,1,1) given and (0,0,1) not (nu 0: those triplets do not count). */
static void two_species(sim_config *c, double lj_cut)
{
    tb_two_species(c, 2.3);
    c->system.init.n_composition = 2;
    c->system.init.composition[0] = 0.7;
    c->system.init.composition[1] = 0.3;
    c->potential.lj.mix = CFG_MIX_ARITHMETIC;
    c->potential.lj.n_pairs = 2;
    c->potential.lj.pairs[0] = (cfg_lj_pair){{0, 0}, 1.03, 0.991, lj_cut};
    c->potential.lj.pairs[1] = (cfg_lj_pair){{1, 1}, 0.71, 1.12, lj_cut - 0.2};
    c->potential.atm.triplets_given = 1;
    c->potential.atm.n_triplets = 3;
    c->potential.atm.triplets[0] = (cfg_atm_triplet){{0, 0, 0}, 0.0713};
    c->potential.atm.triplets[1] = (cfg_atm_triplet){{0, 1, 1}, 0.118};
    c->potential.atm.triplets[2] = (cfg_atm_triplet){{1, 1, 1}, 0.0562};
}

static void one_case(const nbr_case *k)
{
    sim_config c;
    sim_state s;
    pot_params pp;
    cfg_defaults(&c);
    snprintf(c.path, sizeof c.path, "test_nbr_simd");
    c.system.particles = k->n;
    c.system.seed = 5;
    if (k->radius > 0) {
        c.system.boundary = CFG_BOUNDARY_OPEN;
        c.system.init.radius = k->radius;
    } else {
        c.system.boundary = CFG_BOUNDARY_PERIODIC;
        c.system.box = cbrt(k->n / k->rho);
    }
    c.system.init.type = CFG_INIT_RANDOM;
    c.system.init.min_distance = 0.85;
    c.potential.atm.nu = 0.0713;
    c.potential.atm.cutoff = k->atm_cut;
    c.potential.atm.cutoff_triple = k->triple;
    c.potential.lj.enabled = k->lj_cut > 0;
    c.potential.lj.epsilon = 1.03;
    c.potential.lj.sigma = 0.991;
    c.potential.lj.cutoff = k->lj_cut > 0 ? k->lj_cut : 2.5;
    c.potential.lj.shift = 1;
    if (k->species == 2)
        two_species(&c, c.potential.lj.cutoff);
    c.solver.backend = CFG_BACKEND_CPU;
    if (sim_init(&s, &c) != 0) {
        gsl_test(1, "%s: initial state", k->what);
        return;
    }
    pot_params_init(&pp, &c);
    int odd, big, mx;
    entry_stats(&pp, &s, &odd, &big, &mx);
    gsl_test(!(odd > s.n / 2 && (!k->multi || big > 0)),
             "%s: %d of %d anchors with an entry count not a multiple of %d, %d of several tiles "
             "with a clipped last one, at most %d entries",
             k->what, odd, s.n, NBR_SIMD_PAD, big, mx);
    /* double: the same terms, the row sums in another order: 1e-12; float: 2e-5 */
    const double tol[3] = {1e-12, 2e-5, 2e-5};
    for (int p = PREC_D; p <= PREC_SINGLE; p++) {
        sums a, b, a2;
        sums_alloc(&a, s.n);
        sums_alloc(&b, s.n);
        sums_alloc(&a2, s.n);
        run(&pp, &s, p, 0, &a);
        run(&pp, &s, p, 1, &b);
        run(&pp, &s, p, 0, &a2);
        long long ha = 0, hb = 0, hdiff = 0, sdiff = 0;
        for (int i = 0; i < s.n; i++) {
            ha += a.hits[i];
            hb += b.hits[i];
            hdiff += a.hits[i] != b.hits[i];
            sdiff += a.slots[i] != b.slots[i];
        }
        int finite = isfinite(a.e_trip) && isfinite(a.e_pair); /* fmax below drops NaNs */
        for (size_t q = 0; q < 3 * (size_t)s.n; q++)
            finite &= isfinite(a.f[q]) != 0;
        double an = 0, ad = 0; /* per anchor: max_i |dE_i| / max_i |E_i| */
        for (int i = 0; i < s.n; i++) {
            finite &= isfinite(a.ea[i]) != 0;
            an = fmax(an, fabs(a.ea[i] - b.ea[i]));
            ad = fmax(ad, fabs(b.ea[i]));
        }
        double wn = 0, wd = 0;
        for (int x = 0; x < 6; x++) {
            wn = fmax(wn, fabs(a.w[x] - b.w[x]));
            wd = fmax(wd, fabs(b.w[x]));
        }
        const double ee = fabs(a.e_trip - b.e_trip) / fabs(b.e_trip);
        const double ep = fabs(a.e_pair - b.e_pair) / fmax(fabs(b.e_pair), 1e-300);
        const double fe = tb_force_error(a.f, b.f, s.n), we = wn / wd, eae = an / ad;
        const int same = memcmp(a.f, a2.f, 3 * (size_t)s.n * sizeof *a.f) == 0 &&
                         a.e_trip == a2.e_trip && a.e_pair == a2.e_pair &&
                         memcmp(a.w, a2.w, sizeof a.w) == 0;
        gsl_test(!(finite && hdiff == 0 && sdiff == 0 && ha > 0 && ee <= tol[p] && ep <= tol[p] &&
                   eae <= tol[p] && fe <= tol[p] && we <= tol[p] && same),
                 "%s, %s: vector vs scalar anchor: hits %lld vs %lld (%lld anchors differ, slots "
                 "%lld), E_triplet %.2e (per anchor %.2e), E_pair %.2e, forces %.2e, virial "
                 "%.2e <= %.0e; repeat bitwise %s",
                 k->what, prec_name[p], ha, hb, hdiff, sdiff, ee, eae, ep, fe, we, tol[p],
                 same ? "yes" : "NO");
        sums_free(&a);
        sums_free(&b);
        sums_free(&a2);
    }
    sim_state_free(&s);
}

int main(void)
{
    tb_test_init();
    static const nbr_case cases[] = {
        {"periodic n 500 rho 0.8 (L 7.94), atm cutoff 3.9 near L/2", 500, 0.8, 0, 3.9, 0, 2.5, 1,
         1},
        {"periodic n 500, atm cutoff 3.6, cutoff_triple 2.9", 500, 0.8, 0, 3.6, 2.9, 2.5, 1, 1},
        {"periodic n 137 (L 5.55), atm cutoff 2.6 > L/4, no LJ", 137, 0.8, 0, 2.6, 0, 0, 0, 1},
        {"open cluster n 400 radius 5, atm cutoff 3.3, LJ 2.5", 400, 0, 5.0, 3.3, 0, 2.5, 1, 1},
        {"open cluster n 150 radius 3.5, atm cutoff 2.2, cutoff_triple 2.0", 150, 0, 3.5, 2.2,
         2.0, 2.5, 0, 1},
        {"two species, periodic n 500, atm cutoff 3.6", 500, 0.8, 0, 3.6, 0, 2.5, 1, 2},
        {"two species, periodic n 500, atm cutoff 3.6, cutoff_triple 3.0", 500, 0.8, 0, 3.6, 3.0,
         2.5, 1, 2},
    };
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++)
        one_case(&cases[q]);
    return tb_test_done();
}
