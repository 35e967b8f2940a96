/* test_simd.c — the CPU backend's vectorized ATM triplet tile (solver/cpu/tile_simd.h) against the
 * scalar tile loop it replaced (solver/cpu/tile_cpu.h's tile_triplets over triplet.h), tile by
 * tile over every I <= J <= K: energy, forces and virial.
 *
 * The cases put the vector loop's edges under test: tile faces (I = J, J = K, I = J = K), a
 * clipped last tile, n not a multiple of the tile edge nor of the lane count, edges below and
 * above the lane count, open boundaries without cutoffs, and a periodic box with an ATM cutoff
 * and a cutoff_triple (so that the lane mask drops triplets by both tests). The scratch is
 * filled with NaN before use (the tile must not read what it did not write), and each tile is
 * run twice: the same bits both times.
 *
 * Errors: energies relative to the scalar double total; forces max_m |dF_m| / max_m |F_m|;
 * virial max_c |dW_c| / max_c |W_c|. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "solver/physics/pot.h"
#include "solver/cpu/tile_simd.h"
#include "tests/tb_test.h"

#define TB_TILE_SCALAR_TRIPLETS
#define TB_CPU_NO_SINGLE
#define TB_CPU_TEMPLATE "solver/cpu/tile_cpu.h"
#include "solver/cpu/cpu_instances.h"

#define NMAX 160

enum { PREC_D, PREC_MIXED, PREC_SINGLE };
static const char *prec_name[] = {"double", "mixed", "single"};

typedef struct {
    const char *what;
    int n, edge;
    double box;     /* 0: open */
    double rc;      /* ATM cutoff, 0: none */
    double rct;     /* cutoff_triple, 0: none */
    double spread;  /* open: positions in a cube of this edge */
} simd_case;

/* The sums of one run over every tile. */
typedef struct {
    double e, f[3 * NMAX], w[6];
} sums;

static void coef(const simd_case *c, double nu, pot_params *p)
{
    memset(p, 0, sizeof *p);
    pot_coef_d *d = &p->d;
    d->nu = nu;
    d->atm_rc2 = c->rc > 0.0 ? c->rc * c->rc : TB_NO_CUTOFF2;
    d->atm_rct6 = c->rct > 0.0 ? pow(c->rct, 6) : TB_NO_CUTOFF6;
    d->box = box_cube_d(c->box);
    p->f.nu = (float)d->nu;
    p->f.atm_rc2 = (float)d->atm_rc2;
    p->f.atm_rct6 = (float)d->atm_rct6;
    p->f.box = box_to_f(&d->box);
}

/* n positions, no two closer than dmin (in the box: by minimum image), in [0, side)^3. */
static void positions(gsl_rng *r, const simd_case *c, double *x)
{
    const double side = c->box > 0.0 ? c->box : c->spread, dmin = 0.8;
    for (int i = 0; i < c->n; i++) {
        for (int tries = 0;; tries++) {
            int ok = 1;
            for (int d = 0; d < 3; d++)
                x[3 * i + d] = side * gsl_rng_uniform(r);
            for (int j = 0; j < i && ok; j++) {
                double r2 = 0.0;
                for (int d = 0; d < 3; d++) {
                    double dd = x[3 * j + d] - x[3 * i + d];
                    if (c->box > 0.0)
                        dd -= c->box * rint(dd / c->box);
                    r2 += dd * dd;
                }
                ok = r2 >= dmin * dmin;
            }
            if (ok || tries > 10000)
                break;
        }
    }
}

/* Every tile I <= J <= K through the scalar loop (prec PREC_D or PREC_MIXED). */
static void run_scalar(const pot_params *p, const simd_case *c, const double *x, int prec,
                       sums *s)
{
    const int nb = (c->n + c->edge - 1) / c->edge;
    float xf[3 * NMAX];
    for (int m = 0; m < 3 * c->n; m++)
        xf[m] = (float)x[m];
    memset(s, 0, sizeof *s);
    for (int I = 0; I < nb; I++)
        for (int J = I; J < nb; J++)
            for (int K = J; K < nb; K++)
                s->e += prec == PREC_D
                            ? tile_triplets_dd(&p->d, x, c->n, c->edge, I, J, K, s->f, s->w)
                            : tile_triplets_fd(&p->f, xf, c->n, c->edge, I, J, K, s->f, s->w);
}

