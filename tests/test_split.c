/* test_split.c — the equal-work shares of the ranks (split.h): the closed forms of the triplets
 * and pairs before a tile against counting, and shares that tile the domain with work equal to
 * within one tile. */
#include <stdio.h>
#include <stdlib.h>

#include "../maps3d/lambda.h"
#include "../solver/split.h"
#include "tb_test.h"

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
    return tb_test_done();
}
