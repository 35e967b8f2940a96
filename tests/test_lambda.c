/* test_lambda.c — the enumeration decodes against their definitions (docs/maps.md, "Checking
 * a map", 3): lambda2d's rows (exact and float-only variants), lambda's layers, the table
 * layer and stride's steps.
 *
 *   (a) sequential reference: walking D2/D3 in order (K, then J, then I) gives ω = 0, 1, 2, ...;
 *   (b) per-ω invariants, which determine the answer, for random ω up to the largest nb:
 *       Tet(K) <= ω < Tet(K+1), T2(J) <= ω2 < T2(J+1), I = ω2 - T2(J), I <= J <= K;
 *   (c) boundary sweeps at every layer start Tet(k) - 1, Tet(k) and every row start
 *       T2(r) - 1, T2(r), where float estimates fail first, with max |estimate - truth|.
 * One PASS/FAIL line per battery. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "maps3d/lambda.h"
#include "maps3d/lambda2d.h"
#include "maps3d/map3d.h"
#include "maps3d/mapcheck.h"
#include "maps3d/stride.h"
#include "maps3d/table.h"
#include "tests/tb_test.h"

typedef unsigned long long u64;

static u64 splitmix64(u64 *s)
{
    u64 x = (*s += 0x9e3779b97f4a7c15ULL);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* "; first failure at omega = X" when bad, else "". */
static const char *at(long long bad, long long first)
{
    static char buf[64];
    if (!bad)
        return "";
    snprintf(buf, sizeof buf, "; %lld failures, the first at omega = %lld", bad, first);
    return buf;
}

/* (b) for one ω: 0 when (I, J, K) is the tile of ω. */
static int bad3(long long w, const map3d_cursor *c)
{
    long long w2 = w - map3d_tet(c->K);
    return !(c->K >= 0 && map3d_tet(c->K) <= w && w < map3d_tet(c->K + 1LL) && c->J >= 0 &&
             map3d_tri(c->J) <= w2 && w2 < map3d_tri(c->J + 1LL) && c->I == w2 - map3d_tri(c->J) &&
             c->I <= c->J && c->J <= c->K);
}

static int bad_row(long long w, int J)
{
    return !(J >= 0 && map3d_tri(J) <= w && w < map3d_tri(J + 1LL));
}

/* ---- lambda2d ---- */

static void test_rows_exact(void)
{
    const long long N = 1LL << 26;
    long long bad = 0, first = -1, w, T = 1;
    int J = 0, emin = 0, emax = 0;
    /* (a) every ω < 2^26 against the incremental row, both the 32- and 64-bit paths */
    for (w = 0; w < N; w++) {
        if (w == T)
            T += ++J + 1;
        if (map2d_lambda2d_row32((unsigned)w) != J || map2d_lambda2d_row64(w) != J) {
            if (!bad++)
                first = w;
        }
    }
    gsl_test(bad != 0, "lambda2d: exact row of every omega < 2^26 (32- and 64-bit paths)%s",
             at(bad, first));

    /* (c) every row boundary up to row 2^23 (omega ~ 2^45), with the estimate's error */
    bad = 0;
    for (long long r = 1; r <= (1LL << 23); r++) {
        for (long long d = -1; d <= 0; d++) {
            long long x = map3d_tri(r) + d;
            int e = map2d_lambda2d_row_est((float)x) - (int)(r + d);
            if (e < emin)
                emin = e;
            if (e > emax)
                emax = e;
            if (bad_row(x, map2d_lambda2d_row(x)) ||
                (x < 4294967296LL && map2d_lambda2d_row32((unsigned)x) != r + d)) {
                if (!bad++)
                    first = x;
            }
        }
    }
    gsl_test(bad != 0 || emin < -1 || emax > 1,
             "lambda2d: every row boundary T2(r)-1, T2(r) for r <= 2^23 (omega < 2^45): exact, "
             "estimate error in [%d, %d] (the one-step fix needs [-1, 1])%s", emin, emax,
             at(bad, first));

    /* (b) random ω < 2^45 */
    {
        u64 seed = 2385;
        bad = 0;
        for (int i = 0; i < 2000000; i++) {
            long long x = (long long)(splitmix64(&seed) >> 19); /* < 2^45 */
            if (bad_row(x, map2d_lambda2d_row(x)) && !bad++)
                first = x;
        }
        gsl_test(bad != 0, "lambda2d: 2e6 random omega < 2^45 satisfy T2(J) <= omega < T2(J+1)");
    }

    /* docs/maps.md#lambda2d: just above 2^45 the estimate is off by 2 or more (a real range) */
    {
        long long x = 35201566641152LL; /* the first failure; its true row: */
        long long r = (long long)floor(sqrt(2.0 * (double)x + 0.25) - 0.5);
        int e = map2d_lambda2d_row_est((float)x) - (int)r;
        gsl_test(abs(e) < 2, "lambda2d: at omega = 35,201,566,641,152 (> 2^45) the float32 "
                 "estimate is off by %d (docs/maps.md#lambda2d: 2 or more)", e);
    }
}

