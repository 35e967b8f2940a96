/* reference.c — the independent reference: plain i<j<k and i<j sums in double with OpenMP.
 *
 * It shares no code with solver/ and derives the ATM forces its own way, on vectors and
 * cosines rather than on squared side lengths (docs/physics.md, "Forces of the reference").
 *
 * ATM. A triplet i<j<k is the triangle P0 = r_i, P1 = r_i + d_ij, P2 = r_i + d_ik (d_ij and
 * d_ik minimum-imaged when periodic, so P1, P2 are the images of r_j, r_k seen from i; in
 * the code P0 = 0). Indices of vertices and sides run mod 3. Side s joins P_s to P_{s+1}:
 *     e_s = P_{s+1} - P_s,   l_s = |e_s|          (l_0 = r_ij, l_1 = r_jk, l_2 = r_ki).
 * The angle at vertex v lies between A_v = e_v (towards P_{v+1}) and B_v = -e_{v-1}
 * (towards P_{v-1}):
 *     c_v = (A_v . B_v) / (|A_v| |B_v|),   E = nu (1 + 3 c_0 c_1 c_2) D,   D = (l_0 l_1 l_2)^-3.
 * E is a function of the six scalars l_s, c_v; the chain rule needs
 *     dE/dl_s = -3 E / l_s,                     dE/dc_v = 3 nu c_{v+1} c_{v+2} D,
 *     grad_{P_{s+1}} l_s = e_s / l_s = -grad_{P_s} l_s,
 * and, from d/dA (A.B / |A||B|) = B/(|A||B|) - (A.B) A/(|A|^3 |B|), with hats for unit vectors,
 *     grad_{P_{v+1}} c_v = (B^_v - c_v A^_v) / |A_v|,   grad_{P_{v-1}} c_v = (A^_v - c_v B^_v) / |B_v|,
 *     grad_{P_v} c_v = -(grad_{P_{v+1}} c_v + grad_{P_{v-1}} c_v)
 * (an angle does not change when its three vertices move together). The force on particle
 * m is F_m = -grad_{P_m} E: an image moves with its particle, so the force on the image is
 * the force on the particle. Each triplet's three forces sum to zero only up to rounding
 * (nothing here makes them cancel by construction), which the tests check independently.
 *
 * LJ. E(r) = 4 eps (s^12 - s^6) - E_shift with s = sigma/r, r = |d_ij|, d_ij = mic(r_j - r_i):
 *     dE/dr = -(24 eps / r) (2 s^12 - s^6),   F_j = -dE/dr d_ij / r = -F_i.
 *
 * Cutoffs compare squared lengths with the squared cutoff (the same test as "all three
 * sides < atm_cutoff"). lj_cutoff <= 0 means no LJ cutoff (and then no shift); the
 * configuration never asks for that, but the tests may.
 *
 * Parallelism and reproducibility: one `omp for schedule(dynamic)` over i does the pairs and
 * triplets anchored at i; energies are kept per i and summed in order of i afterwards, so
 * they do not depend on the number of threads; forces go into per-thread arrays summed at
 * the end (equal to the last few ulps whatever the threads). Coincident particles give
 * inf/NaN, as the potentials do. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "validate/reference.h"

/* Minimum image of one component: d - L rint(d / L); open boundaries when box <= 0. */
static double val_mic(double d, double box)
{
    return box > 0.0 ? d - box * rint(d / box) : d;
}

/* d = mic(r_j - r_i). */
static void val_sep(const val_system *s, int i, int j, double d[3])
{
    for (int x = 0; x < 3; x++)
        d[x] = val_mic(s->pos[3 * j + x] - s->pos[3 * i + x], s->box);
}

static double val_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ATM energy of the triangle p[0], p[1], p[2]; when f != NULL adds F_m = -grad_{p[m]} E
 * into f[m] (see the file header for the derivation). */
