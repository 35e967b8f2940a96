/* count-triplets.c — counts the pairs and the ATM triplets within a cutoff in one periodic
 * XYZ frame (tribody's extended XYZ, box from Lattice="L 0 0 0 L 0 0 0 L"), with a cell
 * list, in O(N): the work a cutoff (neighbour-list) ATM code must do, for triplets-per-second
 * figures. It also sums the ATM energy of the counted triplets, an independent O(N) check of
 * the energy that tribody and LAMMPS report.
 *
 *   cc -O2 -o build/count-triplets scripts/count-triplets.c -lm    (scripts/lammps-liquid does it)
 *   build/count-triplets FRAME.xyz RC_ATM [RC_PAIR [NU]]
 *
 * Convention (docs/physics.md): a triplet counts iff its three sides, taken as the minimum
 * images anchored at one vertex, are all < RC_ATM; with RC_ATM <= L/2 the anchor does not
 * matter. "<=" (LAMMPS's pair_style atm) is counted too: the two differ only on exact ties.
 * Each triangle is found once from each vertex (i with two neighbours j < k), so the sums
 * over vertices are divided by 3. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double mic(double d, double L) { return d - L * rint(d / L); }

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s FRAME.xyz RC_ATM [RC_PAIR [NU]]\n", argv[0]);
        return 2;
    }
    const double rc = atof(argv[2]), rcp = argc > 3 ? atof(argv[3]) : 2.5;
    const double nu = argc > 4 ? atof(argv[4]) : 0.0703;
    FILE *f = fopen(argv[1], "r");
    char line[4096];
    int n;
    double L = 0;
    if (!f || !fgets(line, sizeof line, f) || sscanf(line, "%d", &n) != 1 || n < 3 ||
        !fgets(line, sizeof line, f)) {
        fprintf(stderr, "count-triplets: cannot read %s\n", argv[1]);
        return 1;
    }
    const char *lat = strstr(line, "Lattice=\"");
    const double rs = rc > rcp ? rc : rcp; /* search radius */
    if (!lat || sscanf(lat + 9, "%lf", &L) != 1 || !(L > 0) || !(rc > 0) || rs > L / 2) {
        fprintf(stderr, "count-triplets: need a periodic frame (Lattice=) and cutoffs <= L/2\n");
        return 2;
    }
    double *x = malloc(sizeof(double) * 3 * n);
    for (int i = 0; i < n; i++) {
        char sp[64];
        if (!fgets(line, sizeof line, f) ||
            sscanf(line, "%63s %lf %lf %lf", sp, &x[3 * i], &x[3 * i + 1], &x[3 * i + 2]) != 4) {
            fprintf(stderr, "count-triplets: %s: bad atom line %d\n", argv[1], i + 1);
            return 1;
        }
        for (int d = 0; d < 3; d++)
            x[3 * i + d] -= L * floor(x[3 * i + d] / L); /* into [0, L) */
    }
    fclose(f);

    /* Cells at least rs wide; fewer than 3 per side would visit a cell twice, so then one
     * cell holds everything (an O(N^2) neighbour search, fine for the small boxes). */
    int m = (int)floor(L / rs);
    if (m < 3)
        m = 1;
    int *head = malloc(sizeof(int) * m * m * m), *next = malloc(sizeof(int) * n);
    for (int c = 0; c < m * m * m; c++)
        head[c] = -1;
    for (int i = 0; i < n; i++) {
        int c[3];
        for (int d = 0; d < 3; d++) {
            c[d] = (int)(x[3 * i + d] / L * m);
            if (c[d] >= m)
                c[d] = m - 1;
        }
        const int id = (c[2] * m + c[1]) * m + c[0];
        next[i] = head[id];
        head[id] = i;
    }

    int cap = 1024;
    double *nb = malloc(sizeof(double) * 4 * cap); /* dx dy dz r^2 of i's neighbours */
    const double rc2 = rc * rc, rcp2 = rcp * rcp;
    long long pairs_atm = 0, pairs_lj = 0, t_lt = 0, t_le = 0;
    double e_atm = 0;
    int nbmax = 0;
    for (int i = 0; i < n; i++) {
        int ci[3], cnt = 0;
        for (int d = 0; d < 3; d++) {
            ci[d] = (int)(x[3 * i + d] / L * m);
            if (ci[d] >= m)
                ci[d] = m - 1;
        }
        const int span = m == 1 ? 0 : 1;
        for (int dz = -span; dz <= span; dz++)
            for (int dy = -span; dy <= span; dy++)
                for (int dx = -span; dx <= span; dx++) {
                    const int id = (((ci[2] + dz + m) % m) * m + (ci[1] + dy + m) % m) * m +
                                   (ci[0] + dx + m) % m;
                    for (int j = head[id]; j >= 0; j = next[j]) {
                        if (j == i)
                            continue;
                        double r[3], r2 = 0;
                        for (int d = 0; d < 3; d++) {
                            r[d] = mic(x[3 * j + d] - x[3 * i + d], L);
                            r2 += r[d] * r[d];
                        }
                        if (j > i) {
                            pairs_atm += r2 < rc2;
                            pairs_lj += r2 < rcp2;
                        }
                        if (r2 > rc2)
                            continue;
                        if (cnt == cap) {
                            cap *= 2;
                            nb = realloc(nb, sizeof(double) * 4 * cap);
                        }
                        memcpy(nb + 4 * cnt, r, sizeof r);
                        nb[4 * cnt + 3] = r2;
                        cnt++;
                    }
                }
        if (cnt > nbmax)
            nbmax = cnt;
        for (int a = 0; a < cnt; a++)
            for (int b = a + 1; b < cnt; b++) {
                const double *p = nb + 4 * a, *q = nb + 4 * b;
                const double e[3] = {q[0] - p[0], q[1] - p[1], q[2] - p[2]};
                const double s2 = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
                if (s2 > rc2)
                    continue;
                t_le++;
                if (!(p[3] < rc2 && q[3] < rc2 && s2 < rc2))
                    continue;
                t_lt++;
                /* E = nu (1 + 3 cos cos cos) / (r_ij r_jk r_ki)^3, cosines from dot products */
                const double ci_ = (p[0] * q[0] + p[1] * q[1] + p[2] * q[2]);  /* at i */
                const double cj = -(p[0] * e[0] + p[1] * e[1] + p[2] * e[2]); /* at j */
                const double ck = (q[0] * e[0] + q[1] * e[1] + q[2] * e[2]);  /* at k */
                const double r6 = p[3] * q[3] * s2;
                e_atm += nu * (1.0 + 3.0 * ci_ * cj * ck / r6) / (r6 * sqrt(r6));
            }
    }
    if (t_lt % 3 || t_le % 3)
        fprintf(stderr, "count-triplets: warning: a vertex count not divisible by 3\n");
    printf("n %d box %.17g rc_atm %g rc_pair %g cells %d^3 max_neighbours %d\n", n, L, rc, rcp,
           m, nbmax);
    printf("pairs_below_rc_pair %lld pairs_below_rc_atm %lld\n", pairs_lj, pairs_atm);
    printf("triplets_lt %lld triplets_le %lld per_atom %.6g\n", t_lt / 3, t_le / 3,
           (double)(t_lt / 3) / n);
    printf("e_atm %.17g\n", e_atm / 3);
    free(x), free(head), free(next), free(nb);
    return 0;
}
