/* test_box.c — the box type (solver/box.h): the minimum image against a brute-force
 * search over images in restricted-triclinic cells within LAMMPS's tilt limits (all periodic,
 * and with one open axis), the wrap (into the cell, idempotent, blind to lattice vectors),
 * fractions, volume and perpendicular widths against hand values, and the cube case bit for bit
 * the scalar box's d - L rint(d / L) (through the reciprocal) it replaced; sim_place's wrap
 * (init.c, whose orthorhombic axes skip the division inside the box) bit for bit box_wrap's. */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "solver/box.h"
#include "solver/io/init.h"
#include "solver/state.h"
#include "tests/tb_test.h"

static double uni(gsl_rng *r, double lo, double hi) { return lo + (hi - lo) * gsl_rng_uniform(r); }

/* The lattice vector n_a a + n_b b + n_c c of b, added to d. */
static void add_lattice(const tb_box_d *b, int na, int nb, int nc, double d[3])
{
    d[0] += na * b->l[0] + nb * b->xy + nc * b->xz;
    d[1] += nb * b->l[1] + nc * b->yz;
    d[2] += nc * b->l[2];
}

static double norm(const double d[3]) { return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]); }

/* A random restricted-triclinic box within LAMMPS's tilt limits (|xy| <= lx/2, |xz| <= lx/2,
 * |yz| <= ly/2); open is -1 or the open axis, whose tilts are 0 (a tilt needs its axis
 * periodic: xy needs y, xz and yz need z). */
static tb_box_d random_box(gsl_rng *r, int open)
{
    const double l[3] = {uni(r, 2, 6), uni(r, 2, 6), uni(r, 2, 6)};
    const double lo[3] = {uni(r, -3, 3), uni(r, -3, 3), uni(r, -3, 3)};
    const int per[3] = {open != 0, open != 1, open != 2};
    double xy = uni(r, -0.5, 0.5) * l[0], xz = uni(r, -0.5, 0.5) * l[0],
           yz = uni(r, -0.5, 0.5) * l[1];
    if (open == 1)
        xy = 0.0;
    if (open == 2)
        xz = yz = 0.0;
    return box_make_d(l, xy, xz, yz, lo, per);
}

/* The shortest d + n a + n b + n c over |n| <= 4 along the periodic axes (from a reduced d,
 * wider than any nearest image needs in these cells). */
static double brute_min(const tb_box_d *b, const double d[3], double best[3])
{
    double bn = HUGE_VAL;
    const int ra = b->pbc & 1 ? 4 : 0, rb = b->pbc & 2 ? 4 : 0, rc = b->pbc & 4 ? 4 : 0;
    for (int na = -ra; na <= ra; na++)
        for (int nb = -rb; nb <= rb; nb++)
            for (int nc = -rc; nc <= rc; nc++) {
                double e[3] = {d[0], d[1], d[2]};
                add_lattice(b, na, nb, nc, e);
                if (norm(e) < bn) {
                    bn = norm(e);
                    memcpy(best, e, sizeof e);
                }
            }
    return bn;
}

/* Is e - d a lattice vector of b (integer fractions, 0 along open axes)? */
static int is_lattice(const tb_box_d *b, const double d[3], const double e[3])
{
    tb_box_d b0 = *b;
    b0.lo[0] = b0.lo[1] = b0.lo[2] = 0.0;
    const double diff[3] = {e[0] - d[0], e[1] - d[1], e[2] - d[2]};
    double f[3];
    box_fraction_d(&b0, diff, f);
    for (int a = 0; a < 3; a++)
        if (fabs(f[a] - rint(f[a])) > 1e-9 || (!(b->pbc >> a & 1) && fabs(f[a]) > 1e-9))
            return 0;
    return 1;
}

