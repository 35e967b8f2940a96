/* cmd_maps.c — `tribody maps`: the block maps' grids and waste for n particles and a tile
 * edge, and with --check their coverage verified on the CPU (docs/maps.md#checking-a-map).
 *
 * For each map: its launches and grid sides, blocks launched, blocks that exit at once,
 * tiles (useful blocks), the wasted fraction of the launched blocks, blocks / tiles (the
 * volume ratio of docs/maps.md#waste) and the largest n it supports (max_nb x tile).
 * --check walks every block of every launch exactly as launched (mapcheck.h): exhaustively
 * at tile level while the domain fits the bitset limit (--check-limit, default 2^31 elements =
 * 256 MiB), and at particle level (i < j < k < n, the kernel's mask) likewise; above the
 * limit it runs the sampled check and says what was and was not checked. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "maps3d/mapcheck.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "common/tb.h"

#define MAPS_MAX_SELECTED 64
#define MAPS_DEFAULT_LIMIT (1LL << 31)  /* elements of an exhaustive check: 256 MiB of bits */
#define MAPS_SAMPLES (1LL << 22)        /* random blocks of a sampled check */

static const char maps_usage[] =
    "usage: tribody maps --n N --tile R [--map M ...] [--check] [options]\n"
    "\n"
    "Shows, for n particles in tiles of R (nb = ceil(n/R) tiles per dimension), each block\n"
    "map's launches and grid sides, blocks launched, blocks that exit at once, tiles (useful\n"
    "blocks), the wasted fraction, blocks / tiles, and the largest n the map supports.\n"
    "\n"
    "options:\n"
    "  --n N             number of particles (>= 1)\n"
    "  --tile R          tile edge in particles (>= 1)\n"
    "  --map M           a map to show (repeatable): a tetrahedral map, a triangular (2D) map,\n"
    "                    all (every tetrahedral map, the default) or all2d (every 2D map)\n"
    "  --check           verify coverage on the CPU: every tile exactly once and nothing\n"
    "                    outside (tile level), every i<j<k<n exactly once (particle level)\n"
    "  --check-limit E   largest domain (tiles or particle triplets) checked exhaustively,\n"
    "                    one bit each (default 2147483648 = 256 MiB); larger tile domains get\n"
    "                    a sampled check, larger particle domains none\n"
    "  --root V          lambda2d root variant: exact, sqrtf, rsqrtf, newton (default exact)\n"
    "  --persistent G    stride: resident blocks (default 0 = the map's default)\n"
    "  -h, --help        this help\n"
    "\n"
    "exit status: 0 all shown (and checked) fine, 1 a check failed or a named map cannot\n"
    "plan this n, 2 bad usage\n";

typedef struct maps_sel {
    const map3d_type *t3; /* exactly one of t3, t2 */
    const map2d_type *t2;
    int named;            /* named on the command line (a plan failure is an error) */
} maps_sel;

