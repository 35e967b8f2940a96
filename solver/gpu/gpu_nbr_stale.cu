/* gpu_nbr_stale.cu — the neighbour lists' skin test (nbr.h: a particle moved more than skin/2
 * since the build, or the stretched box's form of it), in two ways:
 *   waiting (gpu_nbr_update, gpu_nbr_refresh): the flag back to the host, which waits for it,
 *     then the build when it is set;
 *   speculative (gpu_nbr_test_start, gpu_nbr_test_read, gpu_nbr_rebuild): the flag goes into
 *     pinned host memory behind an event and the forces run on the lists as they are; the
 *     backend reads it when it queues the next operation and, when set, rolls the evaluation
 *     back, rebuilds at the same positions and evaluates again (gpu_spec.cu). This test also
 *     sets an early bit, NBR_SOON, when a particle may cross within the next step,
 *     |x - x_ref| + 2 dt |v| + 2 dt^2 |F| / m > skin/2, so that the next evaluation waits for
 *     its own test instead of rolling back (docs/gpu.md, "A step's waits").
 * The builds themselves: gpu_nbr_build.cu. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_nbr_int.h"
#include "solver/gpu/gpu_nbr_test.cuh"

/* The test's bits for particle i (0 for i >= n): nbr_bits_vf (gpu_nbr_test.cuh) with v and F
 * read from s (s.vel set: the early bit). */
__device__ __forceinline__ unsigned nbr_bits(double moved2, double lim2, int i, int n,
                                             const tb_double4 *pos, const gpu_nbr_soon &s)
{
    if (i >= n)
        return 0u;
    if (!s.vel)
        return moved2 > lim2 ? NBR_STALE : 0u;
    const double dm = s.typed ? s.f2.v[gpu_type_of(pos[i].w)] : s.f2.v[0];
    return nbr_bits_vf(moved2, lim2, true, s.vel[i], s.force[i], s.v2, dm);
}

/* The rollback's copy of v (s.vsave, the speculative test of a step). */
__device__ __forceinline__ void nbr_vsave(int i, int n, const gpu_nbr_soon &s)
{
    if (s.vsave && i < n)
        s.vsave[i] = s.vsrc[i];
}

template <bool PUB>
__global__ void nbr_stale_kernel(const tb_double4 *pos, const tb_double4 *xref, int n,
                                 tb_box_d box, double lim2, gpu_nbr_soon s, unsigned *flag,
                                 unsigned *hflag)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double moved2 = 0.0;
    if (i < n) {
        const tb_double4 p = pos[i], r = xref[i];
        double d[3] = {p.x - r.x, p.y - r.y, p.z - r.z};
        box_min_image_d(&box, d);
        moved2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    nbr_vsave(i, n, s);
    nbr_flag_or<PUB>(nbr_bits(moved2, lim2, i, n, pos, s), flag, hflag);
}

/* nbr_stale_kernel in a box stretched by m since the build (nbr.h). */
template <bool PUB>
__global__ void nbr_stale_stretch_kernel(const tb_double4 *pos, const tb_double4 *xref, int n,
                                         tb_box_d box, gpu_map6 m, double lim2, gpu_nbr_soon s,
                                         unsigned *flag, unsigned *hflag)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    double moved2 = 0.0;
    if (i < n) {
        const tb_double4 p = pos[i], r = xref[i];
        const double x[3] = {p.x, p.y, p.z}, xr[3] = {r.x, r.y, r.z};
        moved2 = nbr_stretch_moved2(&box, m.m, x, xr);
    }
    nbr_vsave(i, n, s);
    nbr_flag_or<PUB>(nbr_bits(moved2, lim2, i, n, pos, s), flag, hflag);
}

/* The test of a box that moves on the device (gpu_nbr_box_dev): the box now and r (the map
 * from the lists' box, the bound) read from device memory; nbr_stale_kernel's arithmetic when
 * the box did not move, nbr_stale_stretch_kernel's when it did; a negative bound (the box
 * stretched beyond what the test bounds) sets NBR_STALE: the lists are built at these
 * positions, as the host path builds them before its evaluation. */