/* Float-only variants: the host's exact range, measured exhaustively, must cover the range the
 * plan accepts (map2d_root_max_nb, GPU numbers); the variants are then tested only there. */
static void test_rows_float(void)
{
    for (int root = MAP2D_ROOT_SQRTF; root <= MAP2D_ROOT_NEWTON; root++) {
        long long w, T = 1, lim = map2d_root_max_nb(root);
        int J = 0, host_max;
        map2d_plan p;
        map2d_opts o = {root};
        map_check r;
        char err[256] = "";
        int rc;
        for (w = 0; w < (1LL << 26); w++) {
            if (w == T)
                T += ++J + 1;
            if (map2d_lambda2d_row_with(root, w) != J)
                break;
        }
        host_max = J; /* rows 0..J-1 are exact: nb <= J */
        printf("# lambda2d root %s: exact on this CPU for nb <= %d (first failure at omega = %lld); "
               "plan limit %lld\n", map2d_root_name(root), host_max, w, lim);
        gsl_test(host_max < lim, "lambda2d root %s: exact on this CPU for nb <= %d, covering the "
                 "plan's limit %lld", map2d_root_name(root), host_max, lim);
        lim = lim < host_max ? lim : host_max;
        rc = map2d_plan_make(map2d_find("lambda2d"), (int)lim, &o, &p, err, sizeof err) ||
             map2d_check_tiles(map2d_find("lambda2d"), &p, &r);
        gsl_test(rc, "lambda2d root %s: every tile of D2(%lld) once %s%s", map2d_root_name(root),
                 lim, err, rc ? r.first : "");
        err[0] = '\0';
        rc = map2d_plan_make(map2d_find("lambda2d"), (int)map2d_root_max_nb(root) + 1, &o, &p, err,
                             sizeof err);
        gsl_test(rc == 0 || !strstr(err, map2d_root_name(root)),
                 "lambda2d root %s: nb = %lld refused (\"%s\")", map2d_root_name(root),
                 map2d_root_max_nb(root) + 1, err);
    }
}

/* The 2D grid of lambda2d above T2(nb) = 2^31 - 1: spare blocks exit, ω = bx + gx·by. */
static void test_lambda2d_grid(void)
{
    map2d_plan p;
    map2d_cursor c;
    char err[256];
    int nb = 100000, bad = 0;
    long long t2 = map3d_tri(nb), w;
    map2d_plan_make(map2d_find("lambda2d"), nb, NULL, &p, err, sizeof err);
    gsl_test(p.launch[0].gy != 3 || (long long)p.launch[0].gx * p.launch[0].gy - t2 >= 3,
             "lambda2d: nb = 100000 (T2 = %lld) takes a 2D grid %u x %u", t2, p.launch[0].gx,
             p.launch[0].gy);
    for (unsigned by = 0; by < p.launch[0].gy; by++)
        for (unsigned bx = p.launch[0].gx - 3; bx < p.launch[0].gx; bx++) {
            w = bx + (long long)p.launch[0].gx * by;
            if (map2d_lambda2d_first(&p.launch[0], bx, by, &c) != (w < t2) ||
                (w < t2 && (bad_row(w, c.J) || c.I != w - map3d_tri(c.J))))
                bad++;
        }
    gsl_test(bad, "lambda2d: 2D grid rows end where they should; blocks past T2 exit");
    map2d_plan_make(map2d_find("lambda2d"), 65535, NULL, &p, err, sizeof err);
    gsl_test(p.launch[0].gy != 1, "lambda2d: nb = 65535 is the last 1D grid (T2 = %lld)",
             map3d_tri(65535));
}