static void test_min_image(int open)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11 + open);
    long tried = 0, close = 0, wrong = 0, longer = 0, off = 0;
    for (int k = 0; k < 400; k++) {
        const tb_box_d b = random_box(r, open);
        double w[3], wmin = HUGE_VAL;
        box_widths_d(&b, w);
        for (int a = 0; a < 3; a++)
            if (b.pbc >> a & 1)
                wmin = fmin(wmin, w[a]);
        for (int s = 0; s < 250; s++) {
            /* a short vector, or any, plus a few lattice vectors */
            const double h = s % 2 ? 0.5 * wmin : 2.0 * b.l[0];
            double d[3] = {uni(r, -h, h), uni(r, -h, h), uni(r, -h, h)}, e[3], best[3] = {0, 0, 0};
            add_lattice(&b, b.pbc & 1 ? (int)uni(r, -3, 4) : 0, b.pbc & 2 ? (int)uni(r, -3, 4) : 0,
                        b.pbc & 4 ? (int)uni(r, -3, 4) : 0, d);
            memcpy(e, d, sizeof e);
            box_min_image_d(&b, e);
            const double bn = brute_min(&b, e, best); /* the same images as d's */
            tried++;
            off += !is_lattice(&b, d, e);
            longer += norm(e) < bn - 1e-12; /* nothing beats the brute force */
            if (bn < 0.5 * wmin) { /* the guarantee: the nearest image itself */
                close++;
                for (int a = 0; a < 3; a++)
                    wrong += fabs(e[a] - best[a]) > 1e-12 * (1.0 + fabs(best[a]));
            }
        }
    }
    char what[64];
    snprintf(what, sizeof what, open < 0 ? "all periodic" : "axis %c open", "xyz"[open < 0 ? 0 : open]);
    gsl_test(off || longer, "box: min image of %ld separations (%s) differs from d by a lattice "
             "vector along periodic axes only, never shorter than the brute force (off %ld, "
             "shorter %ld)", tried, what, off, longer);
    gsl_test(wrong || close < tried / 4, "box: min image is the brute-force nearest image for "
             "all %ld separations whose nearest image is within half the smallest width (%s; "
             "%ld components wrong)", close, what, wrong);
    gsl_rng_free(r);
}

static void test_wrap(int open)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 21 + open);
    long tried = 0, outside = 0, moved = 0, notlat = 0, shifted = 0;
    for (int k = 0; k < 400; k++) {
        const tb_box_d b = random_box(r, open);
        for (int s = 0; s < 100; s++) {
            double x[3] = {uni(r, -20, 20), uni(r, -20, 20), uni(r, -20, 20)}, y[3], z[3], f[3];
            memcpy(y, x, sizeof y);
            box_wrap_d(&b, y);
            tried++;
            box_fraction_d(&b, y, f);
            for (int a = 0; a < 3; a++)
                if (b.pbc >> a & 1)
                    outside += !(f[a] >= -1e-12 && f[a] <= 1.0 + 1e-12);
            notlat += !is_lattice(&b, x, y);
            memcpy(z, y, sizeof z); /* wrapping again leaves it (to rounding) */
            box_wrap_d(&b, z);
            for (int a = 0; a < 3; a++)
                moved += fabs(z[a] - y[a]) > 1e-12 * 40;
            memcpy(z, x, sizeof z); /* a lattice vector more changes nothing */
            add_lattice(&b, b.pbc & 1 ? (int)uni(r, -5, 6) : 0, b.pbc & 2 ? (int)uni(r, -5, 6) : 0,
                        b.pbc & 4 ? (int)uni(r, -5, 6) : 0, z);
            box_wrap_d(&b, z);
            double dz[3] = {z[0] - y[0], z[1] - y[1], z[2] - y[2]};
            box_min_image_d(&b, dz); /* a point on a face may land on the opposite one */
            shifted += norm(dz) > 1e-10;
        }
    }
    char what[64];
    snprintf(what, sizeof what, open < 0 ? "all periodic" : "axis %c open", "xyz"[open < 0 ? 0 : open]);
    gsl_test(outside || notlat, "box: wrap of %ld positions (%s) lands in the cell (fractions in "
             "[0, 1]: %ld outside) by a lattice vector (%ld not)", tried, what, outside, notlat);
    gsl_test(moved || shifted, "box: wrap is idempotent (%ld moved) and blind to a lattice "
             "vector added first (%ld differ) (%s)", moved, shifted, what);
    gsl_rng_free(r);
}

/* Volume and perpendicular widths by hand: a = (4,0,0), b = (1,5,0), c = (0.5,-2,6):
 * V = 120; b x c = (30, -6, -4.5), |b x c| = 15 sqrt(17) / 2, w_x = 16 / sqrt(17);
 * c x a = (0, 24, 8), |c x a| = 8 sqrt(10), w_y = 15 / sqrt(10); a x b = (0, 0, 20), w_z = 6. */
