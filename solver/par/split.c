/* split.c — equal-work shares of the force work over the ranks (split.h). */
#include "solver/par/split.h"

#include "maps3d/lambda.h"
#include "maps3d/lambda2d.h"

static long long c2(long long m) { return m > 1 ? m * (m - 1) / 2 : 0; }
static long long c3(long long m) { return m > 2 ? m * (m - 1) * (m - 2) / 6 : 0; }

/* Size of tile T of n particles in tiles of rho. */
static long long tile_size(int n, int rho, long long T)
{
    const long long s = (long long)n - T * rho;
    return s < rho ? (s > 0 ? s : 0) : rho;
}

long long split_triplets_before(int n, int rho, long long omega)
{
    const int nb = map3d_nb(n, rho);
    map3d_cursor c;
    long long K0;
    if (omega >= map3d_tet(nb))
        return c3(n);
    map3d_lambda_decode(omega, &c);
    K0 = (long long)c.K * rho;
    const long long sK = tile_size(n, rho, c.K), sJ = tile_size(n, rho, c.J);
    return c3(K0 < n ? K0 : n) + c2((long long)c.J * rho) * sK +
           (long long)c.I * rho * (c.J < c.K ? sJ * sK : c2(sK));
}

long long split_pairs_before(int n, int rho, long long omega2)
{
    const int nb = map3d_nb(n, rho);
    if (omega2 >= map3d_tri(nb))
        return c2(n);
    const int J = map2d_lambda2d_row(omega2);
    const long long I = omega2 - map3d_tri(J), J0 = (long long)J * rho;
    return c2(J0 < n ? J0 : n) + I * rho * tile_size(n, rho, J);
}

/* The least omega in [0, end] with before(omega) >= r total / nranks. */
static long long boundary(int n, int rho, long long end, long long total, int r, int nranks,
                          long long (*before)(int, int, long long))
{
    const long long target = (long long)((__int128)total * r / nranks);
    long long lo = 0, hi = end;
    if (r <= 0)
        return 0;
    if (r >= nranks)
        return end;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (before(n, rho, mid) >= target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void split_triplets(int n, int rho, int r, int nranks, long long *lo, long long *hi)
{
    const long long tet = map3d_tet(map3d_nb(n, rho)), tot = c3(n);
    *lo = boundary(n, rho, tet, tot, r, nranks, split_triplets_before);
    *hi = boundary(n, rho, tet, tot, r + 1, nranks, split_triplets_before);
}

void split_pairs(int n, int rho, int r, int nranks, long long *lo, long long *hi)
{
    const long long t2 = map3d_tri(map3d_nb(n, rho)), tot = c2(n);
    *lo = boundary(n, rho, t2, tot, r, nranks, split_pairs_before);
    *hi = boundary(n, rho, t2, tot, r + 1, nranks, split_pairs_before);
}

void split_even(long long total, int r, int nranks, long long *lo, long long *hi)
{
    *lo = (long long)((__int128)total * r / nranks);
    *hi = (long long)((__int128)total * (r + 1) / nranks);
}

void split_prefix(const long long *prefix, int m, int r, int nranks, int *lo, int *hi)
{
    *lo = split_prefix_at(prefix, m, r, nranks);
    *hi = split_prefix_at(prefix, m, r + 1, nranks);
}
