/* cpu_sums.c — the CPU backend's sums (cpu_internal.h): each thread's force buffer zeroed and
 * the buffers summed in thread order; in solver.deterministic the fixed-point words (fixed.h)
 * each work unit's forces, energies and virial are added to, summed over the threads and the
 * ranks as integers and decoded into the state, with the count of non-finite values beside
 * them; otherwise the doubles summed over the ranks. cpu_backend.c calls these around its
 * evaluations. */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "solver/cpu/cpu_internal.h"
#include "solver/par/fixed.h"
#include "solver/par/mpi.h"

/* Adds v to the pair hl; a non-finite v counts in *bad (its words would be garbage). */
static inline void fix_add_host(unsigned long long *hl, double v, unsigned long long *bad)
{
    unsigned long long hi, lo;
    fix_encode(v, &hi, &lo);
    hl[0] += hi;
    hl[1] += lo;
    *bad += !isfinite(v);
}

/* Deterministic mode: moves the forces on particles [p0, p1) from thread t's buffer into its
 * fixed-point words and zeroes them there. */
void cpu_fix_flush(backend *b, int t, int p0, int p1)
{
    const size_t off = 3 * (size_t)b->s.n * t;
    unsigned long long *fx = b->fix_thr + FIX_WORDS(b->s.n) * (size_t)t;
    if (p1 > b->s.n)
        p1 = b->s.n;
    for (int p = p0; p < p1; p++)
        for (int d = 0; d < 3; d++) {
            const size_t k = off + 3 * (size_t)p + d;
            double v;
            if (b->acc_d) {
                v = b->acc_d[k];
                b->acc_d[k] = 0.0;
            } else {
                v = (double)b->acc_f[k];
                b->acc_f[k] = 0.0f;
            }
            fix_add_host(fx + 6 * (size_t)p + 2 * d, v, fx + FIX_BAD(b->s.n));
        }
}

/* Deterministic mode: adds one unit's energies (et triplet, ep pair; a term the unit does not
 * have is 0, which adds nothing) and virial w[6] to thread t's words. */
void cpu_fix_unit(backend *b, int t, double et, double ep, const double *w)
{
    unsigned long long *fx = b->fix_thr + FIX_WORDS(b->s.n) * (size_t)t;
    fix_add_host(fx + FIX_E(b->s.n), et, fx + FIX_BAD(b->s.n));
    fix_add_host(fx + FIX_E(b->s.n) + 2, ep, fx + FIX_BAD(b->s.n));
    for (int c = 0; c < 6; c++)
        fix_add_host(fx + FIX_W(b->s.n) + 2 * c, w[c], fx + FIX_BAD(b->s.n));
}

/* Zeroes thread t's force buffer (inside the parallel region). */
void cpu_zero_forces(backend *b, int t)
{
    const size_t n3 = 3 * (size_t)b->s.n;
    if (b->acc_d)
        memset(b->acc_d + n3 * (size_t)t, 0, n3 * sizeof *b->acc_d);
    else
        memset(b->acc_f + n3 * (size_t)t, 0, n3 * sizeof *b->acc_f);
}

/* Forces = the nt thread buffers summed in thread order (a worksharing loop: call it from
 * every thread of the parallel region, after a barrier). */
void cpu_sum_forces(backend *b, int nt)
{
    const long long n3 = 3LL * b->s.n;
#pragma omp for schedule(static)
    for (long long i = 0; i < n3; i++) {
        if (b->acc_d) {
            double sum = 0.0;
            for (int u = 0; u < nt; u++)
                sum += b->acc_d[n3 * u + i];
            b->s.force[i] = sum;
        } else {
            float sum = 0.0f;
            for (int u = 0; u < nt; u++)
                sum += b->acc_f[n3 * u + i];
            b->s.force[i] = (double)sum;
        }
    }
}

/* Inside the parallel region, after its barrier: adds the fixed-point words of threads
 * 1..nt-1 into thread 0's (integer sums: any order). */
void cpu_fix_sum_threads(backend *b, int nt)
{
    const long long nw = (long long)FIX_WORDS(b->s.n);
#pragma omp for schedule(static)
    for (long long k = 0; k < nw; k++)
        for (int u = 1; u < nt; u++)
            b->fix_thr[k] += b->fix_thr[nw * u + k];
}

/* Sums the threads' fixed-point words (summed into thread 0's by cpu_fix_sum_threads) over the
 * ranks and decodes them into the state (the virial into vir). 0 or -1. */
int cpu_fix_reduce(backend *b, double *vir)
{
    const size_t nw = FIX_WORDS(b->s.n), n = (size_t)b->s.n;
    unsigned long long *tot = b->fix_thr;
    if (tb_mpi_sum_u64(tot, nw) != 0)
        return -1;
    for (size_t p = 0; p < 3 * n; p++)
        b->s.force[p] = fix_decode(tot + 2 * p);
    b->s.e_triplet = tot[FIX_BAD(n)] ? (double)NAN : fix_decode(tot + FIX_E(n));
    b->s.e_pair = tot[FIX_BAD(n)] ? (double)NAN : fix_decode(tot + FIX_E(n) + 2);
    for (int c = 0; c < 6; c++)
        vir[c] = fix_decode(tot + FIX_W(n) + 2 * c);
    return 0;
}

/* Sums this rank's forces, energies, virial (and, with lists, hits and slots) over the ranks
 * (nothing to do for one rank). 0 or -1. */
int cpu_rank_reduce(backend *b, double *vir)
{
    const size_t n3 = 3 * (size_t)b->s.n;
    if (b->nranks == 1)
        return 0;
    memcpy(b->red, b->s.force, n3 * sizeof *b->red);
    b->red[n3] = b->s.e_triplet;
    b->red[n3 + 1] = b->s.e_pair;
    memcpy(b->red + n3 + 2, vir, 6 * sizeof *vir);
    if (tb_mpi_sum_d(b->red, n3 + 8) != 0)
        return -1;
    memcpy(b->s.force, b->red, n3 * sizeof *b->red);
    b->s.e_triplet = b->red[n3];
    b->s.e_pair = b->red[n3 + 1];
    memcpy(vir, b->red + n3 + 2, 6 * sizeof *vir);
    return 0;
}

/* hits and slots of the lists over the ranks. */
int cpu_count_reduce(backend *b)
{
    unsigned long long hs[2] = {(unsigned long long)b->hits, (unsigned long long)b->slots};
    if (b->nranks == 1)
        return 0;
    if (tb_mpi_sum_u64(hs, 2) != 0)
        return -1;
    b->hits = (long long)hs[0];
    b->slots = (long long)hs[1];
    return 0;
}

/* Deterministic mode: zero every thread's fixed-point words and work buffer before an
 * evaluation. */
void cpu_det_zero(backend *b)
{
    const size_t n3 = 3 * (size_t)b->s.n;
    if (!b->det)
        return;
    memset(b->fix_thr, 0, FIX_WORDS(b->s.n) * (size_t)b->nthreads * sizeof *b->fix_thr);
    if (b->acc_d)
        memset(b->acc_d, 0, n3 * b->nthreads * sizeof *b->acc_d);
    else
        memset(b->acc_f, 0, n3 * b->nthreads * sizeof *b->acc_f);
}

/* Drops this rank's virial share before the sums over the ranks (vir_wanted). */
void cpu_vir_drop(backend *b)
{
    if (b->det)
        memset(b->fix_thr + FIX_W(b->s.n), 0, 12 * sizeof *b->fix_thr);
    else
        memset(b->s.virial, 0, sizeof b->s.virial);
}