/* Every tile through the vectorized loop, each twice; *same = 0 when a repeat differed in
 * any bit. */
static void run_simd(const pot_params *p, const simd_case *c, const double *x, int prec,
                     sums *s, int *same)
{
    const int nb = (c->n + c->edge - 1) / c->edge;
    const size_t bytes = tile_simd_scratch(c->edge);
    void *scr = aligned_alloc(64, bytes);
    float xf[3 * NMAX], ff[3 * NMAX], ff2[3 * NMAX], ff1[3 * NMAX];
    double f2[3 * NMAX], f1[3 * NMAX], w2[6], e1 = 0.0;
    for (int m = 0; m < 3 * c->n; m++)
        xf[m] = (float)x[m];
    memset(s, 0, sizeof *s);
    memset(ff, 0, sizeof ff);
    *same = 1;
    if (!scr) {
        gsl_test(1, "scratch of %zu bytes", bytes);
        return;
    }
    for (size_t q = 0; q < bytes / sizeof(double); q++)
        ((double *)scr)[q] = NAN;
    for (int I = 0; I < nb; I++)
        for (int J = I; J < nb; J++)
            for (int K = J; K < nb; K++)
                for (int rep = 0; rep < 2; rep++) {
                    double e, w[6] = {0, 0, 0, 0, 0, 0};
                    memset(f2, 0, sizeof f2);
                    memset(ff2, 0, sizeof ff2);
                    if (prec == PREC_D)
                        e = tile_simd_triplets_dd(&p->d, x, c->n, c->edge, I, J, K, f2, w, scr);
                    else if (prec == PREC_MIXED)
                        e = tile_simd_triplets_fd(&p->f, xf, c->n, c->edge, I, J, K, f2, w,
                                                  scr);
                    else
                        e = tile_simd_triplets_ff(&p->f, xf, c->n, c->edge, I, J, K, ff2, w,
                                                  scr);
                    if (rep == 0) {
                        s->e += e;
                        for (int m = 0; m < 3 * c->n; m++) {
                            s->f[m] += f2[m];
                            ff[m] += ff2[m];
                        }
                        for (int d = 0; d < 6; d++)
                            s->w[d] += w[d];
                        memcpy(w2, w, sizeof w2);
                        e1 = e;
                        memcpy(f1, f2, sizeof f1);
                        memcpy(ff1, ff2, sizeof ff1);
                    } else {
                        *same &= !memcmp(&e, &e1, sizeof e) && !memcmp(w, w2, sizeof w) &&
                                 !memcmp(f1, f2, sizeof f1) &&
                                 !memcmp(ff1, ff2, sizeof ff1);
                    }
                }
    if (prec == PREC_SINGLE)
        for (int m = 0; m < 3 * c->n; m++)
            s->f[m] = (double)ff[m];
    free(scr);
}

static double max_rel(int len, const double *a, const double *b)
{
    double err = 0.0, scale = 0.0;
    for (int m = 0; m < len; m++) {
        err = GSL_MAX(err, fabs(a[m] - b[m]));
        scale = GSL_MAX(scale, fabs(b[m]));
    }
    return scale > 0.0 ? err / scale : err;
}

