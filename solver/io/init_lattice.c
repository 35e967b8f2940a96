/* init_lattice.c — fcc lattice initial positions (system.init.type = "lattice"), see init.h.
 *
 * Lattice: fcc is the set of points h (i, j, k) with integer i + j + k even, h = d / sqrt 2,
 *   whose nearest neighbours lie at distance d. Open boundaries take the n sites with the
 *   smallest i^2 + j^2 + k^2 (exact integers, so ties are real ties), ties broken by the
 *   generation order (i, then j, then k ascending); then the centre of mass is moved to
 *   the origin. Periodic boundaries use m^3 conventional cells of edge a = L / m, m the
 *   smallest with 4 m^3 >= n, and take the first n sites in this order: cells with x
 *   fastest, then y, then z; within a cell the basis (0,0,0), (0,1/2,1/2), (1/2,0,1/2),
 *   (1/2,1/2,0) a. With 4 m^3 > n the vacancies are the last sites, in the top z layer. */
#include <math.h>
#include <stdlib.h>

#include "common/check.h"
#include "solver/io/init_gen.h"

/* One fcc site of the open cluster: integer coordinates in units of h = d / sqrt 2. */
typedef struct fcc_site {
    long r2; /* i^2 + j^2 + k^2 */
    int idx; /* generation order, the tie-break */
    int ijk[3];
} fcc_site;

static int fcc_site_cmp(const void *a, const void *b)
{
    const fcc_site *x = a, *y = b;
    if (x->r2 != y->r2)
        return x->r2 < y->r2 ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Open boundaries: the n fcc sites nearest a lattice site, centre of mass at the origin. */
int init_lattice_open(sim_state *s, double d)
{
    const int n = s->n;
    const double h = d / sqrt(2.0);
    /* The ball of radius M (units h) holds about (4/3) pi M^3 / 2 sites; the cube
     * [-M, M]^3 holds every site of that ball, so the n nearest are all generated once the
     * n-th lies within distance M. Usually the first M does. */
    int M = (int)ceil(cbrt(3.0 * n / (2.0 * M_PI))) + 2;
    for (;;) {
        const long side = 2L * M + 1, cap = (side * side * side + 1) / 2;
        fcc_site *site = malloc((size_t)cap * sizeof *site);
        int ns = 0;
        if (!site)
            return tb_error(NULL, 0, "out of host memory for %ld lattice sites", cap);
        for (int i = -M; i <= M; i++)
            for (int j = -M; j <= M; j++)
                for (int k = -M; k <= M; k++) {
                    if ((i + j + k) % 2 != 0)
                        continue;
                    site[ns].r2 = (long)i * i + (long)j * j + (long)k * k;
                    site[ns].idx = ns;
                    site[ns].ijk[0] = i;
                    site[ns].ijk[1] = j;
                    site[ns].ijk[2] = k;
                    ns++;
                }
        qsort(site, (size_t)ns, sizeof *site, fcc_site_cmp);
        if (ns >= n && site[n - 1].r2 <= (long)M * M) {
            double com[3] = {0.0, 0.0, 0.0};
            for (int p = 0; p < n; p++)
                for (int a = 0; a < 3; a++) {
                    s->pos[3 * p + a] = h * site[p].ijk[a];
                    com[a] += s->pos[3 * p + a];
                }
            free(site);
            for (int a = 0; a < 3; a++)
                com[a] /= n;
            for (int p = 0; p < n; p++)
                for (int a = 0; a < 3; a++)
                    s->pos[3 * p + a] -= com[a];
            return 0;
        }
        free(site);
        M += 2;
    }
}

/* Periodic boundaries: the first n sites of an m^3-cell fcc lattice filling [0, L)^3. */
void init_lattice_periodic(sim_state *s, double sigma)
{
    static const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
    const int n = s->n;
    const double L = s->box.l[0];
    int m = (int)cbrt(n / 4.0);
    double a, nn;
    while (4L * m * m * m < n)
        m++;
    while (m > 1 && 4L * (m - 1) * (m - 1) * (m - 1) >= n)
        m--;
    a = L / m;
    for (int p = 0; p < n; p++) {
        const int b = p % 4, cell = p / 4;
        const int ix = cell % m, iy = (cell / m) % m, iz = cell / (m * m);
        s->pos[3 * p + 0] = a * (ix + basis[b][0]);
        s->pos[3 * p + 1] = a * (iy + basis[b][1]);
        s->pos[3 * p + 2] = a * (iz + basis[b][2]);
    }
    nn = a / sqrt(2.0);
    if (nn < INIT_COMPRESSED * sigma)
        tb_notice("system.init: the fcc lattice of %d^3 cells in box %g has nearest-neighbour "
                  "distance %g < %g sigma: the lattice is compressed (raise system.box or lower "
                  "system.particles)",
                  m, L, nn, INIT_COMPRESSED);
}

