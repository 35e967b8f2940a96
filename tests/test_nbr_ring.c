/* test_nbr_ring.c — the ring walk's indices (solver/physics/nbr_ring.h), the GPU's default
 * neighbour-list loop (solver/gpu/gpu_nbr_ring.cuh), walked on the host lane by lane and step
 * by step, for J = 2, 3 and 4 entries per lane and every entry count ma = 0..1000 and a few up
 * to 2049 (rows longer than shared memory holds in double):
 *  - every pair (j, k), j < k < ma, is counted exactly once, and only by a real lane;
 *  - a lane's j_i lie in 0..ma-1; a real lane's k too, a pad lane's in ma..32 ceil(ma/32) - 1
 *    (the kernel's padding) at every step; k is never one of the lane's j_i (the body has no
 *    degenerate-safe select there: it would give NaN even when masked);
 *  - at each step the 32 lanes, every one of which loads and stores entry k's sums, hold
 *    distinct k, and the lanes that store j sums hold distinct j_i for each i (no atomics: a
 *    collision would lose a share, and racecheck would see it);
 *  - each group > 0 lane that counts has a group 0 lane of the same j_0 (the one that stores);
 *  - nbr_ring_slots is 32 J per warp step, and never more than the 32 x 32 tiles' walk it
 *    replaced (VAR 7: 2048 slots per two-j item, 512 per diagonal tile), for J = 2 at every ma
 *    and for J = 3, 4 from ma = 64 (J = 3 at ma = 32: 576 against 512). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/physics/nbr_ring.h"
#include "tests/tb_test.h"

#define MA_MAX 2049
#define K_END (32 * ((MA_MAX + 31) / 32))

/* VAR 7's slots (gpu_nbr.cu): items (J, Q), 2J <= Q, of the mb = ceil(ma/32) tiles. */
static long long tiles_slots(int ma)
{
    const int mb = (ma + 31) / 32;
    long long s = 0;
    for (int Q = 0; Q < mb; Q++)
        for (int J = 0; 2 * J <= Q; J++)
            s += 2 * J + 1 <= Q ? 2048 : 512;
    return s;
}

enum { B_COUNT, B_INDEX, B_DEGEN, B_KSTORE, B_JSTORE, B_GROUP, B_SLOTS, B_MORE, B_N };
typedef struct {
    long long bad[B_N];
    int first[B_N];
} ring_report;

static void note(ring_report *r, int which, int ma)
{
    if (r->bad[which]++ == 0)
        r->first[which] = ma;
}

/* One ring (ma entries, J asked) walked; the pair counts in cnt. */
static void walk(int ma, int Jask, unsigned char *cnt, ring_report *r)
{
    if (ma > 0)
        memset(cnt, 0, (size_t)(unsigned)ma * (unsigned)ma);
    long long steps = 0;
    const int J = ma >= 3 ? nbr_ring_j(ma, Jask) : 2;
    if (ma >= 3) {
        const int kend = 32 * ((ma + 31) / 32);
        for (int c = 0; 32 * c < ma; c++) {
            nbr_ring_lane w[32];
            for (int l = 0; l < 32; l++)
                w[l] = nbr_ring_at(ma, J, c, l);
            const int L = w[0].L;
            steps += L;
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < J; i++)
                    if (w[l].L != L || w[l].j[i] < 0 || w[l].j[i] >= ma)
                        note(r, B_INDEX, ma);
                for (int i = 0; i < J; i++) {
                    if (!w[l].real && w[l].lim[i] > 0)
                        note(r, B_COUNT, ma);
                    if (w[l].grp > 0 && w[l].lim[i] > 0) {
                        int found = 0;
                        for (int o = 0; o < 32; o++)
                            found |= w[o].grp == 0 && w[o].real && w[o].j[0] == w[l].j[0];
                        if (!found)
                            note(r, B_GROUP, ma);
                    }
                }
            }
            int kk[32];
            for (int l = 0; l < 32; l++)
                kk[l] = w[l].k;
            for (int u = 0; u < L; u++) {
                unsigned char seen[K_END];
                memset(seen, 0, (size_t)kend);
                for (int l = 0; l < 32; l++) {
                    const int k = kk[l];
                    if (k < 0 || k >= kend || (w[l].real ? k >= ma : k < ma)) {
                        note(r, B_INDEX, ma);
                        continue;
                    }
                    if (seen[k]++)
                        note(r, B_KSTORE, ma);
                    for (int i = 0; i < J; i++) {
                        const int j = w[l].j[i];
                        if (k == j)
                            note(r, B_DEGEN, ma);
                        else if (u < w[l].lim[i])
                            cnt[(size_t)(j < k ? j : k) * ma + (j < k ? k : j)]++;
                    }
                }
                for (int l = 0; l < 32; l++) { /* the kernel's step: k += inc, 0 at wrap */
                    kk[l] += w[l].inc;
                    kk[l] = kk[l] == w[l].wrap ? 0 : kk[l];
                }
            }
            for (int i = 0; i < J; i++) {
                unsigned char sj[MA_MAX];
                memset(sj, 0, (size_t)ma);
                for (int l = 0; l < 32; l++)
                    if (w[l].real && w[l].grp == 0 && sj[w[l].j[i]]++)
                        note(r, B_JSTORE, ma);
            }
        }
    } else if (ma == 2) {
        cnt[1] = 1; /* lane 0's one pair (0, 1) */
    }
    for (int a = 0; a < ma; a++)
        for (int b = a + 1; b < ma; b++)
            if (cnt[(size_t)a * ma + b] != 1) {
                note(r, B_COUNT, ma);
                a = ma;
                break;
            }
    if (nbr_ring_slots(ma, Jask) != (ma == 2 ? 1 : 32LL * J * steps))
        note(r, B_SLOTS, ma);
    if ((Jask == 2 || ma >= 64) && nbr_ring_slots(ma, Jask) > tiles_slots(ma))
        note(r, B_MORE, ma); /* J = 3 at ma = 32: 576 slots against one diagonal tile's 512 */
}

