/* reference_sw.c — the independent Stillinger-Weber reference (reference.h, val_reference_sw):
 * a plain loop over every particle i, its pairs i < j and its angles j-i-k (j < k, both
 * neighbours of i), in double, from the formulas of Stillinger and Weber (Phys. Rev. B 31,
 * 5262 (1985)) with LAMMPS's parameter rules, its forces derived here in (r, cos theta) and
 * not shared with the solver's pot_sw.h:
 *
 *   phi2 = A eps (B (s/r)^p - (s/r)^q) exp(s / (r - a s))
 *   phi3 = lambda eps (c - c0)^2 exp(g s_ij / (r_ij - a s_ij)) exp(g s_ik / (r_ik - a s_ik))
 *
 * with c = d_ij . d_ik / (r_ij r_ik): d phi3 / d d_ij = (dphi/dr_ij) d_ij / r_ij +
 * (dphi/dc) (d_ik / (r_ij r_ik) - c d_ij / r_ij^2). Minimum image by an image search over
 * the neighbouring cells (cutoffs below half the box). */
#include <math.h>
#include <stdlib.h>

#include "validate/reference.h"

/* The shortest image of d among the 27 neighbouring cells' (periodic axes only). */
static void sw_image(const val_system *s, double d[3])
{
    double a[3][3] = {{0}}, best[3] = {d[0], d[1], d[2]};
    int per[3] = {0, 0, 0};
    if (s->cell) {
        const val_cell *c = s->cell;
        a[0][0] = c->lx;
        a[1][0] = c->xy, a[1][1] = c->ly;
        a[2][0] = c->xz, a[2][1] = c->yz, a[2][2] = c->lz;
        for (int k = 0; k < 3; k++)
            per[k] = c->periodic[k];
    } else if (s->box > 0.0) {
        a[0][0] = a[1][1] = a[2][2] = s->box;
        per[0] = per[1] = per[2] = 1;
    }
    /* fold into the home cell first (z, then y, then x), then search the neighbours */
    for (int k = 2; k >= 0; k--)
        if (per[k]) {
            const double m = floor(d[k] / a[k][k] + 0.5);
            for (int x = 0; x <= k; x++)
                d[x] -= m * a[k][x];
        }
    double b2 = HUGE_VAL;
    for (int u = -per[0]; u <= per[0]; u++)
        for (int v = -per[1]; v <= per[1]; v++)
            for (int w = -per[2]; w <= per[2]; w++) {
                const double e[3] = {d[0] + u * a[0][0] + v * a[1][0] + w * a[2][0],
                                     d[1] + v * a[1][1] + w * a[2][1], d[2] + w * a[2][2]};
                const double e2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
                if (e2 < b2) {
                    b2 = e2;
                    best[0] = e[0], best[1] = e[1], best[2] = e[2];
                }
            }
    d[0] = best[0], d[1] = best[1], d[2] = best[2];
}

static const double *entry(const val_sw *sw, int i, int j, int k)
{
    return sw->p + 11 * (size_t)((i * sw->n_types + j) * sw->n_types + k);
}

/* The leg's cutoff: a sigma, less by tol as LAMMPS's pair_sw. */
static double cutoff(const double *e)
{
    double r = e[2] * e[1];
    if (e[10] > 0.0)
        r += (e[4] < 1.0 ? e[4] * e[1] : e[1]) / log(fmin(e[10], 0.01));
    return r;
}

static void add_w(double *w, const double d[3], const double f[3])
{
    w[0] += d[0] * f[0];
    w[1] += d[1] * f[1];
    w[2] += d[2] * f[2];
    w[3] += 0.5 * (d[0] * f[1] + d[1] * f[0]);
    w[4] += 0.5 * (d[0] * f[2] + d[2] * f[0]);
    w[5] += 0.5 * (d[1] * f[2] + d[2] * f[1]);
}

