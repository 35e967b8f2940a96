/* cell.c — lattice vectors into LAMMPS's restricted triclinic box (see cell.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/io/cell.h"

static double dot3(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double *a, const double *b, double *o)
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}

int cell_to_box(const double abc[9], const double lo[3], const int pbc[3], tb_box_d *box,
                io_cell *how, char *why, size_t why_len)
{
    const double *a = abc, *b = abc + 3, *c = abc + 6;
    double l[3], xy, xz, yz;
    memset(how, 0, sizeof *how);
    how->rot[0] = how->rot[4] = how->rot[8] = 1.0;
    for (int i = 0; i < 9; i++)
        if (!isfinite(abc[i])) {
            snprintf(why, why_len, "a lattice vector is not finite");
            return -1;
        }
    if (a[1] == 0 && a[2] == 0 && b[2] == 0 && a[0] > 0 && b[1] > 0 && c[2] > 0) {
        l[0] = a[0]; /* restricted already: the numbers as given */
        l[1] = b[1];
        l[2] = c[2];
        xy = b[0];
        xz = c[0];
        yz = c[1];
    } else {
        double ab[3], e2[3], n_ab, vol;
        cross3(a, b, ab);
        n_ab = sqrt(dot3(ab, ab));
        vol = dot3(ab, c);
        l[0] = sqrt(dot3(a, a));
        if (!(l[0] > 0) || !(n_ab > 0) || vol == 0) {
            snprintf(why, why_len, "the cell is flat (its vectors span no volume)");
            return -1;
        }
        if (vol < 0) {
            snprintf(why, why_len, "the cell is left-handed ((a x b).c < 0); LAMMPS's box and "
                                   "tribody's need a right-handed one (swap two vectors)");
            return -1;
        }
        for (int k = 0; k < 3; k++) {
            how->rot[k] = a[k] / l[0];
            how->rot[6 + k] = ab[k] / n_ab;
        }
        cross3(how->rot + 6, how->rot, e2);
        memcpy(how->rot + 3, e2, sizeof e2);
        xy = dot3(b, how->rot);
        l[1] = n_ab / l[0];
        xz = dot3(c, how->rot);
        yz = (dot3(b, c) - xy * xz) / l[1];
        l[2] = vol / (l[0] * l[1]);
        how->rotated = 1;
    }
    /* The equivalent cell of smaller tilt, along periodic axes only (LAMMPS's flip). */
    if (pbc[1] && pbc[2] && fabs(yz) > 0.5 * l[1]) {
        const double k = rint(yz / l[1]);
        yz -= k * l[1];
        xz -= k * xy;
        how->reduced = 1;
    }
    if (pbc[0] && pbc[2] && fabs(xz) > 0.5 * l[0]) {
        xz -= rint(xz / l[0]) * l[0];
        how->reduced = 1;
    }
    if (pbc[0] && pbc[1] && fabs(xy) > 0.5 * l[0]) {
        xy -= rint(xy / l[0]) * l[0];
        how->reduced = 1;
    }
    {
        static const char *const tn[3] = {"xy", "xz", "yz"};
        const double t[3] = {xy, xz, yz}, lim[3] = {0.5 * l[0], 0.5 * l[0], 0.5 * l[1]};
        const int axis[3] = {1, 2, 2};
        for (int k = 0; k < 3; k++) {
            if (t[k] != 0.0 && !pbc[axis[k]]) {
                snprintf(why, why_len, "the cell is tilted (%s = %.17g) along the open axis %c "
                                       "(pbc F there): a tilt needs its axis periodic",
                         tn[k], t[k], "xyz"[axis[k]]);
                return -1;
            }
            if (fabs(t[k]) > lim[k] * (1 + 1e-14)) {
                snprintf(why, why_len, "the tilt %s = %.17g is beyond LAMMPS's limit %.17g and "
                                       "cannot be reduced along an open axis",
                         tn[k], t[k], lim[k]);
                return -1;
            }
        }
    }
    *box = box_make_d(l, xy, xz, yz, lo, pbc);
    return 0;
}

void cell_rotate(const io_cell *how, const double lo[3], double v[3])
{
    double d[3], o[3];
    if (!how->rotated)
        return;
    for (int k = 0; k < 3; k++)
        d[k] = lo ? v[k] - lo[k] : v[k];
    for (int r = 0; r < 3; r++)
        o[r] = dot3(how->rot + 3 * r, d);
    for (int k = 0; k < 3; k++)
        v[k] = lo ? lo[k] + o[k] : o[k];
}
