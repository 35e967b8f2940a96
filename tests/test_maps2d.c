/* test_maps2d.c — every map of the tile triangle D2(nb), by iterating the registry map2d_all.
 *
 * docs/maps.md#checking-a-map, in 2D:
 * - tile level: one counter per tile of D2(nb); every block of every launch is walked exactly
 *   as launched (same grid sides, bx fastest). Pass iff every counter is 1, nothing falls
 *   outside 0 <= I <= J < nb, and kept + discarded = the plan's block count. nb = 1..300 and
 *   the production sizes below; one line per (map, nb);
 * - particle level: each kept tile is expanded into its pairs with the kernel's mask (tile T
 *   holds the particles [T R, min((T+1) R, n)); on a diagonal tile only i < j); every pair
 *   i < j < n must come out once. n = 2..40, 64, 127 and tile edges 1, 3, 8, 16, > n;
 * - waste: blocks / T2(nb) at nb = 8, 64, 512, 4096 against docs/maps.md#bb2d and the
 *   numbers each map's header documents;
 * - plans for nb = 1..min(max_nb, 131070) and max_nb: grids within CUDA's limits, launches within
 *   MAP2D_MAX_LAUNCH, blocks >= T2(nb) (= T2(nb) for the zero-waste maps);
 * - utm2d: the 2D grid beyond 2^31-1 blocks and every row boundary at its max_nb, and the
 *   recorded counterexample to the formula as printed;
 * - mutations: a wrapper that drops, duplicates or misplaces one tile must make both
 *   checkers report failure.
 * lambda2d's float-only roots are run only where map2d_root_max_nb() says they are exact and
 * only up to nb = 128 here (their ranges are tested in lambda2d's own test); its default
 * root ("exact") runs everywhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/map2d.h"
#include "maps3d/maps2d.def"
#include "tests/tb_test.h"

#define NB_MAX_TESTED 4096
#define ROOT_NB_CAP 128 /* float-only lambda2d roots: only here, see the header */

static const int extra_nb[] = {512, 1000, 1023, 1024, 1025, 2047, 2048, 4094, 4096};

static long long t2(long long r)
{
    return r * (r + 1) / 2;
}

/* One map under test: a registry entry with the options it runs with. */
typedef struct subject {
    const map2d_type *t;
    map2d_opts o;
    char label[64];
    int nb_cap; /* largest nb to test (root variants), else INT max */
} subject;

/* ---- tile-level checker ---------------------------------------------------------------- */

static unsigned char *g_cnt; /* T2(NB_MAX_TESTED) counters */

/* Walks every block of every launch of plan p as launched. Returns 0 iff every tile of
 * D2(nb) came out once and nothing else; else -1 with the first problem in why.
 * A walk of its own, like bench_host_sig2's on purpose: the independent check of mapcheck.c. */
static int check_tiles(const map2d_type *t, const map2d_plan *p, long long *blocks_out,
                       char *why, size_t len)
{
    const int nb = p->nb;
    const long long nt = t2(nb);
    long long kept = 0, discarded = 0, outside = 0;
    map2d_cursor bad = {0, 0};
    why[0] = '\0';
    memset(g_cnt, 0, (size_t)nt);
    for (int l = 0; l < p->n_launch; l++) {
        const map2d_launch *L = &p->launch[l];
        for (unsigned by = 0; by < L->gy; by++)
            for (unsigned bx = 0; bx < L->gx; bx++) {
                map2d_cursor c;
                if (!t->first(L, bx, by, &c)) {
                    discarded++;
                    continue;
                }
                kept++;
                if (c.I < 0 || c.I > c.J || c.J >= nb) {
                    if (!outside++)
                        bad = c;
                    continue;
                }
                unsigned char *k = &g_cnt[t2(c.J) + c.I];
                if (*k < 255)
                    (*k)++;
            }
    }
    *blocks_out = kept + discarded;
    if (outside) {
        snprintf(why, len, "%lld tiles outside D2(%d), first (%d,%d)", outside, nb, bad.I, bad.J);
        return -1;
    }
    if (kept + discarded != map2d_plan_blocks(p)) {
        snprintf(why, len, "walked %lld blocks, plan says %lld", kept + discarded,
                 map2d_plan_blocks(p));
        return -1;
    }
    for (int J = 0; J < nb; J++)
        for (int I = 0; I <= J; I++) {
            const int k = g_cnt[t2(J) + I];
            if (k != 1) {
                snprintf(why, len, "tile (%d,%d) came out %d times", I, J, k);
                return -1;
            }
        }
    return 0;
}

