/* gpu_backend_ext.cu — the GPU backend's operations beyond a step (backend.h): the kinetic
 * energy in all and per axis, the last virial and the box rescale of the barostats
 * (physics/baro.h), new positions for the library (put) and the host <-> device copies of
 * the [3n] arrays (upload3, download3), the RDF histogram of the observables (rdf), the
 * integrators' primitives (kick, drift, scale, ostep), the finiteness checks and the zeroing
 * of an evaluation's accumulators (gpu_acc_zero, called by gpu_forces). Each
 * operation first settles a skin test in flight (GPU_SETTLE, gpu_spec.cu). The backend's
 * state: gpu_backend_int.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_backend_int.h"

int gpu_kinetic(backend *b, double *ke)
{
    GPU_SETTLE(b);
    double v2[TB_TYPES_MAX];
    const int nt = b->ntypes > 1 ? b->ntypes : 1;
    if (!b->d_ke)
        CUDA_CHECK(cudaMalloc(&b->d_ke, GPU_KE_WORDS(1) * sizeof(double)));
    if (gpu_motion_kinetic(b->d_vel, b->d_pos, b->n, nt, b->d_ke, b->st) != 0)
        return -1;
    CUDA_CHECK(cudaMemcpyAsync(v2, b->d_ke, nt * sizeof(double), cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    *ke = 0.0;
    for (int t = 0; t < nt; t++)
        *ke += 0.5 * b->mass[t] * v2[t];
    return 0;
}

/* The barostat's primitives (backend.h): 6 + 3 doubles come back to the host per rescale,
 * the box goes to the kernels as their argument (pp, args), so the positions never leave the
 * device. */
int gpu_virial(backend *b, double w[6])
{
    GPU_SETTLE(b);
    if (!b->computed)
        return memcpy(w, b->w_given, 6 * sizeof *w), 0;
    if (!b->vir_valid)
        return tb_error(NULL, 0, "internal: the barostat asked for a virial that was not summed");
    if (b->args.mode == ACC_FIXED)
        return gpu_virial_fixed(b, w);
    CUDA_CHECK(cudaMemcpyAsync(w, b->d_virial, 6 * sizeof(double), cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    return 0;
}

int gpu_kinetic_v2(backend *b, double v2[6 * TB_TYPES_MAX])
{
    GPU_SETTLE(b);
    const int nt = b->ntypes > 1 ? b->ntypes : 1;
    if (!b->d_ke3)
        CUDA_CHECK(cudaMalloc(&b->d_ke3, GPU_KE_WORDS(6) * sizeof(double)));
    if (gpu_motion_kinetic_axes(b->d_vel, b->d_pos, b->n, nt, b->d_ke3, b->st) != 0)
        return -1;
    CUDA_CHECK(cudaMemcpyAsync(v2, b->d_ke3, 6 * nt * sizeof(double), cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    return 0;
}

int gpu_kinetic_axes(backend *b, double k[6])
{
    double v2[6 * TB_TYPES_MAX];
    const int nt = b->ntypes > 1 ? b->ntypes : 1;
    if (gpu_kinetic_v2(b, v2) != 0)
        return -1;
    for (int a = 0; a < 6; a++)
        k[a] = 0.0;
    for (int t = 0; t < nt; t++)
        for (int a = 0; a < 6; a++)
            k[a] += 0.5 * b->mass[t] * v2[6 * t + a];
    return 0;
}

int gpu_rescale(backend *b, const double m[6], const double vm[6])
{
    GPU_SETTLE(b);
    if (m) {
        box_deform_d(&b->pp.d.box, m);
        b->pp.f.box = box_to_f(&b->pp.d.box);
        b->args.kd.box = b->pp.d.box;
        b->args.kf.box = b->pp.f.box;
        if (b->cull)
            gpu_nbr_move_box(b->nb, &b->pp.d.box);
    }
    return gpu_motion_rescale(b->d_pos, b->d_vel, b->dbl ? NULL : b->d_posf, b->n, m, vm,
                              &b->pp.d.box, b->threads, b->st);
}

/* Host interleaved [3n] doubles to the xyz lanes of device double4 [n] (and back), the fourth
 * lane kept: one whole-array copy of the 3n doubles through the staging buffer (pinned when it
 * can be) and d_h3, and a kernel that scatters them into the lanes (gathers them out of them);
 * a host array that is page-locked itself (the library's positions and forces: gpu_host_alloc)
 * is copied from and to directly, without the staging copy.
 * A 2D copy of 24-byte rows to or from pageable memory goes row by row (about 40 ms for the
 * positions, velocities and forces of 32768 particles on an H200), and a copy of the whole
 * double4 array needs the fourth lane read back first; this moves 24 bytes a particle once.
 * Through the stage both return with the copy done (the stage is reused); an upload from
 * page-locked memory returns with the copy queued (the caller does not write it before its
 * next wait: gpu_put). */
__global__ void scatter3_kernel(tb_double4 *d, const double *h3, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        d[i].x = h3[3 * i];
        d[i].y = h3[3 * i + 1];
        d[i].z = h3[3 * i + 2];
    }
}

__global__ void gather3_kernel(double *h3, const tb_double4 *d, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const tb_double4 v = d[i];
        h3[3 * i] = v.x;
        h3[3 * i + 1] = v.y;
        h3[3 * i + 2] = v.z;
    }
}

/* The device's address of page-locked host memory h (cudaHostAlloc'ed or registered; with
 * unified addressing every such page is mapped), or NULL for pageable memory: a copy from or
 * to it runs at the link's speed without the staging buffer, and a kernel may read or write
 * it directly. */
static void *host_mapped(const void *h)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, h) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: an address CUDA does not know is pageable */
        return NULL;
    }
    return a.type == cudaMemoryTypeHost ? a.devicePointer : NULL;
}

