/* tb_ref.h — what the tests of the shared bodies (test_kernels.c) and of the independent
 * reference (test_reference.c) both need over the reference's val_system (validate/reference.h):
 * random configurations kept clear of every cutoff, and the error measures. One copy, so the
 * two programs draw the same configurations. Included after tb_test.h. */
#ifndef TB_REF_H
#define TB_REF_H

#include <math.h>

#include <gsl/gsl_math.h>
#include <gsl/gsl_rng.h>

#include "validate/reference.h"

static inline double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* max_m |a_m - b_m| / max_m |b_m|: force errors are measured against the largest force
 * component, since a single component can be arbitrarily close to zero. */
static inline double max_rel(int len, const double *a, const double *b)
{
    double err = 0.0, scale = 0.0;
    for (int m = 0; m < len; m++) {
        err = GSL_MAX(err, fabs(a[m] - b[m]));
        scale = GSL_MAX(scale, fabs(b[m]));
    }
    return scale > 0.0 ? err / scale : err;
}

static inline double mic1(double d, double box)
{
    return box > 0.0 ? d - box * rint(d / box) : d;
}

/* Fills pos with s->n particles: uniform in [0, box)^3 when periodic, else in a cube of edge
 * `side` about a high-entropy centre; no two closer than rmin. Redraws the whole
 * configuration until every length the potentials look at (pair distances, and the third
 * side d_ik - d_ij of each anchored triplet) is at least `margin` away from each cutoff,
 * and, when periodic, every minimum-image component is `margin` away from box/2, so that
 * finite differences and rounding never cross a cutoff or switch an image. */
static inline void random_config(gsl_rng *rng, const val_system *s, double *pos, double side,
                                 double rmin, double margin)
{
    static const double centre[3] = {0.3712, -1.2093, 2.0417};
    const int n = s->n;
    const double box = s->box;
    for (int attempt = 0; attempt < 10000; attempt++) {
        int ok = 1;
        for (int m = 0; m < n; m++) {
            int placed = 0;
            for (int tries = 0; tries < 100000 && !placed; tries++) {
                for (int a = 0; a < 3; a++)
                    pos[3 * m + a] = box > 0.0 ? box * gsl_rng_uniform(rng)
                                               : centre[a] + side * (gsl_rng_uniform(rng) - 0.5);
                placed = 1;
                for (int o = 0; o < m && placed; o++) {
                    double d[3];
                    for (int a = 0; a < 3; a++)
                        d[a] = mic1(pos[3 * m + a] - pos[3 * o + a], box);
                    placed = dot3(d, d) >= rmin * rmin;
                }
            }
            if (!placed) {
                fprintf(stderr, "random_config: cannot place %d particles\n", n);
                exit(1);
            }
        }
        for (int i = 0; i < n && ok; i++) {
            for (int j = i + 1; j < n && ok; j++) {
                double dij[3];
                for (int a = 0; a < 3; a++) {
                    dij[a] = mic1(pos[3 * j + a] - pos[3 * i + a], box);
                    if (box > 0.0 && fabs(fabs(dij[a]) - 0.5 * box) < margin)
                        ok = 0;
                }
                const double r = sqrt(dot3(dij, dij));
                if (s->lj && s->lj_cutoff > 0.0 && fabs(r - s->lj_cutoff) < margin)
                    ok = 0;
                if (s->atm_cutoff > 0.0 && fabs(r - s->atm_cutoff) < margin)
                    ok = 0;
                for (int k = j + 1; k < n && ok && s->atm_cutoff > 0.0; k++) {
                    double djk[3];
                    for (int a = 0; a < 3; a++)
                        djk[a] = mic1(pos[3 * k + a] - pos[3 * i + a], box) - dij[a];
                    if (fabs(sqrt(dot3(djk, djk)) - s->atm_cutoff) < margin)
                        ok = 0;
                }
            }
        }
        if (ok)
            return;
    }
    fprintf(stderr, "random_config: no configuration with the margins asked\n");
    exit(1);
}

#endif
