/* test_split.c — the equal-work shares of the ranks (split.h): the closed forms of the triplets
 * and pairs before a tile against counting, and shares that tile the domain with work equal to
 * within one tile. */
#include <stdio.h>
#include <stdlib.h>

#include "maps3d/lambda.h"
#include "maps3d/map3d.h"
#include "solver/par/split.h"
#include "tests/tb_test.h"

/* Triplets i<j<k of n particles with i, j, k in tiles I, J, K (edge rho), by counting. */
static long long count_tile(int n, int rho, int I, int J, int K)
{
    long long c = 0;
    for (int i = I * rho; i < (I + 1) * rho && i < n; i++)
        for (int j = (J * rho > i + 1 ? J * rho : i + 1); j < (J + 1) * rho && j < n; j++)
            for (int k = (K * rho > j + 1 ? K * rho : j + 1); k < (K + 1) * rho && k < n; k++)
                c++;
    return c;
}

static void test_before(int n, int rho)
{
    const int nb = map3d_nb(n, rho);
    long long sum = 0, bad = 0, sum2 = 0, bad2 = 0;
    for (long long w = 0; w <= map3d_tet(nb); w++) {
        if (split_triplets_before(n, rho, w) != sum)
            bad++;
        if (w < map3d_tet(nb)) {
            map3d_cursor c;
            map3d_lambda_decode(w, &c);
            sum += count_tile(n, rho, c.I, c.J, c.K);
        }
    }
    for (long long w = 0; w <= map3d_tri(nb); w++) {
        if (split_pairs_before(n, rho, w) != sum2)
            bad2++;
        if (w < map3d_tri(nb)) {
            const int J = map2d_lambda2d_row(w), I = (int)(w - map3d_tri(J));
            for (int i = I * rho; i < (I + 1) * rho && i < n; i++)
                for (int j = (J * rho > i + 1 ? J * rho : i + 1); j < (J + 1) * rho && j < n; j++)
                    sum2++;
        }
    }
    gsl_test(bad != 0, "n = %d, rho = %d: triplets before each omega (closed form) equal the "
                       "count (%lld wrong)", n, rho, bad);
    gsl_test(bad2 != 0, "n = %d, rho = %d: pairs before each omega2 equal the count (%lld wrong)",
             n, rho, bad2);
}

static void test_shares(int n, int rho)
{
    const int nb = map3d_nb(n, rho);
    const long long tot = split_triplets_before(n, rho, map3d_tet(nb));
    for (int P = 1; P <= 7; P++) {
        long long prev = 0, worst = 0;
        int gap = 0;
        for (int r = 0; r < P; r++) {
            long long lo, hi;
            split_triplets(n, rho, r, P, &lo, &hi);
            gap |= lo != prev || hi < lo;
            prev = hi;
            const long long work = split_triplets_before(n, rho, hi) -
                                   split_triplets_before(n, rho, lo);
            const long long d = llabs(work * P - tot);
            if (d > worst)
                worst = d;
        }
        gap |= prev != map3d_tet(nb);
        /* a share ends at the first tile that reaches its target: off by less than one tile */
        gsl_test(gap || worst > (long long)P * rho * rho * rho,
                 "n = %d, rho = %d, P = %d: shares tile [0, Tet) with work within one tile of "
                 "C3/P (worst P |w - C3/P| = %lld)", n, rho, P, worst);
    }
}

static void test_prefix(void)
{
    long long pre[101];
    int bad = 0;
    pre[0] = 0;
    for (int i = 0; i < 100; i++)
        pre[i + 1] = pre[i] + (i % 7) * (i % 7) + 1;
    for (int P = 1; P <= 9; P++) {
        int prev = 0;
        for (int r = 0; r < P; r++) {
            int lo, hi;
            split_prefix(pre, 100, r, P, &lo, &hi);
            bad |= lo != prev || hi < lo;
            prev = hi;
        }
        bad |= prev != 100;
    }
    gsl_test(bad, "anchor shares tile [0, m) for P = 1..9");
}

/* Every map run as P ranks, each with its omega range (native sub-range, bb's sub-grid, or the
 * whole grid filtered), visits every tile of D3(nb) exactly once in all. */
static void test_map_ranges(void)
{
    static const int nbs[] = {1, 2, 5, 13};
    static const int ps[] = {1, 2, 3, 5, 7};
    for (int m = 0; map3d_all[m]; m++) {
        const map3d_type *t = map3d_all[m];
        long long bad = 0, blocks_max = 0, blocks_one = 0;
        for (size_t ib = 0; ib < sizeof nbs / sizeof nbs[0]; ib++)
            for (size_t ip = 0; ip < sizeof ps / sizeof ps[0]; ip++) {
                const int nb = nbs[ib], P = ps[ip];
                const long long tet = map3d_tet(nb);
                int *seen = calloc((size_t)tet, sizeof *seen);
                if (!seen)
                    return;
                for (int r = 0; r < P; r++) {
                    long long lo, hi, blocks;
                    char err[256];
                    map3d_plan plan;
                    map3d_opts o = {.persistent_blocks = 7};
                    split_even(tet, r, P, &lo, &hi);
                    if (lo == hi)
                        continue;
                    o.w_begin = lo;
                    o.w_end = hi;
                    if (map3d_plan_make(t, nb, &o, &plan, err, sizeof err) != 0) {
                        printf("  (%s nb %d: %s)\n", t->name, nb, err);
                        bad++;
                        continue;
                    }
                    blocks = map3d_plan_blocks(&plan);
                    if (nb == 13 && P == 2 && blocks > blocks_max)
                        blocks_max = blocks;
                    for (int l = 0; l < plan.n_launch; l++) {
                        const map3d_launch *L = &plan.launch[l];
                        const long long gxy = (long long)L->gx * L->gy, nblk = gxy * L->gz;
                        for (long long b = 0; b < nblk; b++) {
                            map3d_cursor c;
                            if (!t->first(L, (unsigned)(b % L->gx), (unsigned)(b / L->gx % L->gy),
                                          (unsigned)(b / gxy), &c))
                                continue;
                            do {
                                const long long w = map3d_omega(c.I, c.J, c.K);
                                if (w < 0 || w >= tet || !(c.I <= c.J && c.J <= c.K))
                                    bad++;
                                else if (map3d_in_range(&c, lo, hi))
                                    seen[w]++;
                            } while (t->next(L, &c));
                        }
                    }
                    map3d_plan_free(&plan);
                }
                for (long long w = 0; w < tet; w++)
                    bad += seen[w] != 1;
                free(seen);
            }
        {
            char err[256];
            map3d_plan plan;
            map3d_opts o = {.persistent_blocks = 7};
            if (map3d_plan_make(t, 13, &o, &plan, err, sizeof err) == 0) {
                blocks_one = map3d_plan_blocks(&plan);
                map3d_plan_free(&plan);
            }
        }
        gsl_test(bad != 0, "map %s on P = 1..7 ranks with their omega ranges: every tile exactly "
                           "once in all (nb = 1, 2, 5, 13; %lld wrong); blocks launched by the "
                           "busier of 2 ranks at nb = 13: %lld of %lld", t->name, bad,
                 blocks_max, blocks_one);
    }
}

int main(void)
{
    tb_test_init();
    test_before(37, 8);
    test_before(64, 8);
    test_before(61, 16);
    test_shares(37, 8);
    test_shares(300, 8);
    test_shares(1000, 32);
    test_prefix();
    test_map_ranges();
    return tb_test_done();
}