int val_reference_sw(const val_system *s, const val_sw *sw, double *force, double *e_pair,
                     double *e_triplet, double *virial)
{
    const int n = s->n;
    double *d = malloc(4 * (size_t)n * sizeof *d), w[6] = {0, 0, 0, 0, 0, 0};
    int *nb = malloc((size_t)n * sizeof *nb);
    double e2 = 0.0, e3 = 0.0;
    if (!d || !nb) {
        free(d);
        free(nb);
        return -1;
    }
    if (force)
        for (int m = 0; m < 3 * n; m++)
            force[m] = 0.0;
    for (int i = 0; i < n; i++) {
        const int ti = s->type ? s->type[i] : 0;
        int m = 0;
        for (int j = 0; j < n; j++) { /* i's neighbours within their (i, j, j) cutoffs */
            if (j == i)
                continue;
            const int tj = s->type ? s->type[j] : 0;
            double *q = d + 4 * (size_t)m;
            for (int x = 0; x < 3; x++)
                q[x] = s->pos[3 * j + x] - s->pos[3 * i + x];
            sw_image(s, q);
            q[3] = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
            const double *e = entry(sw, ti, tj, tj);
            if (!(q[3] < cutoff(e)))
                continue;
            nb[m++] = j;
            if (j < i)
                continue;
            /* the pair, once: phi2 and dphi2/dr */
            const double r = q[3], sg = e[1], ac = e[2] * sg, A = e[6] * e[0];
            const double sp = pow(sg / r, e[8]), sq = pow(sg / r, e[9]);
            const double ex = exp(sg / (r - ac)), u = e[7] * sp - sq;
            const double du = (-e[8] * e[7] * sp + e[9] * sq) / r;
            const double dphi = A * ex * (du - u * sg / ((r - ac) * (r - ac)));
            e2 += A * u * ex;
            const double fj[3] = {-dphi * q[0] / r, -dphi * q[1] / r, -dphi * q[2] / r};
            if (force)
                for (int x = 0; x < 3; x++) {
                    force[3 * j + x] += fj[x];
                    force[3 * i + x] -= fj[x];
                }
            add_w(w, q, fj);
        }
        for (int a = 0; a < m; a++)
            for (int b = a + 1; b < m; b++) {
                const double *p = d + 4 * (size_t)a, *q = d + 4 * (size_t)b;
                const int tj = s->type ? s->type[nb[a]] : 0, tk = s->type ? s->type[nb[b]] : 0;
                const double *ej = entry(sw, ti, tj, tj), *ek = entry(sw, ti, tk, tk);
                const double *t = entry(sw, ti, tj, tk);
                const double r1 = p[3], r2 = q[3];
                const double a1 = ej[2] * ej[1], a2 = ek[2] * ek[1];
                const double g1 = ej[4] * ej[1], g2 = ek[4] * ek[1];
                const double x1 = exp(g1 / (r1 - a1)), x2 = exp(g2 / (r2 - a2));
                const double c = (p[0] * q[0] + p[1] * q[1] + p[2] * q[2]) / (r1 * r2);
                const double L = t[3] * t[0], dc = c - t[5];
                const double phi = L * dc * dc * x1 * x2;
                const double dr1 = -phi * g1 / ((r1 - a1) * (r1 - a1));
                const double dr2 = -phi * g2 / ((r2 - a2) * (r2 - a2));
                const double dcc = 2.0 * L * dc * x1 * x2;
                double fj[3], fk[3];
                e3 += phi;
                for (int x = 0; x < 3; x++) {
                    fj[x] = -(dr1 * p[x] / r1 + dcc * (q[x] / (r1 * r2) - c * p[x] / (r1 * r1)));
                    fk[x] = -(dr2 * q[x] / r2 + dcc * (p[x] / (r1 * r2) - c * q[x] / (r2 * r2)));
                }
                if (force)
                    for (int x = 0; x < 3; x++) {
                        force[3 * nb[a] + x] += fj[x];
                        force[3 * nb[b] + x] += fk[x];
                        force[3 * i + x] -= fj[x] + fk[x];
                    }
                add_w(w, p, fj);
                add_w(w, q, fk);
            }
    }
    free(d);
    free(nb);
    if (e_pair)
        *e_pair = e2;
    if (e_triplet)
        *e_triplet = e3;
    if (virial)
        for (int k = 0; k < 6; k++)
            virial[k] = w[k];
    return 0;
}