static int host_locked(const void *h)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, h) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

/* put's positions in one kernel (b->zc): each block reads its 256 particles' 768 doubles of
 * the page-locked host array in order (whole transactions over the link) into shared memory,
 * then writes each particle's xyz into d's lanes (w, the type, kept) and its float copy, the
 * expressions of scatter3_kernel and to_float_kernel (gpu_motion.cu): the same bits. */
#define ZC_BLOCK 256
__global__ void put_pos_kernel(tb_double4 *d, float4 *posf, const double *h3, int n)
{
    __shared__ double sh[3 * ZC_BLOCK];
    const int base = blockIdx.x * ZC_BLOCK, t = threadIdx.x;
    const int m = min(ZC_BLOCK, n - base);
    for (int j = t; j < 3 * m; j += ZC_BLOCK)
        sh[j] = h3[3 * (size_t)base + j];
    __syncthreads();
    if (t < m) {
        tb_double4 v = d[base + t];
        v.x = sh[3 * t];
        v.y = sh[3 * t + 1];
        v.z = sh[3 * t + 2];
        d[base + t] = v;
        posf[base + t] = make_float4((float)v.x, (float)v.y, (float)v.z,
                                     __int_as_float(gpu_type_of(v.w)));
    }
}

/* results' forces in one kernel (b->zc): gathered through shared memory and written in order
 * into the page-locked host array; block 0 also writes the two energies and the virial into
 * res (h_res, pinned; NULL: the deterministic mode's words come by their own copies), which
 * two copies brought before. */
__global__ void get_results_kernel(double *h3, const tb_double4 *d, int n, double *res,
                                   const double *energy, const double *virial)
{
    __shared__ double sh[3 * ZC_BLOCK];
    const int base = blockIdx.x * ZC_BLOCK, t = threadIdx.x;
    const int m = min(ZC_BLOCK, n - base);
    if (t < m) {
        const tb_double4 v = d[base + t];
        sh[3 * t] = v.x;
        sh[3 * t + 1] = v.y;
        sh[3 * t + 2] = v.z;
    }
    __syncthreads();
    for (int j = t; j < 3 * m; j += ZC_BLOCK)
        h3[3 * (size_t)base + j] = sh[j];
    if (res && blockIdx.x == 0 && t < 8)
        res[t] = t < 2 ? energy[t] : virial[t - 2];
}