static void test_tiles_at(const subject *s, int nb)
{
    map2d_plan p;
    char err[256], why[256];
    long long blocks = 0;
    if (map2d_plan_make(s->t, nb, &s->o, &p, err, sizeof err) != 0) {
        gsl_test(1, "%s: tile coverage nb = %d: plan failed: %s", s->label, nb, err);
        return;
    }
    const int bad = check_tiles(s->t, &p, &blocks, why, sizeof why);
    gsl_test(bad, "%s: tile coverage nb = %d (%d launches, ratio %.4f)%s%s", s->label, nb,
             p.n_launch, (double)blocks / (double)t2(nb), bad ? ": " : "", why);
}

/* ---- particle-level checker ------------------------------------------------------------ */

/* Expands every kept tile into its pairs with the kernel's mask. Returns 0 iff every pair
 * i < j < n came out once and no other pair did. */
static int check_pairs(const map2d_type *t, const map2d_opts *o, int n, int edge, char *why,
                       size_t len)
{
    static int cnt[127 * 127];
    const int nb = (n + edge - 1) / edge;
    map2d_plan p;
    char err[160];
    if (map2d_plan_make(t, nb, o, &p, err, sizeof err) != 0) {
        snprintf(why, len, "edge %d: plan failed: %s", edge, err);
        return -1;
    }
    memset(cnt, 0, sizeof cnt);
    for (int l = 0; l < p.n_launch; l++) {
        const map2d_launch *L = &p.launch[l];
        for (unsigned by = 0; by < L->gy; by++)
            for (unsigned bx = 0; bx < L->gx; bx++) {
                map2d_cursor c;
                if (!t->first(L, bx, by, &c))
                    continue;
                if (c.I < 0 || c.J >= nb || c.I > c.J) {
                    snprintf(why, len, "edge %d: tile (%d,%d) outside D2(%d)", edge, c.I, c.J, nb);
                    return -1;
                }
                const int i1 = c.I * edge + edge < n ? c.I * edge + edge : n;
                const int j1 = c.J * edge + edge < n ? c.J * edge + edge : n;
                for (int i = c.I * edge; i < i1; i++)
                    for (int j = c.J * edge; j < j1; j++)
                        if (c.I != c.J || i < j)
                            cnt[i * n + j]++;
            }
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            const int want = i < j;
            if (cnt[i * n + j] != want) {
                snprintf(why, len, "edge %d: pair (%d,%d) came out %d times", edge, i, j,
                         cnt[i * n + j]);
                return -1;
            }
        }
    return 0;
}

static void test_pairs(const subject *s)
{
    static const int ns_extra[] = {64, 127};
    for (int q = 0; q < 39 + 2; q++) {
        const int n = q < 39 ? q + 2 : ns_extra[q - 39];
        const int edges[] = {1, 3, 8, 16, n + 1};
        char why[256] = "";
        int bad = 0;
        if (n > s->nb_cap) /* nb = n at edge 1 */
            continue;
        for (int e = 0; e < 5 && !bad; e++)
            bad = check_pairs(s->t, &s->o, n, edges[e], why, sizeof why);
        gsl_test(bad, "%s: particle pairs n = %d, edges 1, 3, 8, 16, %d%s%s", s->label, n, n + 1,
                 bad ? ": " : "", why);
    }
}

/* ---- waste ----------------------------------------------------------------------------- */

/* Documented blocks / T2(nb) at nb = 8, 64, 512, 4096, with the number of decimals printed
 * in the source (the check allows half a unit in the last one). */
static const struct {
    const char *name;
    double r[4];
    int digits[4];
    const char *source;
} waste_ref[] = {
    {"bb2d", {1.78, 1.97, 1.996, 1.9995}, {2, 2, 3, 4}, "docs/maps.md#bb2d"},
    {"rec2d", {1, 1, 1, 1}, {9, 9, 9, 9}, "rec2d.h: zero waste"},
    {"rb2d", {1, 1, 1, 1}, {9, 9, 9, 9}, "rb2d.h: zero waste"},
    {"utm2d", {1, 1, 1, 1}, {9, 9, 9, 9}, "utm2d.h: 1D grid, zero waste"},
    {"lambda2d", {1, 1, 1, 1}, {9, 9, 9, 9}, "docs/maps.md#lambda2d: 1D grid, ratio 1"},
};