template <bool PUB>
__global__ void nbr_stale_dev_kernel(const tb_double4 *pos, const tb_double4 *xref, int n,
                                     const tb_box_d *box, const gpu_box_rec *r, gpu_nbr_soon s,
                                     unsigned *flag, unsigned *hflag)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const double lim2 = r->lim2;
    double moved2 = 0.0;
    if (i < n) {
        const tb_double4 p = pos[i], q = xref[i];
        if (r->moved) {
            const double x[3] = {p.x, p.y, p.z}, xr[3] = {q.x, q.y, q.z};
            moved2 = nbr_stretch_moved2(box, r->m, x, xr);
        } else {
            double d[3] = {p.x - q.x, p.y - q.y, p.z - q.z};
            box_min_image_d(box, d);
            moved2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        }
    }
    nbr_vsave(i, n, s);
    nbr_flag_or<PUB>(lim2 < 0.0 ? (i < n ? NBR_STALE : 0u) : nbr_bits(moved2, lim2, i, n, pos, s),
                     flag, hflag);
}

/* The test into d_flag (zeroed first; pub: into d_pub and the host's pinned word, PUB
 * above): 0 launched, 1 when the box stretched beyond what a skin test bounds (the lists must
 * be built now; nothing launched), -1 on an error (reported). TB_STEP_FUSE=0 in the environment:
 * the speculative test as before (a memset, the test, a copy of the flag; and a copy of v), for
 * before/after measurements in one binary. */
static int nbr_test_launch(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, int pub,
                           cudaStream_t st)
{
    const int T = 256, grid = (b->n + T - 1) / T;
    double m[6];
    unsigned *flag = pub ? b->d_pub : b->d_flag;
    if (!pub)
        CUDA_CHECK(cudaMemsetAsync(b->d_flag, 0, sizeof(unsigned), st));
    if (b->d_box) {
        (pub ? nbr_stale_dev_kernel<true> : nbr_stale_dev_kernel<false>)<<<grid, T, 0, st>>>(
            pos, b->d_xref, b->n, b->d_box, b->d_boxr, *s, flag, b->h_flag_dev);
        TB_LAUNCH_CHECK("nbr_stale_dev_kernel");
        return 0;
    }
    if (nbr_stretch(&b->box, &b->box_ref, m)) {
        const double lim = nbr_stretch_limit(m, b->radius - b->skin, b->skin);
        gpu_map6 mm;
        if (lim < 0.0)
            return 1;
        memset(&mm, 0, sizeof mm);
        for (int a = 0; a < 6; a++)
            mm.m[a] = m[a];
        (pub ? nbr_stale_stretch_kernel<true> : nbr_stale_stretch_kernel<false>)<<<grid, T, 0, st>>>(
            pos, b->d_xref, b->n, b->box, mm, lim * lim, *s, flag, b->h_flag_dev);
        TB_LAUNCH_CHECK("nbr_stale_stretch_kernel");
    } else {
        (pub ? nbr_stale_kernel<true> : nbr_stale_kernel<false>)<<<grid, T, 0, st>>>(
            pos, b->d_xref, b->n, b->box, 0.25 * b->skin * b->skin, *s, flag, b->h_flag_dev);
        TB_LAUNCH_CHECK("nbr_stale_kernel");
    }
    return 0;
}

int gpu_step_fuse(void)
{
    static int pub = -1;
    if (pub < 0) {
        /* 0, 1 (h24flat's), 2 (h24lst's), 3 (the default: gpu_step.cu) */
        const char *e = getenv("TB_STEP_FUSE");
        pub = e && *e ? atoi(e) : 3;
    }
    return pub;
}

/* The waiting test: rebuilds when no list exists or a particle moved more than skin/2 since
 * the last build; *bits: the test's bits (0 when it did not run: fresh lists, none yet). */