static const char *first(const ring_report *r, int which)
{
    static char buf[B_N][64];
    if (r->bad[which])
        snprintf(buf[which], sizeof buf[which], " (%lld bad, the first at ma = %d)",
                 r->bad[which], r->first[which]);
    else
        buf[which][0] = 0;
    return buf[which];
}

static void test_ring(int Jask)
{
    static unsigned char cnt[(size_t)MA_MAX * MA_MAX];
    ring_report r;
    memset(&r, 0, sizeof r);
    const int big[] = {1023, 1024, 1025, 1500, 2047, 2048, 2049};
    const int nbig = (int)(sizeof big / sizeof big[0]);
    double worst = 0.0;
    int worst_ma = 0, j2 = 0;
    for (int t = 0; t <= 1000 + nbig; t++) {
        const int ma = t <= 1000 ? t : big[t - 1001];
        walk(ma, Jask, cnt, &r);
        if (ma >= 3 && nbr_ring_j(ma, Jask) != Jask)
            j2 = ma;
        if (ma >= 96 && ma <= 400) { /* the liquid's rows: slots per pair */
            const double q = (double)nbr_ring_slots(ma, Jask) / (0.5 * ma * (ma - 1));
            if (q > worst) {
                worst = q;
                worst_ma = ma;
            }
        }
    }
    gsl_test(r.bad[B_COUNT] != 0, "ring J=%d: every pair j < k < ma counted once, by real lanes "
             "only, ma = 0..1000 and 7 up to 2049%s", Jask, first(&r, B_COUNT));
    gsl_test(r.bad[B_INDEX] != 0, "ring J=%d: j_i and a real lane's k in 0..ma-1, a pad's k in "
             "ma..32 ceil(ma/32) - 1%s", Jask, first(&r, B_INDEX));
    gsl_test(r.bad[B_DEGEN] != 0, "ring J=%d: k never one of the lane's j_i, masked or not%s",
             Jask, first(&r, B_DEGEN));
    gsl_test(r.bad[B_KSTORE] != 0, "ring J=%d: the 32 lanes' k distinct at every step%s", Jask,
             first(&r, B_KSTORE));
    gsl_test(r.bad[B_JSTORE] != 0, "ring J=%d: the j stores' j_i distinct for each i%s", Jask,
             first(&r, B_JSTORE));
    gsl_test(r.bad[B_GROUP] != 0, "ring J=%d: a split group's j sums reach a storing lane%s",
             Jask, first(&r, B_GROUP));
    gsl_test(r.bad[B_SLOTS] != 0, "ring J=%d: nbr_ring_slots = 32 J per warp step%s", Jask,
             first(&r, B_SLOTS));
    gsl_test(r.bad[B_MORE] != 0, "ring J=%d: never more slots than the 32 x 32 tiles' walk "
             "(J = 2: every ma; else ma >= 64)%s", Jask, first(&r, B_MORE));
    printf("# ring J=%d: at most %.3f slots per entry pair for ma in 96..400 (ma = %d); J = 2 "
           "taken up to ma = %d\n", Jask, worst, worst_ma, j2);
}

static void test_rings(void)
{
    for (int J = 2; J <= NBR_RING_JMAX; J++)
        test_ring(J);
}

int main(void)
{
    tb_test_init();
    TB_TEST_RUN(test_rings);
    return tb_test_done();
}