static void test_waste(const subject *s)
{
    static const int nbs[4] = {8, 64, 512, 4096};
    int ref = -1;
    for (size_t i = 0; i < sizeof waste_ref / sizeof waste_ref[0]; i++)
        if (strcmp(waste_ref[i].name, s->t->name) == 0)
            ref = (int)i;
    for (int q = 0; q < 4; q++) {
        map2d_plan p;
        char err[256];
        if (nbs[q] > s->nb_cap)
            continue;
        if (map2d_plan_make(s->t, nbs[q], &s->o, &p, err, sizeof err) != 0) {
            gsl_test(1, "%s: waste at nb = %d: plan failed: %s", s->label, nbs[q], err);
            continue;
        }
        const double r = (double)map2d_plan_blocks(&p) / (double)t2(nbs[q]);
        if (ref < 0) {
            gsl_test(r < 1.0, "%s: waste at nb = %d: ratio %.6f (no documented value)", s->label,
                     nbs[q], r);
            continue;
        }
        const double want = waste_ref[ref].r[q], tol = 0.5 * pow(10.0, -waste_ref[ref].digits[q]);
        gsl_test(fabs(r - want) > tol, "%s: waste at nb = %d: ratio %.6f, documented %.*f (%s)",
                 s->label, nbs[q], r, waste_ref[ref].digits[q] > 6 ? 0 : waste_ref[ref].digits[q],
                 want, waste_ref[ref].source);
    }
}

/* ---- plans over the whole range -------------------------------------------------------- */

static int zero_waste(const char *name)
{
    return strcmp(name, "rec2d") == 0 || strcmp(name, "rb2d") == 0 ||
           strcmp(name, "utm2d") == 0 || strcmp(name, "lambda2d") == 0;
}

/* Every nb from 1 to min(max_nb, 131070), and max_nb: the plan succeeds, its grids fit CUDA
 * (gx <= 2^31-1, gy <= 65535), and it launches at least T2(nb) blocks (exactly T2(nb) for a
 * zero-waste map while T2(nb) <= 2^31-1, where no 2D grid is needed). Capped subjects (the
 * float-only lambda2d roots) stop at their cap. */
static void test_plans(const subject *s)
{
    const long long top = s->t->max_nb < 131070 ? s->t->max_nb : 131070;
    const long long cap = s->nb_cap < top ? s->nb_cap : top;
    const int with_max = s->t->max_nb > cap && s->t->max_nb <= s->nb_cap;
    long long nb_bad = -1;
    int max_launch = 0;
    char why[300] = "", also[48] = "";
    for (long long nb = 1; nb <= cap + with_max && nb_bad < 0; nb++) {
        map2d_plan p;
        char err[160];
        const long long n = nb <= cap ? nb : s->t->max_nb; /* the last round tests max_nb */
        if (map2d_plan_make(s->t, (int)n, &s->o, &p, err, sizeof err) != 0) {
            nb_bad = n;
            snprintf(why, sizeof why, ": nb = %lld: plan failed: %s", n, err);
            break;
        }
        if (p.n_launch > max_launch)
            max_launch = p.n_launch;
        const long long b = map2d_plan_blocks(&p);
        if (b < t2(n) || (zero_waste(s->t->name) && t2(n) <= 2147483647LL && b != t2(n))) {
            nb_bad = n;
            snprintf(why, sizeof why, ": nb = %lld: %lld blocks for T2 = %lld", n, b, t2(n));
        }
        for (int l = 0; l < p.n_launch; l++)
            if (p.launch[l].gx < 1 || p.launch[l].gy < 1 || p.launch[l].gy > 65535u ||
                p.launch[l].gx > 2147483647u) {
                nb_bad = n;
                snprintf(why, sizeof why, ": nb = %lld: launch %d grid %u x %u", n, l,
                         p.launch[l].gx, p.launch[l].gy);
            }
    }
    if (with_max)
        snprintf(also, sizeof also, " and %lld", s->t->max_nb);
    gsl_test(nb_bad >= 0, "%s: plans for nb = 1..%lld%s: grids within CUDA limits, blocks %s "
             "T2(nb), at most %d launch(es)%s", s->label, cap, also,
             zero_waste(s->t->name) ? "=" : ">=", max_launch, why);
}

/* ---- utm2d specifics ------------------------------------------------------------------- */

/* Decodes the block of linear index k of plan p (one launch, k = bx + gx by) and checks it
 * against the row-major upper enumeration: row i starts at s(i) = i(2nb+1-i)/2. */
