/* test_maps3d.c — coverage of every block map (docs/maps.md#checking-a-map): tile level for every
 * registered tetrahedral and triangular map, the rec families and decomposition, particle
 * level, the waste table of docs/maps.md#waste, the enumeration probe and the sampled check,
 * mutation tests proving the checkers catch a broken map, and `tribody maps` exit statuses.
 * One PASS/FAIL line per (map, size); the checkers themselves are maps3d/mapcheck.c. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "maps3d/mapcheck.h"
#include "maps3d/maps3d.def"
#include "solver/cli/cli.h"
#include "tests/tb_test.h"

/* Tile-level check of map t at nb; one line. */
static void tiles3(const map3d_type *t, int nb, const map3d_opts *o, const char *what)
{
    map3d_plan p;
    map_check r;
    char err[256];
    int rc;
    if (map3d_plan_make(t, nb, o, &p, err, sizeof err)) {
        gsl_test(1, "%s: %s tiles nb = %d (plan failed: %s)", t->name, what, nb, err);
        return;
    }
    rc = map3d_check_tiles(t, &p, &r);
    gsl_test(rc, "%s: %s every tile of D3(%d) once, nothing outside (%lld blocks, %d launches)%s%s",
             t->name, what, nb, r.blocks, p.n_launch, rc ? ": " : "", r.first);
    map3d_plan_free(&p);
}

static void tiles2(const map2d_type *t, int nb, const map2d_opts *o, const char *what)
{
    map2d_plan p;
    map_check r;
    char err[256];
    int rc;
    if (map2d_plan_make(t, nb, o, &p, err, sizeof err)) {
        gsl_test(1, "%s%s: tiles nb = %d (plan failed: %s)", t->name, what, nb, err);
        return;
    }
    rc = map2d_check_tiles(t, &p, &r);
    gsl_test(rc, "%s%s: every tile of D2(%d) once, nothing outside (%lld blocks)%s%s", t->name,
             what, nb, r.blocks, rc ? ": " : "", r.first);
}

/* Tile-level coverage (docs/maps.md#checking-a-map, 1) for every registered map, nb = 1..128. */
static void test_registry_tiles(void)
{
    for (int i = 0; map3d_all[i]; i++)
        for (int nb = 1; nb <= 128; nb++)
            tiles3(map3d_all[i], nb, NULL, "");
    for (int i = 0; map2d_all[i]; i++)
        for (int nb = 1; nb <= 128; nb++)
            tiles2(map2d_all[i], nb, NULL, "");
    /* lambda2d with each root variant; 128 rows are within every variant's range */
    for (int root = MAP2D_ROOT_SQRTF; root <= MAP2D_ROOT_NEWTON; root++) {
        map2d_opts o = {root};
        char what[32];
        snprintf(what, sizeof what, " (root %s)", map2d_root_name(root));
        for (int nb = 1; nb <= 128; nb++)
            tiles2(map2d_find("lambda2d"), nb, &o, what);
    }
}

/* Each map's limits: the plan at max_nb fits the CUDA grid limits; max_nb + 1 is refused. */
static void test_limits(void)
{
    for (int i = 0; map3d_all[i]; i++) {
        const map3d_type *t = map3d_all[i];
        map3d_plan p;
        char err[256] = "";
        int ok = map3d_plan_make(t, (int)t->max_nb, NULL, &p, err, sizeof err) == 0, fits = ok;
        for (int li = 0; ok && li < p.n_launch; li++)
            fits &= p.launch[li].gx >= 1 && p.launch[li].gx <= MAP3D_GRID_X_MAX &&
                    p.launch[li].gy >= 1 && p.launch[li].gy <= MAP3D_GRID_YZ_MAX &&
                    p.launch[li].gz >= 1 && p.launch[li].gz <= MAP3D_GRID_YZ_MAX;
        if (ok)
            map3d_plan_free(&p);
        gsl_test(!fits, "%s: plan at max_nb = %lld fits the CUDA grid limits %s", t->name,
                 t->max_nb, err);
        err[0] = '\0';
        ok = map3d_plan_make(t, (int)t->max_nb + 1, NULL, &p, err, sizeof err) != 0 && err[0];
        gsl_test(!ok, "%s: nb = max_nb + 1 refused with a message (\"%s\")", t->name, err);
        ok = map3d_plan_make(t, 0, NULL, &p, err, sizeof err) != 0;
        gsl_test(!ok, "%s: nb = 0 refused", t->name);
    }
    /* docs/maps.md#lambda: the 2D grid of lambda reaches nb = 94,517 with gy = 65534 */
    {
        map3d_plan p;
        char err[256];
        map3d_plan_make(map3d_find("lambda"), 94517, NULL, &p, err, sizeof err);
        gsl_test(p.launch[0].gy != 65534, "lambda: nb = 94517 uses gy = %u (expected 65534)",
                 p.launch[0].gy);
        map3d_plan_make(map3d_find("lambda"), 2343, NULL, &p, err, sizeof err);
        gsl_test(p.launch[0].gy != 1, "lambda: nb = 2343 is the last 1D grid (Tet = %lld)",
                 map3d_tet(2343));
        map3d_plan_make(map3d_find("lambda"), 2344, NULL, &p, err, sizeof err);
        gsl_test(p.launch[0].gy != 2, "lambda: nb = 2344 takes the 2D grid, gy = %u",
                 p.launch[0].gy);
    }
}

