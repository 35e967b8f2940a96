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
 * General form (reference.h): the same sums with eps, sigma, the LJ cutoff and shift looked
 * up per species pair and nu per species triplet (the single-species form is the one-entry
 * table, the same arithmetic), and the minimum image of LAMMPS's restricted triclinic cell
 * (val_cell_mic, which says why it is exact within the allowed cutoffs).
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

/* Minimum image in the restricted triclinic cell (a = (lx,0,0), b = (xy,ly,0),
 * c = (xz,yz,lz)), the reference's own way: remove whole c's to bring d_z into
 * [-lz/2, lz/2], then whole b's for d_y (b has no z part), then whole a's for d_x, each on
 * a periodic axis only. The result is the representative of d + lattice in the box
 * Q = [-lx/2,lx/2] x [-ly/2,ly/2] x [-lz/2,lz/2], a fundamental domain of the lattice
 * (volume lx ly lz = det h, and the three steps pick exactly one point per coset). For a
 * tilted cell that representative need not be the shortest image; but the perpendicular
 * widths are w_x = V/|b x c| <= lx, w_y = V/|a x c| <= ly, w_z = lz, so a cutoff
 * rc <= min(w)/2 makes any image with |d| <= rc lie in Q, and two distinct images differ by
 * a lattice vector of length >= min(w) >= 2 rc: when some image is within rc it is unique
 * and it is the one returned. Images beyond rc do not interact, so which one is returned
 * there does not matter. Triplets keep d_jk = d_ik - d_ij (the image of k seen from the
 * image of j, as in LAMMPS's ghost atoms). With zero tilts every step is the cubic
 * d - L rint(d / L) per axis, bit for bit (subtracting n * 0 changes nothing). */
static void val_cell_mic(const val_cell *c, double d[3])
{
    if (c->periodic[2]) {
        const double m = rint(d[2] / c->lz);
        d[0] -= m * c->xz;
        d[1] -= m * c->yz;
        d[2] -= m * c->lz;
    }
    if (c->periodic[1]) {
        const double m = rint(d[1] / c->ly);
        d[0] -= m * c->xy;
        d[1] -= m * c->ly;
    }
    if (c->periodic[0])
        d[0] -= c->lx * rint(d[0] / c->lx);
}

/* d = mic(r_j - r_i). */
static void val_sep(const val_system *s, int i, int j, double d[3])
{
    if (s->cell) {
        for (int x = 0; x < 3; x++)
            d[x] = s->pos[3 * j + x] - s->pos[3 * i + x];
        val_cell_mic(s->cell, d);
        return;
    }
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

/* One species pair's LJ coefficients: squared cutoff (HUGE_VAL: none, -1: no LJ) and shift. */
typedef struct val_ljc {
    double eps, sigma, rc2, shift;
} val_ljc;

int val_reference_virial(const val_system *s, double *force, double *e_pair, double *e_triplet,
                         double *virial)
{
    if (s->sw)
        return val_reference_sw(s, s->sw, force, e_pair, e_triplet, virial);
    const int n = s->n;
    /* The single-species form is the 1-species table {eps, sigma, lj_cutoff} / {nu}: the
     * same arithmetic as before the general form existed. */
    const int nt = s->n_types > 0 ? s->n_types : 1;
    const size_t nt2 = (size_t)nt * (size_t)nt;
    val_ljc *ljc = malloc(nt2 * sizeof *ljc);
    double *nut = malloc(nt2 * (size_t)nt * sizeof *nut);
    if (!ljc || !nut) {
        free(ljc);
        free(nut);
        fprintf(stderr, "tribody: validate: out of host memory for %d species\n", nt);
        return -1;
    }
    int any_nu = 0;
    for (size_t t = 0; t < nt2 * (size_t)nt; t++) {
        nut[t] = s->n_types > 0 ? s->nu_t[t] : s->nu;
        any_nu |= nut[t] != 0.0;
    }
    const int atm = any_nu && n >= 3;
    const int lj = s->lj && n >= 2;
    const double atm_rc2 = s->atm_cutoff > 0.0 ? s->atm_cutoff * s->atm_cutoff : HUGE_VAL;
    for (size_t p = 0; p < nt2; p++) {
        val_ljc *c = &ljc[p];
        double unused;
        if (s->n_types > 0) {
            c->eps = s->lj_eps[p];
            c->sigma = s->lj_sigma[p];
            c->rc2 = s->lj_rc[p] > 0.0 ? s->lj_rc[p] * s->lj_rc[p] : -1.0;
            c->shift = lj && s->lj_shift && s->lj_rc[p] > 0.0
                           ? val_lj(c->eps, c->sigma, s->lj_rc[p], &unused)
                           : 0.0;
        } else {
            c->eps = s->eps;
            c->sigma = s->sigma;
            c->rc2 = s->lj_cutoff > 0.0 ? s->lj_cutoff * s->lj_cutoff : HUGE_VAL;
            c->shift = lj && s->lj_shift && s->lj_cutoff > 0.0
                           ? val_lj(s->eps, s->sigma, s->lj_cutoff, &unused)
                           : 0.0;
        }
    }

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
        free(ljc);
        free(nut);
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
            const size_t ti = s->n_types > 0 ? (size_t)s->type[i] : 0;
            for (int j = i + 1; j < n; j++) {
                double dij[3];
                const size_t tj = s->n_types > 0 ? (size_t)s->type[j] : 0;
                const val_ljc *c = &ljc[ti * (size_t)nt + tj];
                val_sep(s, i, j, dij);
                const double r2_ij = val_dot(dij, dij);
                if (lj && r2_ij < c->rc2) {
                    double dedr;
                    const double r = sqrt(r2_ij);
                    sum_p += val_lj(c->eps, c->sigma, r, &dedr) - c->shift;
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
                    const size_t tk = s->n_types > 0 ? (size_t)s->type[k] : 0;
                    const double nu = nut[(ti * (size_t)nt + tj) * (size_t)nt + tk];
                    if (nu == 0.0)
                        continue; /* LAMMPS's atm skips a triplet whose nu is 0 */
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
                    sum_t += val_atm_triangle(nu, (const double(*)[3])p, f || w ? fl : NULL);
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
    free(ljc);
    free(nut);
    return 0;
}

void val_lj_mix(int nt, const unsigned char *given, int arithmetic, double *eps, double *sigma,
                double *rc)
{
    for (int a = 0; a < nt; a++)
        for (int b = 0; b < nt; b++) {
            const size_t ab = (size_t)a * (size_t)nt + (size_t)b, ba = (size_t)b * (size_t)nt + (size_t)a;
            if (a == b || given[ab] || given[ba])
                continue;
            const size_t aa = (size_t)a * (size_t)(nt + 1), bb = (size_t)b * (size_t)(nt + 1);
            eps[ab] = sqrt(eps[aa] * eps[bb]);
            sigma[ab] = arithmetic ? 0.5 * (sigma[aa] + sigma[bb]) : sqrt(sigma[aa] * sigma[bb]);
            rc[ab] = arithmetic ? 0.5 * (rc[aa] + rc[bb]) : sqrt(rc[aa] * rc[bb]);
        }
}