static int utm_check_k(const map2d_plan *p, long long k, int want_i, char *why, size_t len)
{
    const map2d_launch *L = &p->launch[0];
    const long long nb = p->nb, s = want_i * (2 * nb + 1 - want_i) / 2;
    map2d_cursor c = {-1, -1};
    if (!map2d_utm2d_first(L, (unsigned)(k % L->gx), (unsigned)(k / L->gx), &c) ||
        c.I != want_i || c.J != want_i + k - s) {
        snprintf(why, len, "nb = %lld, k = %lld: got (%d,%d), want (%d,%lld)", nb, k, c.I, c.J,
                 want_i, want_i + k - s);
        return -1;
    }
    return 0;
}

static void test_utm2d(void)
{
    static const int nbs[] = {65535, 65536, 100000, MAP2D_UTM2D_MAX_NB};
    for (size_t q = 0; q < sizeof nbs / sizeof nbs[0]; q++) {
        map2d_plan p;
        char err[160], why[256] = "";
        int bad;
        memset(&p, 0, sizeof p);
        bad = map2d_utm2d_plan(nbs[q], NULL, &p, err, sizeof err) != 0;
        const long long nb = nbs[q], T = t2(nb);
        const map2d_launch *L = &p.launch[0];
        if (bad)
            snprintf(why, sizeof why, "%s", err);
        /* every row boundary: the last block of row i-1 and the first of row i */
        for (long long i = 1; i < nb && !bad; i++) {
            const long long s = i * (2 * nb + 1 - i) / 2;
            bad = utm_check_k(&p, s - 1, (int)i - 1, why, sizeof why) ||
                  utm_check_k(&p, s, (int)i, why, sizeof why);
        }
        bad = bad || utm_check_k(&p, T - 1, (int)nb - 1, why, sizeof why);
        /* the spare blocks of a 2D grid exit */
        for (long long k = T; k < (long long)L->gx * L->gy && !bad; k++) {
            map2d_cursor c;
            if (map2d_utm2d_first(L, (unsigned)(k % L->gx), (unsigned)(k / L->gx), &c)) {
                bad = 1;
                snprintf(why, sizeof why, "spare block k = %lld kept", k);
            }
        }
        gsl_test(bad, "utm2d: every row boundary at nb = %lld (grid %u x %u, %lld spare)%s%s", nb,
                 L->gx, L->gy, (long long)L->gx * L->gy - T, bad ? ": " : "", why);
    }

    /* The formula as printed, read with 0-based indices, at its recorded counterexample:
     * n = 2, k = 0 must give (a, b) = (1, 2), a pair outside [0, 2). */
    {
        const double n = 2.0, k = 0.0, rad = 4.0 * n * n - 4.0 * n - 8.0 * k + 1.0;
        const long long a = (long long)floor((-(2.0 * n + 1.0) + sqrt(rad)) / -2.0);
        const long long b = (a + 1) + (long long)k - (a - 1) * (2 * (long long)n - a) / 2;
        gsl_test(!(a == 1 && b == 2),
                 "utm2d: printed formula at n = 2, k = 0 gives (%lld,%lld), not the 0-based (0,1)",
                 a, b);
    }
    /* ... and in float32, read 1-based, it first fails at n = 4098, k = 4096 (a = 2, want 1);
     * row boundaries of every n below are right. IEEE sqrtf, no contraction (-std=c11). */
    {
        long long first_n = -1, first_k = -1;
        for (long long n = 2; n <= 4098 && first_n < 0; n++)
            for (long long a = 1; a < n && first_n < 0; a++) {
                const long long st = (a - 1) * (2 * n - a) / 2;
                for (long long k = st > 0 ? st - 1 : st; k <= st; k++) {
                    const float nf = (float)n, kf = (float)k;
                    const float rad = 4.0f * nf * nf - 4.0f * nf - 8.0f * kf + 1.0f;
                    const long long got =
                        (long long)floorf((-(2.0f * nf + 1.0f) + sqrtf(rad)) / -2.0f);
                    if (got != (k < st ? a - 1 : a)) {
                        first_n = n;
                        first_k = k;
                        break;
                    }
                }
            }
        gsl_test(!(first_n == 4098 && first_k == 4096),
                 "utm2d: printed formula in float32 first fails at n = %lld, k = %lld "
                 "(recorded: 4098, 4096)", first_n, first_k);
    }
}

/* ---- mutations ------------------------------------------------------------------------- */