int gpu_put_pos(backend *b, const double *h3)
{
    const double *dh = (const double *)host_mapped(h3);
    if (!dh)
        return 0;
    put_pos_kernel<<<(b->n + ZC_BLOCK - 1) / ZC_BLOCK, ZC_BLOCK, 0, b->st>>>(b->d_pos, b->d_posf,
                                                                          dh, b->n);
    TB_LAUNCH_CHECK("put_pos_kernel");
    return 1;
}

int gpu_get_results(backend *b, double *h3, int res)
{
    double *dh = (double *)host_mapped(h3), *dres = res ? (double *)host_mapped(b->h_res) : NULL;
    if (!dh || (res && !dres))
        return 0;
    get_results_kernel<<<(b->n + ZC_BLOCK - 1) / ZC_BLOCK, ZC_BLOCK, 0, b->st>>>(
        dh, b->d_force, b->n, dres, b->d_energy, b->d_virial);
    TB_LAUNCH_CHECK("get_results_kernel");
    return 1;
}

void *gpu_host_alloc(size_t bytes)
{
    void *p = NULL;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
        (void)cudaGetLastError(); /* not sticky: the caller keeps its pageable memory */
        return NULL;
    }
    return p;
}

void gpu_host_free(void *p)
{
    if (p)
        cudaFreeHost(p);
}

int gpu_upload3(backend *b, tb_double4 *d, const double *h)
{
    const size_t bytes = 3 * (size_t)b->n * sizeof(double);
    const int locked = host_locked(h);
    if (!locked)
        sim_copy_doubles(b->h_stage, h, 3 * (size_t)b->n);
    CUDA_CHECK(cudaMemcpyAsync(b->d_h3, locked ? h : b->h_stage, bytes, cudaMemcpyHostToDevice, b->st));
    scatter3_kernel<<<(b->n + 255) / 256, 256, 0, b->st>>>(d, b->d_h3, b->n);
    TB_LAUNCH_CHECK("scatter3_kernel");
    if (!locked) /* the staging is reused: the copy out of it done before it is */
        CUDA_CHECK(gpu_wait_stream(b->st));
    return 0;
}

int gpu_download3_start(backend *b, double *h, const tb_double4 *d)
{
    const size_t bytes = 3 * (size_t)b->n * sizeof(double);
    b->h_direct = host_locked(h);
    gather3_kernel<<<(b->n + 255) / 256, 256, 0, b->st>>>(b->d_h3, d, b->n);
    TB_LAUNCH_CHECK("gather3_kernel");
    CUDA_CHECK(cudaMemcpyAsync(b->h_direct ? h : b->h_stage, b->d_h3, bytes,
                               cudaMemcpyDeviceToHost, b->st));
    return 0;
}

void gpu_download3_finish(backend *b, double *h)
{
    if (!b->h_direct)
        sim_copy_doubles(h, b->h_stage, 3 * (size_t)b->n);
}

int gpu_download3(backend *b, double *h, const tb_double4 *d)
{
    if (gpu_download3_start(b, h, d) != 0)
        return -1;
    CUDA_CHECK(gpu_wait_stream(b->st));
    gpu_download3_finish(b, h);
    return 0;
}

