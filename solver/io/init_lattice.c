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

/* The cells per axis: starting from one, every axis whose cell is the widest (perpendicular
 * width w_a / m_a, ties within 1e-12 together) gains a cell until 4 m0 m1 m2 >= n. A cube
 * grows as m^3, the smallest m with 4 m^3 >= n. */
static void lattice_cells(const tb_box_d *b, int n, int m[3])
{
    double w[3];
    box_widths_d(b, w);
    m[0] = m[1] = m[2] = 1;
    while (4L * m[0] * m[1] * m[2] < n) {
        double widest = 0.0;
        for (int a = 0; a < 3; a++)
            widest = w[a] / m[a] > widest ? w[a] / m[a] : widest;
        for (int a = 0; a < 3; a++)
            if (w[a] / m[a] >= widest * (1.0 - 1e-12))
                m[a]++;
    }
}

/* Site p: cell (ix fastest, then iy, iz), basis b, as fractions of the cells' vectors. */
static void lattice_site(const tb_box_d *bx, const int m[3], const double f[3], double x[3])
{
    x[0] = bx->lo[0] + bx->l[0] / m[0] * f[0] + bx->xy / m[1] * f[1] + bx->xz / m[2] * f[2];
    x[1] = bx->lo[1] + bx->l[1] / m[1] * f[1] + bx->yz / m[2] * f[2];
    x[2] = bx->lo[2] + bx->l[2] / m[2] * f[2];
}

/* Boxes with a periodic axis: the first n sites of an m0 x m1 x m2-cell fcc lattice filling
 * the box (an open axis: its extent), each cell the box's cell scaled by 1/m per axis. */
void init_lattice_periodic(sim_state *s, double sigma)
{
    static const double basis[4][3] = {{0, 0, 0}, {0, 0.5, 0.5}, {0.5, 0, 0.5}, {0.5, 0.5, 0}};
    const int n = s->n;
    const tb_box_d *bx = &s->box;
    int m[3];
    double nn = HUGE_VAL;
    lattice_cells(bx, n, m);
    for (int p = 0; p < n; p++) {
        const int b = p % 4, cell = p / 4;
        const double f[3] = {cell % m[0] + basis[b][0], (cell / m[0]) % m[1] + basis[b][1],
                             cell / (m[0] * m[1]) + basis[b][2]};
        lattice_site(bx, m, f, s->pos + 3 * p);
    }
    /* the nearest-neighbour distance: site 0 to every basis site of the 27 cells around it */
    for (int t = 0; t < 27 * 4; t++) {
        const int b = t % 4, k = t / 4;
        const double f[3] = {k % 3 - 1 + basis[b][0], (k / 3) % 3 - 1 + basis[b][1],
                             k / 9 - 1 + basis[b][2]};
        double x[3], r;
        lattice_site(bx, m, f, x);
        r = sqrt((x[0] - bx->lo[0]) * (x[0] - bx->lo[0]) + (x[1] - bx->lo[1]) * (x[1] - bx->lo[1]) +
                 (x[2] - bx->lo[2]) * (x[2] - bx->lo[2]));
        if (r > 0 && r < nn)
            nn = r;
    }
    if (nn < INIT_COMPRESSED * sigma)
        tb_notice("system.init: the fcc lattice of %d x %d x %d cells in box %g x %g x %g has "
                  "nearest-neighbour distance %g < %g sigma: the lattice is compressed (raise "
                  "system.box or lower system.particles)",
                  m[0], m[1], m[2], bx->l[0], bx->l[1], bx->l[2], nn, INIT_COMPRESSED);
}