static void check_case(gsl_rng *r, const simd_case *c)
{
    double x[3 * NMAX];
    pot_params p;
    sums ref, ref_f, got;
    coef(c, 0.7321, &p);
    positions(r, c, x);
    run_scalar(&p, c, x, PREC_D, &ref);
    run_scalar(&p, c, x, PREC_MIXED, &ref_f);
    gsl_test(!(ref.e != 0.0 && isfinite(ref.e)), "%s: the scalar energy is finite, nonzero (%g)",
             c->what, ref.e);
    for (int prec = PREC_D; prec <= PREC_SINGLE; prec++) {
        int same;
        /* Double: the same algebra in another order (the scale nu, 3 nu/4 applied per row,
         * the row sums split over lanes): rounding, ~1e-16 per term times the conditioning of
         * sums with terms of both signs, hence 1e-12. Float: each triplet's terms carry a few
         * float roundings (~3e-7) amplified ~10x by r^-9 (tests/test_kernels.c), and the partial
         * sums over a row (single: every sum) round in float: a few 1e-6 measured on these
         * cases (at most 2.2e-6), hence 2e-5. */
        const double tol = prec == PREC_D ? 1e-12 : 2e-5;
        run_simd(&p, c, x, prec, &got, &same);
        const double ee = fabs(got.e - ref.e) / fabs(ref.e);
        const double ef = max_rel(3 * c->n, got.f, ref.f);
        const double ew = max_rel(6, got.w, ref.w);
        gsl_test(!(ee <= tol), "%s, %s: simd energy = scalar double (%.2e, tol %.0e)", c->what,
                 prec_name[prec], ee, tol);
        gsl_test(!(ef <= tol), "%s, %s: simd forces = scalar double (%.2e, tol %.0e)", c->what,
                 prec_name[prec], ef, tol);
        gsl_test(!(ew <= tol), "%s, %s: simd virial = scalar double (%.2e, tol %.0e)", c->what,
                 prec_name[prec], ew, tol);
        gsl_test(!same, "%s, %s: every tile gives the same bits twice", c->what,
                 prec_name[prec]);
        if (prec == PREC_MIXED) {
            /* mixed against the scalar mixed loop: both round per triplet in float, in other
             * orders (measured at most 3.6e-7) */
            const double e2 = max_rel(3 * c->n, got.f, ref_f.f);
            gsl_test(!(e2 <= 1e-5), "%s, mixed: simd forces = scalar mixed (%.2e)", c->what, e2);
        }
    }
}

/* Momentum: the forces of every case sum to zero (Newton's third law per triplet), which the
 * per-i flush of F_k and the per-row F_i, F_j must keep. */
static void check_momentum(gsl_rng *r)
{
    const simd_case c = {"momentum", 53, 16, 0.0, 0.0, 0.0, 5.0};
    double x[3 * NMAX], fmax = 0.0, tot[3] = {0, 0, 0};
    pot_params p;
    sums got;
    int same;
    coef(&c, 0.7321, &p);
    positions(r, &c, x);
    run_simd(&p, &c, x, PREC_D, &got, &same);
    for (int m = 0; m < 3 * c.n; m++) {
        tot[m % 3] += got.f[m];
        fmax = GSL_MAX(fmax, fabs(got.f[m]));
    }
    const double err = GSL_MAX(fabs(tot[0]), GSL_MAX(fabs(tot[1]), fabs(tot[2]))) / fmax;
    gsl_test(!(err <= 1e-13), "simd double: total force = 0 (%.2e of max |F|)", err);
}

int main(void)
{
    tb_test_init();
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2718);
    /* open clusters: n = 77 is 4 x 16 + 13, 2 x 32 + 13, 15 x 5 + 2; 150 = 4 x 32 + 22 */
    const simd_case cases[] = {
        {"open n=77 edge=16", 77, 16, 0.0, 0.0, 0.0, 5.5},
        {"open n=77 edge=32", 77, 32, 0.0, 0.0, 0.0, 5.5},
        {"open n=77 edge=5", 77, 5, 0.0, 0.0, 0.0, 5.5},
        {"open n=21 edge=64 (one clipped tile)", 21, 64, 0.0, 0.0, 0.0, 3.5},
        {"open n=150 edge=32 cutoff 2.3", 150, 32, 0.0, 2.3, 0.0, 6.5},
        {"periodic n=150 L=7 edge=16 rc=1.75", 150, 16, 7.0, 1.75, 0.0, 0.0},
        {"periodic n=101 L=6.4 edge=24 rc=1.6 rct=1.45", 101, 24, 6.4, 1.6, 1.45, 0.0},
    };
    for (size_t q = 0; q < sizeof cases / sizeof cases[0]; q++)
        check_case(r, &cases[q]);
    check_momentum(r);
    gsl_rng_free(r);
    return tb_test_done();
}