/* rec: the three exact families to 1024 (one launch each), the from-below decomposition for
 * nb = 1..300, and its launch count and grid sides for every nb up to max_nb. */
static void test_rec(void)
{
    const map3d_type *rec = map3d_find("rec");
    int worst_launch = 0, worst_nb = 0, bad_grid = 0, worst4096 = 0;
    double worst_ratio = 0, sum_ratio = 0;
    int worst_ratio_nb = 0;
    for (int L = 1; L <= 10; L++)
        for (int c = 0; c <= 2; c++) {
            int nb = (1 << L) - c;
            map3d_plan p;
            char err[256], what[64];
            if (nb < 1)
                continue;
            map3d_plan_make(rec, nb, NULL, &p, err, sizeof err);
            gsl_test(p.n_launch != 1, "rec: nb = %d = 2^%d - %d is one family launch (%d launches)",
                     nb, L, c, p.n_launch);
            snprintf(what, sizeof what, "family 2^%d-%d:", L, c);
            tiles3(rec, nb, NULL, what);
        }
    for (int nb = 1; nb <= 300; nb++)
        tiles3(rec, nb, NULL, "from below:");
    for (int nb = 1; nb <= MAP3D_REC_MAX_NB; nb++) {
        map3d_plan p;
        char err[256];
        if (map3d_plan_make(rec, nb, NULL, &p, err, sizeof err)) {
            bad_grid++;
            continue;
        }
        if (p.n_launch > worst_launch)
            worst_launch = p.n_launch, worst_nb = nb;
        if (nb <= 4096) {
            double ratio = (double)map3d_plan_blocks(&p) / (double)map3d_tet(nb);
            if (p.n_launch > worst4096)
                worst4096 = p.n_launch;
            if (nb >= 16 && nb <= 4096) {
                sum_ratio += ratio;
                if (ratio > worst_ratio)
                    worst_ratio = ratio, worst_ratio_nb = nb;
            }
        }
    }
    gsl_test(bad_grid, "rec: every nb in 1..%lld plans within the CUDA grid limits (%d failed)",
             MAP3D_REC_MAX_NB, bad_grid);
    gsl_test(worst_launch > MAP3D_MAX_LAUNCH,
             "rec: at most %d launches for nb <= %lld (at nb = %d); MAP3D_MAX_LAUNCH = %d",
             worst_launch, MAP3D_REC_MAX_NB, worst_nb, MAP3D_MAX_LAUNCH);
    gsl_test(worst4096 != 31, "rec: at most 31 segments for nb <= 4096 (docs/maps.md): %d",
             worst4096);
    /* docs/maps.md#from-below: worst 1.1355 for nb in [16, 4096], mean 1.049 (4 and 3 digits) */
    gsl_test(fabs(worst_ratio - 1.1355) > 0.5e-4,
             "rec: worst blocks/tiles for nb in [16, 4096] is 1.1355 (got %.6f at nb = %d)",
             worst_ratio, worst_ratio_nb);
    gsl_test(fabs(sum_ratio / (4096 - 15) - 1.049) > 0.5e-3,
             "rec: mean blocks/tiles for nb in [16, 4096] is 1.049 (got %.5f)",
             sum_ratio / (4096 - 15));
}