static void test_hand_values(void)
{
    const double l[3] = {4, 5, 6}, lo[3] = {1, -2, 0.5};
    const int per[3] = {1, 1, 1};
    const tb_box_d b = box_make_d(l, 1.0, 0.5, -2.0, lo, per);
    double w[3];
    box_widths_d(&b, w);
    gsl_test_rel(box_volume_d(&b), 120.0, 1e-15, "box: volume of the triclinic hand box");
    gsl_test_rel(w[0], 16.0 / sqrt(17.0), 1e-15, "box: width x = 16/sqrt(17)");
    gsl_test_rel(w[1], 15.0 / sqrt(10.0), 1e-15, "box: width y = 15/sqrt(10)");
    gsl_test_rel(w[2], 6.0, 1e-15, "box: width z = lz");
    /* lo + 0.25 a + 0.5 b + 0.75 c = (1 + 1 + 0.5 + 0.375, -2 + 2.5 - 1.5, 0.5 + 4.5) */
    const double x[3] = {2.875, -1.0, 5.0};
    double f[3];
    box_fraction_d(&b, x, f);
    gsl_test(fabs(f[0] - 0.25) > 1e-15 || fabs(f[1] - 0.5) > 1e-15 || fabs(f[2] - 0.75) > 1e-15,
             "box: fractions of lo + a/4 + b/2 + 3c/4 are (%.17g, %.17g, %.17g)", f[0], f[1], f[2]);
    const tb_box_d c = box_cube_d(3.0);
    box_widths_d(&c, w);
    gsl_test(box_volume_d(&c) != 27.0 || w[0] != 3.0 || w[1] != 3.0 || w[2] != 3.0 || c.tilted ||
                 c.pbc != TB_BOX_PERIODIC_ALL,
             "box: the cube of edge 3: volume 27, widths 3, untilted, periodic");
    const tb_box_d o = box_cube_d(0.0);
    double d[3] = {7.5, -9.25, 1e300};
    box_min_image_d(&o, d);
    box_wrap_d(&o, d);
    gsl_test(o.pbc != 0 || d[0] != 7.5 || d[1] != -9.25 || d[2] != 1e300,
             "box: open boundaries leave separations and positions alone");
}

/* The cube: the scalar box's expressions, bit for bit (min image through the reciprocal, as
 * triplet.h's pot_mic had it, in double and float; the wrap x - L floor(x / L)). */
static void test_cube_bitwise(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 5);
    long diff = 0, difff = 0, diffw = 0, tried = 0;
    const double Ls[] = {1.0, 3.0, 7.0, 10.0, 9.4868329805051381, 17.1, 0.1};
    for (unsigned t = 0; t < sizeof Ls / sizeof *Ls; t++) {
        const double L = Ls[t], inv = 1.0 / L;
        const tb_box_d b = box_cube_d(L);
        const tb_box_f bf = box_to_f(&b);
        const float Lf = (float)L, invf = (float)inv;
        for (int s = 0; s < 20000; s++) {
            double d[3], old[3], x[3], xo[3];
            float df[3], oldf[3];
            for (int a = 0; a < 3; a++) {
                /* include the half-box ties and exact lattice multiples */
                d[a] = s % 7 == 0 ? 0.5 * L * (int)uni(r, -5, 6) : uni(r, -2.5 * L, 2.5 * L);
                old[a] = d[a] - L * rint(d[a] * inv);
                df[a] = (float)d[a];
                oldf[a] = df[a] - Lf * rintf(df[a] * invf);
                x[a] = s % 5 == 0 ? L * (int)uni(r, -3, 4) : uni(r, -4 * L, 4 * L);
                xo[a] = x[a] - L * floor(x[a] / L);
            }
            box_min_image_d(&b, d);
            box_min_image_f(&bf, df);
            box_wrap_d(&b, x);
            tried++;
            diff += memcmp(d, old, sizeof d) != 0;
            difff += memcmp(df, oldf, sizeof df) != 0;
            diffw += memcmp(x, xo, sizeof x) != 0;
        }
    }
    gsl_test(diff || difff || diffw, "box: cube of %ld separations and positions bit for bit the "
             "scalar box's (min image double %ld, float %ld, wrap %ld differ)", tried, diff, difff,
             diffw);
    gsl_rng_free(r);
}

/* sim_place on periodic boxes (orthorhombic with lo != 0, one axis open, tilted): every
 * position bit for bit box_wrap_d's and the far-face clamp's, for positions inside (the fast
 * path), a hair below the far face (t / l rounding to 1), on the faces, and outside; the fifth
 * box (orthorhombic, periodic everywhere) has those only at every 997th particle, so most of
 * sim_place_from's blocks take its vectorized pass (init.c, place_block_quick) and some go
 * back to the particle loop. */