static double val_atm_triangle(double nu, const double p[3][3], double f[3][3])
{
    double e[3][3], l[3], c[3];
    for (int s = 0; s < 3; s++) {
        for (int x = 0; x < 3; x++)
            e[s][x] = p[(s + 1) % 3][x] - p[s][x];
        l[s] = sqrt(val_dot(e[s], e[s]));
    }
    /* c_v = A_v . B_v / (|A_v| |B_v|) with A_v = e_v, B_v = -e_{v-1}. */
    for (int v = 0; v < 3; v++)
        c[v] = -val_dot(e[v], e[(v + 2) % 3]) / (l[v] * l[(v + 2) % 3]);
    const double lll = l[0] * l[1] * l[2];
    const double d = 1.0 / (lll * lll * lll);
    const double energy = nu * (1.0 + 3.0 * c[0] * c[1] * c[2]) * d;
    if (!f)
        return energy;

    /* Lengths: -dE/dl_s grad l_s, i.e. F_{s+1} += (3E/l_s) e_s/l_s and F_s -= the same. */
    for (int s = 0; s < 3; s++) {
        const double g = 3.0 * energy / (l[s] * l[s]);
        for (int x = 0; x < 3; x++) {
            f[(s + 1) % 3][x] += g * e[s][x];
            f[s][x] -= g * e[s][x];
        }
    }
    /* Cosines: -dE/dc_v grad c_v at the three vertices of angle v. */
    for (int v = 0; v < 3; v++) {
        const int next = (v + 1) % 3, prev = (v + 2) % 3;
        const double la = l[v], lb = l[prev];
        const double dedc = 3.0 * nu * c[next] * c[prev] * d;
        for (int x = 0; x < 3; x++) {
            const double ah = e[v][x] / la, bh = -e[prev][x] / lb;
            const double ga = (bh - c[v] * ah) / la; /* grad_{P_{v+1}} c_v */
            const double gb = (ah - c[v] * bh) / lb; /* grad_{P_{v-1}} c_v */
            f[next][x] -= dedc * ga;
            f[prev][x] -= dedc * gb;
            f[v][x] += dedc * (ga + gb);
        }
    }
    return energy;
}

/* LJ energy 4 eps (s^12 - s^6) at distance r (no shift); *dedr = dE/dr. */
static double val_lj(double eps, double sigma, double r, double *dedr)
{
    const double s = sigma / r;
    const double s6 = s * s * s * s * s * s;
    const double s12 = s6 * s6;
    *dedr = -24.0 * eps / r * (2.0 * s12 - s6);
    return 4.0 * eps * (s12 - s6);
}

int val_reference(const val_system *s, double *force, double *e_pair, double *e_triplet)
{
    return val_reference_virial(s, force, e_pair, e_triplet, NULL);
}

/* W_ab += p_a f_b over the six components xx yy zz xy xz yz. */
static void val_outer_add(double *w, const double p[3], const double f[3])
{
    w[0] += p[0] * f[0];
    w[1] += p[1] * f[1];
    w[2] += p[2] * f[2];
    w[3] += p[0] * f[1];
    w[4] += p[0] * f[2];
    w[5] += p[1] * f[2];
}