/* stride with other persistent grids, including a single block and G > Tet (clamped). */
static void test_stride(void)
{
    const map3d_type *st = map3d_find("stride");
    static const int gs[] = {1, 2, 7, 100, 5000};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        map3d_opts o = {.persistent_blocks = gs[i]};
        char what[32];
        snprintf(what, sizeof what, "G = %d:", gs[i]);
        for (int nb = 1; nb <= 40; nb += 13)
            tiles3(st, nb, &o, what);
        tiles3(st, 200, &o, what);
    }
    {
        map3d_plan p;
        char err[256];
        map3d_opts o = {.persistent_blocks = 5000};
        map3d_plan_make(st, 10, &o, &p, err, sizeof err);
        gsl_test(p.launch[0].gx != 220, "stride: G = 5000 > Tet(10) = 220 is clamped to %u",
                 p.launch[0].gx);
    }
}

/* Particle-level coverage (docs/maps.md#checking-a-map, 2): every i<j<k<n once, for every map
 * and several tiles. */
static void test_particles(void)
{
    int ns[40], nn = 0;
    for (int n = 3; n <= 40; n++)
        ns[nn++] = n;
    ns[nn++] = 64;
    ns[nn++] = 127;
    for (int i = 0; map3d_all[i]; i++)
        for (int a = 0; a < nn; a++) {
            const int n = ns[a], edges[5] = {1, 3, 8, 16, n + 1};
            for (int e = 0; e < 5; e++) {
                map3d_plan p;
                map_check r;
                char err[256];
                int nb = map3d_nb(n, edges[e]), rc;
                if (map3d_plan_make(map3d_all[i], nb, NULL, &p, err, sizeof err)) {
                    gsl_test(1, "%s: particles n = %d edge %d (plan: %s)", map3d_all[i]->name, n,
                             edges[e], err);
                    continue;
                }
                rc = map3d_check_particles(map3d_all[i], &p, n, edges[e], &r);
                gsl_test(rc, "%s: particles n = %d edge %d: each of %lld triplets once%s%s",
                         map3d_all[i]->name, n, edges[e], r.expected, rc ? ": " : "", r.first);
                map3d_plan_free(&p);
            }
        }
    for (int i = 0; map2d_all[i]; i++)
        for (int a = 0; a < nn; a++) {
            const int n = ns[a], edges[5] = {1, 3, 8, 16, n + 1};
            for (int e = 0; e < 5; e++) {
                map2d_plan p;
                map_check r;
                char err[256];
                int rc;
                if (map2d_plan_make(map2d_all[i], map3d_nb(n, edges[e]), NULL, &p, err, sizeof err)) {
                    gsl_test(1, "%s: pairs n = %d edge %d (plan: %s)", map2d_all[i]->name, n,
                             edges[e], err);
                    continue;
                }
                rc = map2d_check_particles(map2d_all[i], &p, n, edges[e], &r);
                gsl_test(rc, "%s: pairs n = %d edge %d: each of %lld pairs once%s%s",
                         map2d_all[i]->name, n, edges[e], r.expected, rc ? ": " : "", r.first);
            }
        }
}

/* docs/maps.md#waste: blocks launched / Tet(nb) from the plans against the table, to its digits. */
static void test_waste_table(void)
{
    static const struct {
        int nb;
        double bb, rec;
        int rec_launches;
    } row[] = {
        {8, 4.2667, 1.0667, 1},    {64, 5.7287, 1.1189, 1},    {512, 5.9650, 1.1243, 1},
        {4096, 5.9956, 1.1249, 1}, {100, 5.8241, 1.0356, 7},   {1000, 5.9820, 1.0191, 16},
        {2050, 5.9912, 1.1245, 4}, {4095, 5.9956, 1.1250, 1},
    };
    for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
        const int nb = row[i].nb;
        const double tet = (double)map3d_tet(nb);
        map3d_plan p;
        char err[256];
        double r;
        map3d_plan_make(map3d_find("bb"), nb, NULL, &p, err, sizeof err);
        r = (double)map3d_plan_blocks(&p) / tet;
        gsl_test(fabs(r - row[i].bb) > 0.5e-4, "waste table: bb at nb = %d is %.4f (got %.6f)", nb,
                 row[i].bb, r);
        map3d_plan_make(map3d_find("rec"), nb, NULL, &p, err, sizeof err);
        r = (double)map3d_plan_blocks(&p) / tet;
        gsl_test(fabs(r - row[i].rec) > 0.5e-4 || p.n_launch != row[i].rec_launches,
                 "waste table: rec at nb = %d is %.4f in %d segments (got %.6f in %d)", nb,
                 row[i].rec, row[i].rec_launches, r, p.n_launch);
        for (const char *nm = "lambda"; nm; nm = strcmp(nm, "lambda") ? NULL : "table") {
            long long spare;
            map3d_plan_make(map3d_find(nm), nb, NULL, &p, err, sizeof err);
            spare = map3d_plan_blocks(&p) - map3d_tet(nb);
            /* 1 (1D grid) below nb = 2344; at 4096 the 2D grid 1,910,272,683 x 6 has 2 spare */
            gsl_test(nb == 4096 || nb == 4095
                         ? (nb == 4096 && (p.launch[0].gx != 1910272683u || p.launch[0].gy != 6 ||
                                           spare != 2)) || spare < 0 || spare >= p.launch[0].gy
                         : spare != 0,
                     "waste table: %s at nb = %d: grid %u x %u, %lld spare blocks (ratio %.7f)", nm,
                     nb, p.launch[0].gx, p.launch[0].gy, spare,
                     (double)map3d_plan_blocks(&p) / tet);
            map3d_plan_free(&p);
        }
    }
}