static void test_place_bitwise(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 11);
    enum { N = 4000 };
    sim_state s;
    static double want[3 * N], src[3 * N], from[3 * N], kept[3 * N];
    long diff = 0, diff_from = 0, diff_kept = 0, bad = 0, tried = 0;
    memset(&s, 0, sizeof s);
    if (sim_state_alloc(&s, N) != 0) {
        gsl_test(1, "box: sim_state_alloc");
        return;
    }
    for (int k = 0; k < 5; k++) {
        const double l[3] = {34.470955040510134, 7.3, 0.1 + k % 4}, lo[3] = {-17.2, 0.3, k % 4 ? 3.1 : 0};
        const int per[3] = {1, k != 2, 1};
        s.box = box_make_d(l, k == 3 ? 0.7 : 0.0, 0.0, k == 3 ? -0.4 : 0.0, lo, per);
        for (int i = 0; i < 3 * N; i++) {
            const int a = i % 3, c = k < 4 || (i / 3) % 997 == 0 ? (i / 3) % 8 : 0;
            const double L = l[a];
            double x = lo[a] + uni(r, 0, L); /* inside */
            if (c == 1) /* a hair below the far face */
                x = lo[a] + nextafter(L, 0) - L * 1e-16 * (double)gsl_rng_uniform_int(r, 8);
            else if (c == 2) /* on a face */
                x = gsl_rng_uniform_int(r, 2) ? lo[a] : lo[a] + L;
            else if (c == 3) /* outside */
                x = lo[a] + uni(r, -3 * L, 4 * L);
            else if (c == 4) /* just below lo */
                x = nextafter(lo[a], -1e300);
            else if (c == 5 && lo[a] == 0) /* -0 */
                x = -0.0;
            else if (c == 6) /* a few ulps beyond the far face */
                x = lo[a] + L + L * 1e-15 * (double)gsl_rng_uniform_int(r, 8);
            s.pos[i] = want[i] = x;
        }
        for (int i = 0; i < N; i++) {
            double *x = want + 3 * i;
            box_wrap_d(&s.box, x);
            for (int a = 0; a < 3 && !s.box.tilted; a++)
                if (s.box.pbc >> a & 1 && (x[a] >= lo[a] + l[a] || x[a] < lo[a]))
                    x[a] = lo[a];
        }
        /* the library's one pass (sim_place_from: from the caller's array into another) */
        memcpy(src, s.pos, sizeof src);
        memset(kept, 0xff, sizeof kept);
        bad += sim_place_from(&s, src, from, kept) != -1;
        diff_kept += memcmp(kept, src, sizeof src) != 0;
        sim_place(&s);
        for (int i = 0; i < 3 * N; i++, tried++) {
            diff += memcmp(s.pos + i, want + i, sizeof *want) != 0;
            diff_from += memcmp(from + i, want + i, sizeof *want) != 0;
        }
    }
    gsl_test(diff != 0, "box: sim_place of %ld coordinates bit for bit box_wrap's and the "
             "far-face clamp (%ld differ)", tried, diff);
    gsl_test(diff_from != 0 || bad != 0, "box: sim_place_from (one pass into another array) of "
             "%ld coordinates bit for bit sim_place's (%ld differ; %ld calls saw a non-finite "
             "coordinate)", tried, diff_from, bad);
    gsl_test(diff_kept != 0, "box: sim_place_from's copy of its source (tribody_set_positions_copy) "
             "bit for bit the source (%ld calls differ)", diff_kept);
    /* open boundaries (shifted by the bounding box's centre), and the first non-finite
     * coordinate found: index 3 * 77 + 1 before a later infinity, NaN and inf alike */
    /* a periodic box's blocks (place_block_quick) find the first non-finite coordinate too */
    const double lp[3] = {10, 10, 10}, lop[3] = {0, 0, 0};
    const int perp[3] = {1, 1, 1};
    s.box = box_make_d(lp, 0.0, 0.0, 0.0, lop, perp);
    for (int i = 0; i < 3 * N; i++)
        src[i] = uni(r, 0, 10);
    src[3 * 3000] = INFINITY;
    src[3 * 700 + 2] = NAN;
    const long first = sim_place_from(&s, src, from, NULL);
    gsl_test(first != 3 * 700 + 2, "box: sim_place_from in a periodic box: the first non-finite "
             "coordinate %d (got %ld)", 3 * 700 + 2, first);
    s.box = box_cube_d(0.0);
    for (int i = 0; i < 3 * N; i++)
        s.pos[i] = src[i] = 1e3 + uni(r, 0, 20);
    sim_place(&s);
    const long open = sim_place_from(&s, src, from, NULL);
    gsl_test(open != -1 || memcmp(from, s.pos, 3 * N * sizeof *from) != 0,
             "box: sim_place_from of an open box bit for bit sim_place's (returned %ld)", open);
    s.box = box_cube_d(20.0);
    src[3 * 77 + 1] = NAN;
    src[3 * 900] = INFINITY;
    const long nan_at = sim_place_from(&s, src, from, NULL);
    src[3 * 77 + 1] = -INFINITY;
    const long inf_at = sim_place_from(&s, src, from, NULL);
    gsl_test(nan_at != 3 * 77 + 1 || inf_at != 3 * 77 + 1, "box: sim_place_from names the first "
             "non-finite coordinate, 232 (got %ld for a NaN, %ld for -inf)", nan_at, inf_at);
    sim_state_free(&s);
    gsl_rng_free(r);
}

int main(void)
{
    tb_test_init();
    test_hand_values();
    test_cube_bitwise();
    test_place_bitwise();
    for (int open = -1; open < 3; open++) {
        test_min_image(open);
        test_wrap(open);
    }
    return tb_test_done();
}