int val_reference_virial(const val_system *s, double *force, double *e_pair, double *e_triplet,
                         double *virial)
{
    const int n = s->n;
    const int atm = s->nu != 0.0 && n >= 3;
    const int lj = s->lj && n >= 2;
    const double atm_rc2 = s->atm_cutoff > 0.0 ? s->atm_cutoff * s->atm_cutoff : HUGE_VAL;
    const double lj_rc2 = s->lj_cutoff > 0.0 ? s->lj_cutoff * s->lj_cutoff : HUGE_VAL;
    double lj_shift = 0.0, unused;
    if (lj && s->lj_shift && s->lj_cutoff > 0.0)
        lj_shift = val_lj(s->eps, s->sigma, s->lj_cutoff, &unused);

    int nthreads = 1;
#ifdef _OPENMP
    nthreads = omp_get_max_threads();
#endif
    const size_t n3 = (size_t)3 * (size_t)(n > 0 ? n : 1);
    double *ep = calloc((size_t)(n > 0 ? n : 1), sizeof *ep); /* pair energy anchored at i */
    double *et = calloc((size_t)(n > 0 ? n : 1), sizeof *et); /* triplet energy anchored at i */
    double *ft = force ? calloc(n3 * (size_t)nthreads, sizeof *ft) : NULL;
    double *wv = virial ? calloc(6 * (size_t)(n > 0 ? n : 1), sizeof *wv) : NULL; /* per i */
    if (!ep || !et || (force && !ft) || (virial && !wv)) {
        free(ep);
        free(et);
        free(ft);
        free(wv);
        fprintf(stderr, "tribody: validate: out of host memory for %d particles\n", n);
        return -1;
    }

#pragma omp parallel
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *f = ft ? ft + n3 * (size_t)tid : NULL;
#pragma omp for schedule(dynamic)
        for (int i = 0; i < n; i++) {
            double sum_p = 0.0, sum_t = 0.0;
            double *w = wv ? wv + 6 * (size_t)i : NULL;
            for (int j = i + 1; j < n; j++) {
                double dij[3];
                val_sep(s, i, j, dij);
                const double r2_ij = val_dot(dij, dij);
                if (lj && r2_ij < lj_rc2) {
                    double dedr;
                    const double r = sqrt(r2_ij);
                    sum_p += val_lj(s->eps, s->sigma, r, &dedr) - lj_shift;
                    double fj[3];
                    for (int x = 0; x < 3; x++)
                        fj[x] = -dedr * dij[x] / r;
                    if (f) {
                        for (int x = 0; x < 3; x++) {
                            f[3 * j + x] += fj[x];
                            f[3 * i + x] -= fj[x];
                        }
                    }
                    if (w) /* r_i (x) F_i + r_j (x) F_j = d_ij (x) F_j */
                        val_outer_add(w, dij, fj);
                }
                if (!atm || !(r2_ij <= atm_rc2))
                    continue; /* every triplet i<j<k with this side is out */
                for (int k = j + 1; k < n; k++) {
                    double p[3][3], fl[3][3], djk[3];
                    memset(p[0], 0, sizeof p[0]); /* P0 = r_i, taken as origin */
                    val_sep(s, i, k, p[2]);       /* P2 - P0 = d_ik */
                    memcpy(p[1], dij, sizeof dij);
                    for (int x = 0; x < 3; x++)
                        djk[x] = p[2][x] - p[1][x];
                    if (!(val_dot(p[2], p[2]) <= atm_rc2 && val_dot(djk, djk) <= atm_rc2))
                        continue;
                    if (s->atm_cutoff_triple > 0.0 &&
                        sqrt(r2_ij * val_dot(p[2], p[2]) * val_dot(djk, djk)) >
                            s->atm_cutoff_triple * s->atm_cutoff_triple * s->atm_cutoff_triple)
                        continue;
                    memset(fl, 0, sizeof fl);
                    sum_t += val_atm_triangle(s->nu, (const double(*)[3])p, f || w ? fl : NULL);
                    if (w) /* sum_m P_m (x) F_m with P_0 = 0 */
                        for (int m = 1; m < 3; m++)
                            val_outer_add(w, p[m], fl[m]);
                    if (f) {
                        for (int x = 0; x < 3; x++) {
                            f[3 * i + x] += fl[0][x];
                            f[3 * j + x] += fl[1][x];
                            f[3 * k + x] += fl[2][x];
                        }
                    }
                }
            }
            ep[i] = sum_p;
            et[i] = sum_t;
        }
    }

    double sp = 0.0, st = 0.0;
    for (int i = 0; i < n; i++) {
        sp += ep[i];
        st += et[i];
    }
    if (e_pair)
        *e_pair = sp;
    if (e_triplet)
        *e_triplet = st;
    if (force) {
        for (size_t m = 0; m < (size_t)3 * (size_t)n; m++) {
            double sum = 0.0;
            for (int t = 0; t < nthreads; t++)
                sum += ft[n3 * (size_t)t + m];
            force[m] = sum;
        }
    }
    if (virial) {
        for (int c = 0; c < 6; c++)
            virial[c] = 0.0;
        for (int i = 0; i < n; i++)
            for (int c = 0; c < 6; c++)
                virial[c] += wv[6 * (size_t)i + c];
    }
    free(ep);
    free(et);
    free(ft);
    free(wv);
    return 0;
}