/* ---- mutation tests: deliberately broken maps must fail the checkers ---- */

static int mut_mode;
static int mut_first(const map3d_launch *L, unsigned bx, unsigned by, unsigned bz, map3d_cursor *c)
{
    if (!map3d_lambda_first(L, bx, by, bz, c))
        return 0;
    switch (mut_mode) {
    case 0: /* drop the diagonal tile (2,2,2) */
        return !(c->I == 2 && c->J == 2 && c->K == 2);
    case 1: /* (3,3,3) comes out as (2,2,2): one duplicate, one missing */
        if (c->I == 3 && c->J == 3 && c->K == 3)
            c->I = c->J = c->K = 2;
        return 1;
    case 2: /* the last tile comes out one layer too far */
        if (c->I == L->nb - 1)
            c->K = L->nb;
        return 1;
    case 3: /* a face tile (1,1,4) drops its row: (1,1,4) -> (0,1,4), duplicate */
        if (c->I == 1 && c->J == 1 && c->K == 4)
            c->I = 0;
        return 1;
    default: /* 4: a layer-start tile is off by one (seen by the sampled check) */
        if (c->I == 0 && c->J == 0 && c->K == 3000)
            c->J = 1;
        return 1;
    }
}
static int mut_next(const map3d_launch *L, map3d_cursor *c)
{
    return map3d_lambda_next(L, c);
}
static const map3d_type mut_type = {"mutant", "lambda with one tile broken", 94517, 0,
                                    map3d_lambda_plan, mut_first, mut_next};

/* A persistent mutant: stride whose blocks stop one tile early. */
static int mut_stride_first(const map3d_launch *L, unsigned bx, unsigned by, unsigned bz,
                            map3d_cursor *c)
{
    int got = map3d_stride_first(L, bx, by, bz, c);
    if (got && bx == 3 && c->left > 0)
        c->left--;
    return got;
}
static int mut_stride_next(const map3d_launch *L, map3d_cursor *c)
{
    return map3d_stride_next(L, c);
}
static const map3d_type mut_stride_type = {"mutant-stride", "stride, block 3 one tile short",
                                           2097150, 1, map3d_stride_plan, mut_stride_first,
                                           mut_stride_next};

static void test_mutations(void)
{
    static const char *const what[] = {"drops diagonal tile (2,2,2)", "duplicates (2,2,2)",
                                       "produces a tile outside D3", "moves face tile (1,1,4)"};
    map3d_plan p;
    map_check r;
    char err[256];
    int rc;
    map3d_plan_make(&mut_type, 12, NULL, &p, err, sizeof err);
    for (mut_mode = 0; mut_mode < 4; mut_mode++) {
        rc = map3d_check_tiles(&mut_type, &p, &r);
        gsl_test(rc != 1 || (mut_mode == 0 && r.missing != 1) ||
                     (mut_mode == 1 && (r.duplicate != 1 || r.missing != 1)) ||
                     (mut_mode == 2 && r.outside != 1) || (mut_mode == 3 && r.duplicate != 1),
                 "mutation: tile check catches a map that %s (%lld outside, %lld duplicate, %lld "
                 "missing: %s)", what[mut_mode], r.outside, r.duplicate, r.missing, r.first);
    }
    /* at particle level: n = 35, edge 3 gives nb = 12 */
    for (mut_mode = 0; mut_mode < 4; mut_mode++) {
        rc = map3d_check_particles(&mut_type, &p, 35, 3, &r);
        gsl_test(rc != 1, "mutation: particle check catches a map that %s (%s)", what[mut_mode],
                 r.first);
    }
    map3d_plan_free(&p);
    /* the sampled check at a size too large to walk: layer 3000 starts at a boundary it visits */
    mut_mode = 4;
    map3d_plan_make(&mut_type, 4096, NULL, &p, err, sizeof err);
    rc = map3d_check_sampled(&mut_type, &p, 1, 1 << 16, 7, &r);
    gsl_test(rc != 1 || r.mismatch < 1,
             "mutation: sampled check at nb = 4096 catches a wrong layer-start tile (%s)", r.first);
    map3d_plan_free(&p);
    /* persistent: one block a tile short */
    map3d_plan_make(&mut_stride_type, 30, NULL, &p, err, sizeof err);
    rc = map3d_check_tiles(&mut_stride_type, &p, &r);
    gsl_test(rc != 1 || r.missing != 1,
             "mutation: tile check catches a persistent block one tile short (%lld missing: %s)",
             r.missing, r.first);
    rc = map3d_check_sampled(&mut_stride_type, &p, 1, 1000, 7, &r);
    gsl_test(rc != 1, "mutation: sampled check catches it too (%s)", r.first);
}