static double maps_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* "11,461,636,096" into buf. */
static const char *maps_count(char *buf, size_t len, long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%lld", v < 0 ? -v : v), o = 0;
    if (v < 0 && o < (int)len - 1)
        buf[o++] = '-';
    for (int i = 0; i < n && o < (int)len - 1; i++) {
        if (i && (n - i) % 3 == 0 && o < (int)len - 2)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

static int maps_int_arg(const char *opt, const char *val, long long lo, long long hi, long long *out)
{
    char *end;
    long long v;
    if (!val) {
        tb_error(NULL, 0, "maps: %s: expected an integer >= %lld (got nothing)", opt, lo);
        return -1;
    }
    errno = 0;
    v = strtoll(val, &end, 10);
    if (errno || end == val || *end || v < lo || v > hi) {
        if (hi < LLONG_MAX)
            tb_error(NULL, 0, "maps: %s: expected an integer in %lld..%lld (got \"%s\")", opt, lo,
                     hi, val);
        else
            tb_error(NULL, 0, "maps: %s: expected an integer >= %lld (got \"%s\")", opt, lo, val);
        return -1;
    }
    *out = v;
    return 0;
}

static int maps_add(maps_sel *sel, int *nsel, const map3d_type *t3, const map2d_type *t2,
                    int named)
{
    for (int i = 0; i < *nsel; i++)
        if (sel[i].t3 == t3 && sel[i].t2 == t2)
            return 0;
    if (*nsel >= MAPS_MAX_SELECTED) {
        tb_error(NULL, 0, "maps: --map: more than %d maps", MAPS_MAX_SELECTED);
        return -1;
    }
    sel[*nsel].t3 = t3;
    sel[*nsel].t2 = t2;
    sel[*nsel].named = named;
    (*nsel)++;
    return 0;
}

static void maps_ratio(char *buf, size_t len, long long blocks, long long tiles)
{
    double r = (double)blocks / (double)tiles;
    if (blocks != tiles && r < 1.0001 && r > 0.9999)
        snprintf(buf, len, "%.7f", r);
    else
        snprintf(buf, len, "%.4f", r);
}

static void maps_header(const char *dom)
{
    printf("%-9s %8s  %-24s %18s %16s %18s %8s %10s %14s\n", "map", "launches", "grid (first launch)",
           "blocks launched", "blocks exiting", dom, "wasted", "blocks/", "max n");
    printf("%-9s %8s  %-24s %18s %16s %18s %8s %10s %14s\n", "", "", "", "", "", "", "", "tiles",
           "(max_nb x R)");
}

/* One tetrahedral map's row (and its other launches). Returns 0, or -1 when it cannot plan. */
static int maps_row3(const map3d_type *t, int nb, int edge, const map3d_opts *o, map3d_plan *p)
{
    char err[256], b1[32], b2[32], b3[32], b4[32], grid[48], ratio[32];
    long long blocks, tiles, exiting;
    if (map3d_plan_make(t, nb, o, p, err, sizeof err)) {
        printf("%-9s cannot plan: %s\n", t->name, err);
        return -1;
    }
    tiles = map3d_tet(nb); /* nb <= max_nb: fits int64 */
    blocks = map3d_plan_blocks(p);
    if (!t->persistent) {
        exiting = blocks - tiles;
    } else { /* persistent: count the blocks whose range is empty */
        exiting = 0;
        for (int li = 0; li < p->n_launch; li++) {
            const map3d_launch *L = &p->launch[li];
            for (unsigned z = 0; z < L->gz; z++)
                for (unsigned y = 0; y < L->gy; y++)
                    for (unsigned x = 0; x < L->gx; x++) {
                        map3d_cursor c;
                        exiting += !t->first(L, x, y, z, &c);
                    }
        }
    }
    snprintf(grid, sizeof grid, "%u x %u x %u", p->launch[0].gx, p->launch[0].gy, p->launch[0].gz);
    if (t->persistent)
        snprintf(ratio, sizeof ratio, "-");
    else
        maps_ratio(ratio, sizeof ratio, blocks, tiles);
    printf("%-9s %8d  %-24s %18s %16s %18s %7.3f%% %10s %14s\n", t->name, p->n_launch, grid,
           maps_count(b1, sizeof b1, blocks), maps_count(b2, sizeof b2, exiting),
           maps_count(b3, sizeof b3, tiles), 100.0 * (double)exiting / (double)blocks, ratio,
           maps_count(b4, sizeof b4, t->max_nb * edge));
    if (t->persistent)
        printf("%-9s %8s  persistent: each of the %lld blocks walks about %lld tiles "
               "(blocks/tiles does not apply)\n", "", "", blocks, tiles / (blocks ? blocks : 1));
    for (int li = 1; li < p->n_launch; li++) {
        const map3d_launch *L = &p->launch[li];
        snprintf(grid, sizeof grid, "%u x %u x %u", L->gx, L->gy, L->gz);
        printf("%-9s %8s  %-24s %18s\n", "", li == 1 ? "+ launch" : "",
               grid, maps_count(b1, sizeof b1, (long long)L->gx * L->gy * L->gz));
    }
    return 0;
}

static int maps_row2(const map2d_type *t, int nb, int edge, const map2d_opts *o, map2d_plan *p)
{
    char err[256], b1[32], b2[32], b3[32], b4[32], grid[48], ratio[32], name[40];
    long long blocks, tiles = map3d_tri(nb);
    if (strcmp(t->name, "lambda2d") == 0 && o->root != MAP2D_ROOT_EXACT)
        snprintf(name, sizeof name, "%s:%s", t->name, map2d_root_name(o->root));
    else
        snprintf(name, sizeof name, "%s", t->name);
    if (map2d_plan_make(t, nb, o, p, err, sizeof err)) {
        printf("%-9s cannot plan: %s\n", name, err);
        return -1;
    }
    blocks = map2d_plan_blocks(p);
    snprintf(grid, sizeof grid, "%u x %u", p->launch[0].gx, p->launch[0].gy);
    maps_ratio(ratio, sizeof ratio, blocks, tiles);
    printf("%-9s %8d  %-24s %18s %16s %18s %7.3f%% %10s %14s\n", name, p->n_launch, grid,
           maps_count(b1, sizeof b1, blocks), maps_count(b2, sizeof b2, blocks - tiles),
           maps_count(b3, sizeof b3, tiles), 100.0 * (double)(blocks - tiles) / (double)blocks,
           ratio, maps_count(b4, sizeof b4, t->max_nb * edge));
    for (int li = 1; li < p->n_launch; li++) {
        const map2d_launch *L = &p->launch[li];
        snprintf(grid, sizeof grid, "%u x %u", L->gx, L->gy);
        printf("%-9s %8s  %-24s %18s\n", "", li == 1 ? "+ launch" : "", grid,
               maps_count(b1, sizeof b1, (long long)L->gx * L->gy));
    }
    return 0;
}

/* Prints one check's verdict line; returns 1 on failure. */
static int maps_verdict(const char *name, const char *level, int rc, const map_check *r,
                        const char *unit, double secs, int *partial)
{
    char b1[32], b2[32];
    if (rc == 0) {
        printf("  %-9s %-9s PASS  every one of %s %s exactly once, nothing outside (%s blocks, "
               "%.1f s)\n", name, level, maps_count(b1, sizeof b1, r->expected), unit,
               maps_count(b2, sizeof b2, r->blocks), secs);
        return 0;
    }
    if (rc < 0) {
        *partial = 1;
        printf("  %-9s %-9s NOT CHECKED  %s\n", name, level, r->first);
        return 0;
    }
    printf("  %-9s %-9s FAIL  %lld outside, %lld duplicate, %lld missing; first: %s\n", name,
           level, r->outside, r->duplicate, r->missing, r->first);
    return 1;
}

static int maps_check3(const map3d_type *t, const map3d_plan *p, const map3d_opts *o, int n,
                       int edge, long long limit, int *partial)
{
    map_check r;
    char b1[32], b2[32], b3[32];
    int fail = 0, rc;
    long long tet = map3d_tet(p->nb), trip = map_check_triplets(n);
    double t0 = maps_now();
    if (tet <= limit) {
        rc = map3d_check_tiles(t, p, &r);
        fail |= maps_verdict(t->name, "tiles", rc, &r, "tiles", maps_now() - t0, partial);
    } else {
        int ordered = map3d_check_ordered(t, o);
        *partial = 1;
        rc = map3d_check_sampled(t, p, ordered == 1, MAPS_SAMPLES, 0x7462u, &r);
        if (rc) {
            printf("  %-9s %-9s FAIL  sampled: %lld outside, %lld enumeration mismatches; first: "
                   "%s\n", t->name, "tiles", r.outside, r.mismatch, r.first);
            fail = 1;
        } else if (ordered == 1) {
            printf("  %-9s %-9s PASS (sampled)  Tet = %s tiles > --check-limit %s: enumeration "
                   "identity (block g gives tile idx3^-1(g)) held at %s blocks (%s), every tile "
                   "inside D3(%d); not an exhaustive proof (%.1f s)\n",
                   t->name, "tiles", maps_count(b1, sizeof b1, tet),
                   maps_count(b2, sizeof b2, limit), maps_count(b3, sizeof b3, r.blocks),
                   t->persistent ? "every block's start, whole walks of 8 blocks"
                                 : "random, every layer boundary, the spare blocks",
                   p->nb, maps_now() - t0);
        } else {
            printf("  %-9s %-9s PASS (sampled)  Tet = %s tiles > --check-limit %s: %s random "
                   "blocks gave tiles inside D3(%d); uniqueness and completeness NOT checked "
                   "at this size (%.1f s)\n", t->name, "tiles", maps_count(b1, sizeof b1, tet),
                   maps_count(b2, sizeof b2, limit), maps_count(b3, sizeof b3, r.blocks), p->nb,
                   maps_now() - t0);
        }
    }
    if (trip <= limit) {
        t0 = maps_now();
        rc = map3d_check_particles(t, p, n, edge, &r);
        fail |= maps_verdict(t->name, "particles", rc, &r, "triplets i<j<k<n",
                             maps_now() - t0, partial);
    } else {
        *partial = 1;
        printf("  %-9s %-9s NOT CHECKED  C(%d,3) = %s triplets > --check-limit %s (%s bytes of bitset)\n",
               t->name, "particles", n, maps_count(b1, sizeof b1, trip),
               maps_count(b2, sizeof b2, limit),
               maps_count(b3, sizeof b3, map_check_bytes(trip)));
    }
    return fail;
}

static int maps_check2(const map2d_type *t, const map2d_plan *p, const char *name, int n,
                       int edge, long long limit, int *partial)
{
    map_check r;
    char b1[32], b2[32];
    int fail = 0, rc;
    long long t2 = map3d_tri(p->nb), pairs = map_check_pairs(n);
    double t0 = maps_now();
    if (t2 <= limit) {
        rc = map2d_check_tiles(t, p, &r);
        fail |= maps_verdict(name, "tiles", rc, &r, "tiles", maps_now() - t0, partial);
    } else {
        *partial = 1;
        printf("  %-9s %-9s NOT CHECKED  T2 = %s tiles > --check-limit %s\n", name, "tiles",
               maps_count(b1, sizeof b1, t2), maps_count(b2, sizeof b2, limit));
    }
    if (pairs <= limit) {
        t0 = maps_now();
        rc = map2d_check_particles(t, p, n, edge, &r);
        fail |= maps_verdict(name, "particles", rc, &r, "pairs i<j<n", maps_now() - t0, partial);
    } else {
        *partial = 1;
        printf("  %-9s %-9s NOT CHECKED  C(%d,2) = %s pairs > --check-limit %s\n", name,
               "particles", n, maps_count(b1, sizeof b1, pairs), maps_count(b2, sizeof b2, limit));
    }
    return fail;
}

int cmd_maps(int argc, char **argv)
{
    maps_sel sel[MAPS_MAX_SELECTED];
    int nsel = 0, check = 0, fail = 0, any3 = 0, any2 = 0, partial = 0;
    long long n = -1, edge = -1, limit = MAPS_DEFAULT_LIMIT, v;
    map3d_opts o3 = {0};
    map2d_opts o2 = {0};
    char names3[512], names2[512], b1[32], b2[32];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(maps_usage, stdout);
            return TB_EXIT_OK;
        } else if (!strcmp(a, "--n")) {
            if (maps_int_arg("--n", val, 1, INT_MAX, &n))
                return TB_EXIT_USAGE;
            i++;
        } else if (!strcmp(a, "--tile")) {
            if (maps_int_arg("--tile", val, 1, LLONG_MAX, &edge))
                return TB_EXIT_USAGE;
            if (edge > INT_MAX)
                edge = INT_MAX;
            i++;
        } else if (!strcmp(a, "--check")) {
            check = 1;
        } else if (!strcmp(a, "--check-limit")) {
            if (maps_int_arg("--check-limit", val, 1, 1LL << 40, &limit))
                return TB_EXIT_USAGE;
            i++;
        } else if (!strcmp(a, "--persistent")) {
            if (maps_int_arg("--persistent", val, 0, INT_MAX, &v))
                return TB_EXIT_USAGE;
            o3.persistent_blocks = (int)v;
            i++;
        } else if (!strcmp(a, "--root")) {
            if (!val || (o2.root = map2d_root_find(val)) < 0) {
                tb_error(NULL, 0, "maps: --root: expected exact, sqrtf, rsqrtf or newton (got \"%s\")",
                         val ? val : "");
                return TB_EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(a, "--map")) {
            const map3d_type *t3;
            const map2d_type *t2;
            if (!val) {
                tb_error(NULL, 0, "maps: --map: expected a map name (got nothing)");
                return TB_EXIT_USAGE;
            }
            if (!strcmp(val, "all")) {
                for (int k = 0; map3d_all[k]; k++)
                    if (maps_add(sel, &nsel, map3d_all[k], NULL, 0))
                        return TB_EXIT_USAGE;
            } else if (!strcmp(val, "all2d")) {
                for (int k = 0; map2d_all[k]; k++)
                    if (maps_add(sel, &nsel, NULL, map2d_all[k], 0))
                        return TB_EXIT_USAGE;
            } else if ((t3 = map3d_find(val))) {
                if (maps_add(sel, &nsel, t3, NULL, 1))
                    return TB_EXIT_USAGE;
            } else if ((t2 = map2d_find(val))) {
                if (maps_add(sel, &nsel, NULL, t2, 1))
                    return TB_EXIT_USAGE;
            } else {
                map3d_names(names3, sizeof names3);
                map2d_names(names2, sizeof names2);
                tb_error(NULL, 0, "maps: --map: unknown map \"%s\" (tetrahedral: %s; 2D: %s; or "
                         "all, all2d)", val, names3, names2);
                return TB_EXIT_USAGE;
            }
            i++;
        } else {
            tb_error(NULL, 0, "maps: unknown option \"%s\" (see tribody maps --help)", a);
            return TB_EXIT_USAGE;
        }
    }
    if (n < 0 || edge < 0) {
        tb_error(NULL, 0, "maps: --n and --tile are required (see tribody maps --help)");
        return TB_EXIT_USAGE;
    }
    if (nsel == 0)
        for (int k = 0; map3d_all[k]; k++)
            maps_add(sel, &nsel, map3d_all[k], NULL, 0);
    for (int k = 0; k < nsel; k++) {
        any3 |= sel[k].t3 != NULL;
        any2 |= sel[k].t2 != NULL;
    }

    const int nb = (int)((n + edge - 1) / edge);
    printf("tribody maps: n = %lld particles, tile edge %lld: nb = %d tiles per dimension\n", n, edge,
           nb);
    if (any3) {
        long long trip = map_check_triplets(n);
        if (trip == LLONG_MAX) /* beyond int64: n > 3.8e6 */
            snprintf(b2, sizeof b2, "%.3g", (double)n * (double)(n - 1) * (double)(n - 2) / 6);
        else
            maps_count(b2, sizeof b2, trip);
        if (nb > 2097151) /* Tet(nb) beyond int64 */
            snprintf(b1, sizeof b1, "%.3g", (double)nb * (nb + 1.0) * (nb + 2.0) / 6);
        else
            maps_count(b1, sizeof b1, map3d_tet(nb));
        printf("  tetrahedron D3(%d): Tet(nb) = %s tiles; C(n,3) = %s triplets i<j<k\n", nb, b1,
               b2);
    }
    if (any2)
        printf("  triangle D2(%d): T2(nb) = %s tiles; C(n,2) = %s pairs i<j\n", nb,
               maps_count(b1, sizeof b1, map3d_tri(nb)), maps_count(b2, sizeof b2, map_check_pairs(n)));
    printf("\n");

    for (int pass = 0; pass < 2; pass++) {
        int shown = 0;
        for (int k = 0; k < nsel; k++) {
            if ((pass == 0) != (sel[k].t3 != NULL))
                continue;
            if (!shown++)
                maps_header("tiles (useful)");
            if (pass == 0) {
                map3d_plan p;
                if (maps_row3(sel[k].t3, nb, (int)edge, &o3, &p)) {
                    fail |= sel[k].named;
                    continue;
                }
                if (check)
                    fail |= maps_check3(sel[k].t3, &p, &o3, (int)n, (int)edge, limit, &partial);
                map3d_plan_free(&p);
            } else {
                map2d_plan p;
                if (maps_row2(sel[k].t2, nb, (int)edge, &o2, &p)) {
                    fail |= sel[k].named;
                    continue;
                }
                if (check)
                    fail |= maps_check2(sel[k].t2, &p, sel[k].t2->name, (int)n, (int)edge, limit,
                                       &partial);
            }
        }
        if (shown)
            printf("\n");
    }
    if (check)
        printf("check: %s\n", fail      ? "FAILED"
                               : partial ? "no failure found, but some checks above were sampled or "
                                           "not done (NOT CHECKED): not a complete verification"
                                         : "PASSED: every map shown covers its domain exactly, at "
                                           "tile and particle level");
    return fail ? TB_EXIT_RUNTIME : TB_EXIT_OK;
}