/* New positions (and their float copy) and / or velocities, the type lane of d_pos kept. */
int gpu_put(backend *b, const sim_state *s, int what)
{
    GPU_SETTLE(b);
    CUDA_CHECK(cudaSetDevice(b->dev));
    /* new positions after a non-finite evaluation (the library's refused state): the record,
     * which keeps the first bad step, starts again, or every later check would report it */
    if ((what & BACKEND_PUT_POS) && b->fin_bad) {
        if (gpu_finite_reset(b->d_finite, b->st) != 0)
            return -1;
        b->fin_bad = b->fin_flag = 0;
    }
    if (what & BACKEND_PUT_POS) {
        const int zc = b->zc ? gpu_put_pos(b, s->pos) : 0;
        if (zc < 0 || (zc == 0 && (gpu_upload3(b, b->d_pos, s->pos) != 0 ||
                                   gpu_motion_to_float(b->d_pos, b->d_posf, b->n, b->threads,
                                                       b->st) != 0)))
            return -1;
    }
    if ((what & BACKEND_PUT_VEL) && gpu_upload3(b, b->d_vel, s->vel) != 0)
        return -1;
    /* no wait: what follows runs on the same stream, and page-locked sources (the library's
     * positions: solver/lib/engine.c) are not written before the next evaluation's wait */
    b->fin_early = 0;
    return 0;
}

int gpu_rdf(backend *b, const rdf_spec *s, unsigned long long *counts, double *volume)
{
    GPU_SETTLE(b);
    CUDA_CHECK(cudaSetDevice(b->dev));
    *volume = box_volume_d(&b->pp.d.box);
    return gpu_rdf_count(b->d_pos, b->n, b->ntypes > 1, &b->pp.d.box, s, &b->rdfw, counts, b->st);
}

/* ---- the integrators' primitives and the finiteness checks ---------------------- */

int gpu_kick(backend *b, double h)
{
    GPU_SETTLE(b);
    const gpu_per_type hm = gpu_over_mass(b, h);
    return gpu_motion_kick(b->d_vel, b->d_force, b->d_pos, b->n, b->ntypes > 1, &hm, b->threads, b->st);
}

int gpu_drift(backend *b, double h)
{
    GPU_SETTLE(b);
    return gpu_motion_drift(b->d_pos, b->d_vel, b->dbl ? NULL : b->d_posf, b->n, h, &b->pp.d.box,
                            b->threads, b->st);
}

int gpu_scale(backend *b, double c)
{
    GPU_SETTLE(b);
    return gpu_motion_scale(b->d_vel, b->n, c, b->threads, b->st);
}