/* The enumeration probe and the sampled check at nb = 4096 (Tet = 1.1e10 tiles). */
static void test_sampled(void)
{
    for (int i = 0; map3d_all[i]; i++) {
        const map3d_type *t = map3d_all[i];
        int want = !strcmp(t->name, "lambda") || !strcmp(t->name, "table") ||
                   !strcmp(t->name, "stride");
        int ordered = map3d_check_ordered(t, NULL), rc;
        map3d_plan p;
        map_check r;
        char err[256];
        gsl_test(ordered != want, "%s: enumeration probe says %d (expected %d)", t->name, ordered,
                 want);
        map3d_plan_make(t, 4096, NULL, &p, err, sizeof err);
        rc = map3d_check_sampled(t, &p, ordered == 1, 1 << 18, 12345, &r);
        gsl_test(rc, "%s: sampled check at nb = 4096 (%lld blocks%s) %s", t->name, r.blocks,
                 ordered == 1 ? ", enumeration identity" : ", inside D3 only", r.first);
        map3d_plan_free(&p);
    }
}

/* `tribody maps` exit statuses, with its output (stdout and stderr) sent to /dev/null. */
static int run_maps(int argc, const char *const *args)
{
    char *argv[16];
    int saved = dup(1), saved2 = dup(2), devnull = open("/dev/null", O_WRONLY), rc;
    for (int i = 0; i < argc; i++)
        argv[i] = (char *)args[i];
    fflush(stdout);
    dup2(devnull, 1);
    dup2(devnull, 2);
    rc = cmd_maps(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    dup2(saved2, 2);
    close(devnull);
    close(saved);
    close(saved2);
    return rc;
}

static void test_cmd(void)
{
    static const char *const ok1[] = {"maps", "--n", "200", "--tile", "7", "--check"};
    static const char *const ok2[] = {"maps", "--n", "150", "--tile", "4", "--map", "all2d",
                                      "--map", "rec", "--check"};
    static const char *const ok3[] = {"maps", "--n", "32768", "--tile", "8", "--check"};
    static const char *const bad1[] = {"maps", "--n", "10", "--tile", "x"};
    static const char *const bad2[] = {"maps", "--n", "10"};
    static const char *const bad3[] = {"maps", "--n", "10", "--tile", "2", "--map", "nope"};
    static const char *const big[] = {"maps", "--n", "100000000", "--tile", "1", "--map", "bb"};
    gsl_test(run_maps(6, ok1) != 0, "tribody maps --n 200 --tile 7 --check exits 0");
    gsl_test(run_maps(10, ok2) != 0, "tribody maps --map all2d --map rec --check exits 0");
    gsl_test(run_maps(6, ok3) != 0, "tribody maps --n 32768 --tile 8 --check (sampled) exits 0");
    gsl_test(run_maps(5, bad1) != 2, "tribody maps --tile x exits 2");
    gsl_test(run_maps(3, bad2) != 2, "tribody maps without --tile exits 2");
    gsl_test(run_maps(7, bad3) != 2, "tribody maps --map nope exits 2");
    gsl_test(run_maps(7, big) != 1, "tribody maps --map bb beyond its range exits 1");
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_limits);
    TB_TEST_RUN(test_registry_tiles);
    TB_TEST_RUN(test_rec);
    TB_TEST_RUN(test_stride);
    TB_TEST_RUN(test_particles);
    TB_TEST_RUN(test_waste_table);
    TB_TEST_RUN(test_mutations);
    TB_TEST_RUN(test_sampled);
    TB_TEST_RUN(test_cmd);
    return tb_test_done();
}