static int nbr_update(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, unsigned *bits,
                      cudaStream_t st)
{
    *bits = 0u;
    if (b->fresh) { /* gpu_nbr_refresh or the speculative test checked these positions */
        b->fresh = 0;
        return 0;
    }
    if (b->builds > 0) {
        gpu_nbr_soon w = *s; /* the waiting test copies no v */
        w.vsave = NULL;
        const int r = nbr_test_launch(b, pos, &w, 0, st);
        if (r < 0)
            return -1;
        if (r == 0) {
            CUDA_CHECK(cudaMemcpyAsync(b->h_flag, b->d_flag, sizeof(unsigned),
                                       cudaMemcpyDeviceToHost, st));
            CUDA_CHECK(gpu_wait_stream(st));
            *bits = *(volatile unsigned *)b->h_flag;
            if (!(*bits & NBR_STALE))
                return 0;
        }
    }
    return gpu_nbr_build(b, pos, st);
}

int gpu_nbr_update(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    gpu_nbr_soon none;
    unsigned bits;
    memset(&none, 0, sizeof none);
    return nbr_update(b, pos, &none, &bits, st);
}

int gpu_nbr_refresh(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, unsigned *bits,
                    cudaStream_t st)
{
    gpu_nbr_soon none;
    memset(&none, 0, sizeof none);
    const int rc = nbr_update(b, pos, s ? s : &none, bits, st);
    b->fresh = rc == 0;
    return rc;
}

int gpu_nbr_test_start(gpu_nbr *b, const tb_double4 *pos, const gpu_nbr_soon *s, cudaStream_t st)
{
    if (b->builds == 0)
        return 1;
    const int pub = gpu_step_fuse();
    gpu_nbr_soon w = *s;
    if (!pub)
        w.vsave = NULL;
    const int r = nbr_test_launch(b, pos, &w, pub, st);
    if (r != 0)
        return r;
    if (!pub)
        CUDA_CHECK(cudaMemcpyAsync(b->h_flag, b->d_flag, sizeof(unsigned), cudaMemcpyDeviceToHost,
                                   st));
    CUDA_CHECK(cudaEventRecord(b->ev_flag, st));
    if (!pub && s->vsave)
        CUDA_CHECK(cudaMemcpyAsync(s->vsave, s->vsrc, (size_t)b->n * sizeof(tb_double4),
                                   cudaMemcpyDeviceToDevice, st));
    b->fresh = 1; /* the forces run on the lists as they are */
    return 0;
}

int gpu_nbr_test_fusable(gpu_nbr *b, const gpu_nbr_soon *s, gpu_nbr_fuse *f)
{
    double m[6];
    if (gpu_step_fuse() < 3 || b->builds == 0 || b->d_box || nbr_stretch(&b->box, &b->box_ref, m))
        return 0;
    memset(f, 0, sizeof *f);
    f->xref = b->d_xref;
    f->box = b->box;
    f->lim2 = 0.25 * b->skin * b->skin; /* nbr_test_launch's */
    f->soon = s->vel != NULL;
    f->v2 = s->v2;
    f->f2 = s->f2;
    f->vsave = s->vsave;
    f->flag = b->d_pub;
    f->hflag = b->h_flag_dev;
    return 1;
}

int gpu_nbr_test_fused(gpu_nbr *b, cudaStream_t st)
{
    CUDA_CHECK(cudaEventRecord(b->ev_flag, st));
    b->fresh = 1; /* the forces run on the lists as they are */
    return 0;
}

int gpu_nbr_test_read(gpu_nbr *b, unsigned *flag)
{
    CUDA_CHECK(gpu_wait_event(b->ev_flag));
    *flag = *(volatile unsigned *)b->h_flag;
    return 0;
}

int gpu_nbr_rebuild(gpu_nbr *b, const tb_double4 *pos, cudaStream_t st)
{
    if (gpu_nbr_build(b, pos, st) != 0)
        return -1;
    b->fresh = 1;
    return 0;
}