enum { MUT_DROP, MUT_DUP, MUT_MOVE, MUT_OUTSIDE };
static const char *const mut_names[] = {
    "drops tile (0,0)",
    "turns a discarded block into a second (0,0)",
    "turns tile (nb-1,nb-1) into a second (0,0)",
    "turns tile (nb-1,nb-1) into (nb-1,nb-2), below the diagonal",
};
static const map2d_type *mut_base;
static int mut_mode;

static int mut_first(const map2d_launch *L, unsigned bx, unsigned by, map2d_cursor *c)
{
    const int nb = L->nb;
    if (!mut_base->first(L, bx, by, c)) {
        if (mut_mode != MUT_DUP)
            return 0;
        c->I = c->J = 0; /* every discarded block: at least one duplicate where any exists */
        return 1;
    }
    if (mut_mode == MUT_DROP && c->I == 0 && c->J == 0)
        return 0;
    if (mut_mode == MUT_MOVE && c->I == nb - 1 && c->J == nb - 1)
        c->I = c->J = 0;
    if (mut_mode == MUT_OUTSIDE && c->I == nb - 1 && c->J == nb - 1)
        c->J = nb - 2;
    return 1;
}

static void test_mutations(void)
{
    static const int nbs[] = {5, 37, 64};
    for (int m = 0; map2d_all[m]; m++)
        for (int mode = MUT_DROP; mode <= MUT_OUTSIDE; mode++) {
            map2d_type mt = *map2d_all[m];
            char why[256], label[96];
            int caught_tiles = 1, caught_pairs = 1, ran = 0;
            mt.first = mut_first;
            mut_base = map2d_all[m];
            mut_mode = mode;
            for (size_t q = 0; q < sizeof nbs / sizeof nbs[0]; q++) {
                map2d_plan p;
                long long blocks;
                if (map2d_plan_make(&mt, nbs[q], NULL, &p, why, sizeof why) != 0)
                    continue;
                if (mode == MUT_DUP && map2d_plan_blocks(&p) == t2(nbs[q]))
                    continue; /* no discarded block to duplicate with */
                ran = 1;
                caught_tiles &= check_tiles(&mt, &p, &blocks, why, sizeof why) != 0;
                /* particle level: n = 3 nb at edge 3 puts nb tiles per side */
                caught_pairs &= check_pairs(&mt, NULL, 3 * nbs[q] < 128 ? 3 * nbs[q] : 127, 3,
                                            why, sizeof why) != 0;
            }
            snprintf(label, sizeof label, "%s", map2d_all[m]->name);
            if (!ran)
                continue;
            gsl_test(!caught_tiles, "mutation: %s that %s fails the tile checker", label,
                     mut_names[mode]);
            gsl_test(!caught_pairs, "mutation: %s that %s fails the particle checker", label,
                     mut_names[mode]);
        }
}

/* ---- main ------------------------------------------------------------------------------ */

int main(void)
{
    subject subj[64];
    int ns = 0;
    tb_test_init();
    g_cnt = malloc((size_t)t2(NB_MAX_TESTED));
    if (!g_cnt) {
        fprintf(stderr, "test_maps2d: out of memory\n");
        return 1;
    }
    for (int m = 0; map2d_all[m]; m++) {
        const int is_lambda = strcmp(map2d_all[m]->name, "lambda2d") == 0;
        for (int root = 0; root < (is_lambda ? 4 : 1) && ns < 64; root++) {
            subject *s = &subj[ns++];
            memset(s, 0, sizeof *s);
            s->t = map2d_all[m];
            s->o.root = root;
            s->nb_cap = 2147483647;
            if (is_lambda) {
                snprintf(s->label, sizeof s->label, "%s/%s", s->t->name, map2d_root_name(root));
                if (root != MAP2D_ROOT_EXACT) {
                    const long long mx = map2d_root_max_nb(root);
                    s->nb_cap = (int)(mx < ROOT_NB_CAP ? mx : ROOT_NB_CAP);
                }
            } else {
                snprintf(s->label, sizeof s->label, "%s", s->t->name);
            }
        }
    }

    for (int i = 0; i < ns; i++) {
        for (int nb = 1; nb <= 300 && nb <= subj[i].nb_cap; nb++)
            test_tiles_at(&subj[i], nb);
        for (size_t q = 0; q < sizeof extra_nb / sizeof extra_nb[0]; q++)
            if (extra_nb[q] <= subj[i].nb_cap)
                test_tiles_at(&subj[i], extra_nb[q]);
        test_pairs(&subj[i]);
        test_waste(&subj[i]);
        test_plans(&subj[i]);
    }
    test_utm2d();
    test_mutations();
    free(g_cnt);
    return tb_test_done();
}