/* ---- lambda, table, stride ---- */

/* (a) sequential reference: lambda, table and stride against the walk of D3 in idx3 order. */
static void test_sequential(void)
{
    const int nb = 512;
    long long w = 0, bad = 0, first = -1;
    map3d_plan tp;
    char err[256];
    map3d_table_plan(nb, NULL, &tp, err, sizeof err);
    for (int K = 0; K < nb; K++)
        for (int J = 0; J <= K; J++)
            for (int I = 0; I <= J; I++, w++) {
                map3d_cursor a, b = {-1, -1, -1, 0};
                map3d_lambda_decode(w, &a);
                map3d_table_first(&tp.launch[0], (unsigned)w, 0, 0, &b);
                if (a.I != I || a.J != J || a.K != K || b.I != I || b.J != J || b.K != K) {
                    if (!bad++)
                        first = w;
                }
            }
    gsl_test(bad, "lambda, table: omega = 0..Tet(%d)-1 decode to the walk of D3 in order%s",
             nb, at(bad, first));
    map3d_plan_free(&tp);
    /* stride: block 0 of a one-block grid walks all of D3(nb) in order */
    {
        map3d_plan p;
        map3d_opts o = {.persistent_blocks = 1};
        map3d_cursor c;
        int I = 0, J = 0, K = 0;
        long long n = 0;
        bad = 0;
        map3d_stride_plan(200, &o, &p, err, sizeof err);
        map3d_stride_first(&p.launch[0], 0, 0, 0, &c);
        do {
            if (c.I != I || c.J != J || c.K != K)
                bad++;
            n++;
            if (++I > J) {
                I = 0;
                if (++J > K)
                    J = 0, K++;
            }
        } while (map3d_stride_next(&p.launch[0], &c));
        gsl_test(bad || n != map3d_tet(200),
                 "stride: one block walks D3(200) in order, %lld tiles", n);
    }
}

/* (c) every layer boundary up to the decode's limit, and (b) random ω and row boundaries. */
static void test_layers(void)
{
    const long long kmax = MAP3D_LAMBDA_DECODE_MAX_NB;
    long long bad = 0, first = -1, hist[3] = {0, 0, 0};
    int emin = 0, emax = 0;
    u64 seed = 7;
    for (long long k = 1; k <= kmax; k++)
        for (long long d = -1; d <= 0; d++) {
            long long w = map3d_tet(k) + d;
            int e = map3d_lambda_layer_est(w) - (int)(k + d);
            map3d_cursor c;
            if (e < emin)
                emin = e;
            if (e > emax)
                emax = e;
            if (e >= -1 && e <= 1)
                hist[e + 1]++;
            map3d_lambda_decode(w, &c);
            if (c.K != k + d || bad3(w, &c)) {
                if (!bad++)
                    first = w;
            }
        }
    printf("# lambda: layer estimate error at the %lld layer boundaries: -1: %lld, 0: %lld, "
           "+1: %lld\n", 2 * kmax, hist[0], hist[1], hist[2]);
    gsl_test(bad || emin < -1 || emax > 1,
             "lambda: every layer boundary Tet(k)-1, Tet(k), k <= %lld: exact, estimate error in "
             "[%d, %d]%s", kmax, emin, emax, at(bad, first));

    /* random ω < Tet(kmax), and the row boundaries of random layers */
    bad = 0;
    for (int i = 0; i < 2000000; i++) {
        long long w = (long long)(splitmix64(&seed) % (u64)map3d_tet(kmax));
        map3d_cursor c;
        map3d_lambda_decode(w, &c);
        if (bad3(w, &c) && !bad++)
            first = w;
    }
    gsl_test(bad, "lambda: 2e6 random omega < Tet(%lld) satisfy the per-omega invariants%s",
             kmax, at(bad, first));
    bad = 0;
    for (int i = 0; i < 8; i++) {
        long long K = i < 2 ? kmax - 1 - i : (long long)(splitmix64(&seed) % (u64)kmax);
        for (long long r = 1; r <= K; r++)
            for (long long d = -1; d <= 0; d++) {
                long long w = map3d_tet(K) + map3d_tri(r) + d;
                map3d_cursor c;
                map3d_lambda_decode(w, &c);
                if ((bad3(w, &c) || c.K != K || c.J != r + d) && !bad++)
                    first = w;
            }
    }
    gsl_test(bad, "lambda: every row boundary of 8 layers (the last two and 6 random, K up to "
             "%lld) decodes exactly%s", kmax - 1, at(bad, first));
}