int gpu_ostep(backend *b, double c1, const double *c2, const double *xi)
{
    GPU_SETTLE(b);
    const size_t bytes = 3 * (size_t)b->n * sizeof(double);
    if (!b->d_xi)
        CUDA_CHECK(cudaMalloc(&b->d_xi, bytes));
    /* pageable host memory: the copy is complete (xi reusable) when the call returns */
    CUDA_CHECK(cudaMemcpyAsync(b->d_xi, xi, bytes, cudaMemcpyHostToDevice, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    gpu_per_type c2s;
    for (int t = 0; t < TB_TYPES_MAX; t++)
        c2s.v[t] = t < b->ntypes ? c2[t] : 0.0;
    return gpu_motion_ostep(b->d_vel, b->d_pos, b->d_xi, b->n, b->ntypes > 1, c1, &c2s, b->threads,
                            b->st);
}

/* TB_FIN_POISON=S:P, a test switch (scripts/gpu-check finite): before the check of the state
 * after step S, whichever path checks it, particle P's velocity is made NaN (P < 0: the pair
 * energy), once, so that the check must name that value and step; 0 or -1. */
static int fin_poison(backend *b, long step)
{
    static int read = 0;
    static long ps = -1, pp = 0;
    static const double nan_v = NAN;
    if (!read) {
        const char *e = getenv("TB_FIN_POISON");
        read = 1;
        if (e && sscanf(e, "%ld:%ld", &ps, &pp) != 2)
            ps = -1;
    }
    if (ps < 0 || step != ps || pp >= b->n)
        return 0;
    ps = -1;
    double *to = pp >= 0 ? &b->d_vel[pp].y : b->d_energy + 1;
    CUDA_CHECK(cudaMemcpyAsync(to, &nan_v, sizeof nan_v, cudaMemcpyHostToDevice, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    return 0;
}

/* What the check of the state after `step` reads besides the particles, either path's (and
 * TB_FIN_POISON's NaN planted first); 0 or -1. */
static int fin_check_of(backend *b, long step, gpu_fin_check *fc)
{
    /* Energies and the virial are in d_energy and d_virial except for fixed-point sums (and
     * before any force call). */
    const int dbl = b->computed && b->args.mode != ACC_FIXED;
    memset(fc, 0, sizeof *fc);
    fc->rec = b->d_finite;
    fc->step = step;
    memcpy(fc->mass.v, b->mass, sizeof fc->mass.v);
    fc->ke_bound = tb_ke_bound(b->n);
    fc->energy = dbl ? b->d_energy : NULL;
    fc->virial = dbl ? b->d_virial : NULL;
    return fin_poison(b, step);
}

/* Launches the finiteness check of the state after `step` into the next slot of the pinned
 * record (gpu_finite.cu). */
int gpu_finite_start(backend *b, long step)
{
    gpu_fin_check fc;
    if (fin_check_of(b, step, &fc) != 0)
        return -1;
    b->fin_slot ^= 1;
    b->fin_fused = 0; /* this copy holds the record as of now, a kick-drift's check included */
    return gpu_finite_launch(b->d_pos, b->d_vel, b->d_force, fc.energy, fc.virial, &fc.mass,
                             b->ntypes > 1, b->n, step, b->d_finite, b->h_finite + b->fin_slot,
                             b->ev_fin[b->fin_slot], b->st);
}

int gpu_fin_flush(backend *b)
{
    if (!b->fin_defer)
        return 0;
    b->fin_defer = 0;
    return gpu_finite_start(b, b->fin_defer_step);
}

int gpu_fin_take(backend *b, gpu_fin_check *fc)
{
    if (fin_check_of(b, b->fin_defer_step, fc) != 0)
        return -1;
    b->fin_defer = 0;
    b->fin_fused = 1;
    return 0;
}

int gpu_check_finite(backend *b, long step, tb_nonfinite *nf)
{
    GPU_SETTLE(b);
    b->fin_pending = 0; /* the record is cumulative: this read covers the pending one too */
    b->fin_flag = 0;
    /* results() queued the check of the state it returned (fin_early: nothing changed since;
     * the library's evaluations ask step 0): its record is read, no second launch */
    const int queued = b->fin_early && step == 0;
    b->fin_early = 0;
    if (!queued && gpu_finite_start(b, step) != 0)
        return -1;
    if (gpu_finite_read(b->h_finite + b->fin_slot, b->ev_fin[b->fin_slot], &nf->step, &nf->term,
                        &nf->particle) != 0)
        return -1;
    b->fin_bad |= nf->step >= 0;
    return 0;
}

/* check_finite_late (backend.h): defers the check of `step` to the next step's kick-drift (or
 * to the next operation, gpu_fin_flush) and returns the record as of the check of the previous
 * call's step, done since without a wait for the step just queued: by a kick-drift, whose bad
 * values the skin test's flag brought (fin_flag, read by this call's settle; the record is
 * copied only then), or by a launch of its own, whose copy's event the stream passed while the
 * host queued this step. */
int gpu_check_finite_late(backend *b, long step, tb_nonfinite *nf)
{
    GPU_SETTLE(b);
    const int had = b->fin_pending;
    b->async = 1;
    b->fin_early = 0;
    nf->step = -1;
    nf->term = nf->particle = -1;
    if (had && (!b->fin_fused || b->fin_flag)) {
        if (b->fin_fused) { /* rare: a bad value; the record copied (one wait for the step) */
            b->fin_slot ^= 1;
            if (gpu_finite_copy(b->d_finite, b->h_finite + b->fin_slot, b->ev_fin[b->fin_slot],
                                b->st) != 0)
                return -1;
        }
        if (gpu_finite_read(b->h_finite + b->fin_slot, b->ev_fin[b->fin_slot], &nf->step,
                            &nf->term, &nf->particle) != 0)
            return -1;
        b->fin_flag = 0;
    }
    b->fin_defer = 1;
    b->fin_defer_step = step;
    b->fin_pending = 1;
    return 0;
}

/* The accumulators of an evaluation zeroed in one kernel (gpu_step_fuse): up to 5 arrays of
 * 8-byte words, grid-stride. The same zeros as the memsets of before, one stream operation
 * instead of 3 (5 deterministic). */
typedef struct acc_zero_set {
    unsigned long long *p[5];
    long long cnt[5];
} acc_zero_set;

__global__ void acc_zero_kernel(acc_zero_set z, long long total)
{
    for (long long w = blockIdx.x * (long long)blockDim.x + threadIdx.x; w < total;
         w += (long long)gridDim.x * blockDim.x) {
        long long k = w;
        int a = 0;
        while (k >= z.cnt[a]) {
            k -= z.cnt[a];
            a++;
        }
        z.p[a][k] = 0ull;
    }
}

/* Adds an array of words to z. */
static void zero_add(acc_zero_set *z, int *k, long long *total, void *p, long long words)
{
    z->p[*k] = (unsigned long long *)p;
    z->cnt[(*k)++] = words;
    *total += words;
}

/* Zeroes the accumulators of an evaluation (forces, energies, virial of the mode) on the
 * stream: one kernel, or the memsets of before under TB_STEP_FUSE=0. */
int gpu_acc_zero(backend *b)
{
    const size_t n = (size_t)b->n;
    if (b->acc_clean) { /* zeroed by the step's kick-drift (gpu_step.cu) */
        b->acc_clean = 0;
        return 0;
    }
    if (gpu_step_fuse()) {
        acc_zero_set z;
        long long total = 0;
        int k = 0;
        memset(&z, 0, sizeof z);
        zero_add(&z, &k, &total, b->d_energy, 2);
        zero_add(&z, &k, &total, b->d_virial, 6);
        switch (b->args.mode) {
        case ACC_DOUBLE: zero_add(&z, &k, &total, b->d_acc, 4 * (long long)n); break;
        case ACC_FLOAT: zero_add(&z, &k, &total, b->d_acc_f, 2 * (long long)n); break; /* floats */
        default:
            zero_add(&z, &k, &total, b->d_fix, 8 * (long long)n);
            zero_add(&z, &k, &total, b->d_efix, 4);
            zero_add(&z, &k, &total, b->d_vfix, 12);
        }
        const int T = 256;
        const long long want = (total + T - 1) / T;
        acc_zero_kernel<<<(int)(want < 8192 ? want : 8192), T, 0, b->st>>>(z, total);
        TB_LAUNCH_CHECK("acc_zero_kernel");
        return 0;
    }
    CUDA_CHECK(cudaMemsetAsync(b->d_energy, 0, 2 * sizeof(double), b->st));
    CUDA_CHECK(cudaMemsetAsync(b->d_virial, 0, 6 * sizeof(double), b->st));
    switch (b->args.mode) {
    case ACC_DOUBLE: CUDA_CHECK(cudaMemsetAsync(b->d_acc, 0, 4 * n * sizeof(double), b->st)); break;
    case ACC_FLOAT: CUDA_CHECK(cudaMemsetAsync(b->d_acc_f, 0, 4 * n * sizeof(float), b->st)); break;
    default:
        CUDA_CHECK(cudaMemsetAsync(b->d_fix, 0, 8 * n * sizeof(unsigned long long), b->st));
        CUDA_CHECK(cudaMemsetAsync(b->d_efix, 0, 4 * sizeof(unsigned long long), b->st));
        CUDA_CHECK(cudaMemsetAsync(b->d_vfix, 0, 12 * sizeof(unsigned long long), b->st));
    }
    return 0;
}