/* table: every layer boundary and random ω at the map's largest nb. */
static void test_table(void)
{
    const int nb = (int)MAP3D_TABLE_MAX_NB;
    map3d_plan p;
    char err[256];
    long long bad = 0, first = -1, tet = map3d_tet(nb);
    u64 seed = 11;
    map3d_table_plan(nb, NULL, &p, err, sizeof err);
    for (long long k = 1; k <= nb; k++)
        for (long long d = -1; d <= 0; d++) {
            long long w = map3d_tet(k) + d;
            map3d_cursor c = {-1, -1, -1, 0};
            int got;
            unsigned bx = (unsigned)(w % p.launch[0].gx), by = (unsigned)(w / p.launch[0].gx);
            if (w >= tet)
                continue;
            got = map3d_table_first(&p.launch[0], bx, by, 0, &c);
            if ((!got || bad3(w, &c) || c.K != k + d) && !bad++)
                first = w;
        }
    for (int i = 0; i < 1000000; i++) {
        long long w = (long long)(splitmix64(&seed) % (u64)tet);
        map3d_cursor c = {-1, -1, -1, 0};
        map3d_table_first(&p.launch[0], (unsigned)(w % p.launch[0].gx),
                          (unsigned)(w / p.launch[0].gx), 0, &c);
        if (bad3(w, &c) && !bad++)
            first = w;
    }
    gsl_test(bad, "table: nb = %d (%lld table entries), every layer boundary and 1e6 random "
             "blocks of the 2D grid decode exactly%s", nb, p.table_len,
             at(bad, first));
    map3d_plan_free(&p);
}

/* stride: next() equals a fresh decode of ω + 1 across random starts and layer ends, at the
 * map's largest nb, and the blocks' ranges tile [0, Tet) with no overflow in b·T/G. */
static void test_stride_steps(void)
{
    const int nb = (int)MAP3D_STRIDE_MAX_NB;
    map3d_plan p;
    map3d_opts o = {0};
    char err[256];
    long long bad = 0, first = -1, tet = map3d_tet(nb), prev = 0;
    u64 seed = 13;
    map3d_stride_plan(nb, &o, &p, err, sizeof err);
    for (unsigned b = 0; b < p.launch[0].gx; b++) {
        map3d_cursor c = {-1, -1, -1, 0};
        long long s0 = map3d_stride_start(&p.launch[0], b);
        if (!map3d_stride_first(&p.launch[0], b, 0, 0, &c) || s0 != prev ||
            map3d_tet(c.K) + map3d_tri(c.J) + c.I != s0)
            bad++;
        prev = s0 + c.left + 1;
    }
    gsl_test(bad || prev != tet, "stride: nb = %d, the %u blocks' ranges tile [0, Tet = %lld)", nb,
             p.launch[0].gx, tet);
    bad = 0;
    for (int i = 0; i < 20000; i++) {
        /* half the starts just before a layer end, where both carries happen */
        long long w = i % 2 ? (long long)(splitmix64(&seed) % (u64)(tet - 200))
                            : map3d_tet(100 + (long long)(splitmix64(&seed) % (u64)(nb - 101))) - 50;
        map3d_launch L = p.launch[0];
        map3d_cursor c, d;
        map3d_lambda_decode(w, &c);
        c.left = 100;
        for (int s = 1; s <= 100; s++) {
            map3d_stride_next(&L, &c);
            map3d_lambda_decode(w + s, &d);
            if ((c.I != d.I || c.J != d.J || c.K != d.K) && !bad++)
                first = w + s;
        }
        if (map3d_stride_next(&L, &c))
            bad++;
    }
    gsl_test(bad, "stride: 2e6 steps of next() from 20000 starts (half at layer ends) equal the "
             "decode of omega + 1%s", at(bad, first));
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_rows_exact);
    TB_TEST_RUN(test_rows_float);
    TB_TEST_RUN(test_lambda2d_grid);
    TB_TEST_RUN(test_sequential);
    TB_TEST_RUN(test_layers);
    TB_TEST_RUN(test_table);
    TB_TEST_RUN(test_stride_steps);
    return tb_test_done();
}
