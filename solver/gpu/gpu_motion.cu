/* gpu_motion.cu — the integrators' O(n) kernels on the device: the float copy of the positions,
 * velocity Verlet's kick-drift (also with the lists' skin test: kick_drift_test_kernel) and
 * kick, the thermostats' drift, velocity scaling and Ornstein-Uhlenbeck step, the kinetic
 * energy per species; and their launchers (gpu_internal.h), which gpu_backend.cu calls. Every
 * drift wraps through the box (box_wrap_d, box.h: tilted cells, open axes), and every kernel
 * that writes positions keeps their type lane. */
#include <string.h>

#include "common/check.h"
#include "solver/gpu/gpu_finite.cuh"
#include "solver/gpu/gpu_internal.h"
#include "solver/gpu/gpu_nbr_test.cuh"

__global__ void to_float_kernel(const tb_double4 *pos, float4 *posf, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) /* the type lane keeps its bits (gpu_internal.h) */
        posf[i] = make_float4((float)pos[i].x, (float)pos[i].y, (float)pos[i].z,
                              __int_as_float(gpu_type_of(pos[i].w)));
}

/* pos[i] = x + h v, wrapped into the box (box_wrap_d), and its float copy: the one drift
 * arithmetic of kick_drift_kernel (NVE) and drift_kernel (the thermostats' steps). */
__device__ __forceinline__ tb_double4 drift_store(tb_double4 *pos, float4 *posf, int i, tb_double4 x,
                                                  const tb_double4 &v, double h, const tb_box_d &box)
{
    double w[3] = {x.x + h * v.x, x.y + h * v.y, x.z + h * v.z};
    box_wrap_d(&box, w);
    x.x = w[0];
    x.y = w[1];
    x.z = w[2];
    pos[i] = x; /* x.w, the type lane, as it was */
    if (posf)
        posf[i] = make_float4((float)x.x, (float)x.y, (float)x.z, __int_as_float(gpu_type_of(x.w)));
    return x;
}

/* The small kernels' TYP: several species, each particle's dt/2m (or noise) by the type lane of
 * its position (gpu_per_type_at); the one-species instances are the kernels of before. */

/* Particle i's kick-drift: the next evaluation's accumulators zeroed (z.per: gpu_step.cu), v += h
 * F (h = dt / 2m of the particle's species), x += dt v wrapped into the box and its float copy
 * (drift_store); returns the new x, the kicked v and the F read in *vo, *fo. fc (or NULL): the
 * particle's finiteness key of the state read, before it moves, into *key (gpu_finite.cuh). */
template <bool TYP>
__device__ __forceinline__ tb_double4 kick_drift_at(int i, tb_double4 *pos, tb_double4 *vel,
                                                    const tb_double4 *force, float4 *posf,
                                                    const gpu_per_type &hm, double dt,
                                                    const tb_box_d &box, const gpu_acc_clear &z,
                                                    tb_double4 *vo, tb_double4 *fo,
                                                    const gpu_fin_check *fc = NULL,
                                                    unsigned long long *key = NULL)
{
    if (z.per) {
        for (int w = 0; w < z.words; w++)
            z.per[(size_t)i * z.words + w] = 0ull;
        if (i == 0)
            for (int a = 0; a < 4; a++)
                for (int w = 0; w < z.nsmall[a]; w++)
                    z.small[a][w] = 0ull;
    }
    tb_double4 v = vel[i], x = pos[i];
    const tb_double4 f = force[i];
    if (fc)
        *key = fin_key_particle(i, f, x, v, gpu_per_type_at<TYP>(fc->mass, x.w), fc->ke_bound);
    const double h = gpu_per_type_at<TYP>(hm, x.w);
    v.x += h * f.x;
    v.y += h * f.y;
    v.z += h * f.z;
    vel[i] = v;
    *vo = v;
    *fo = f;
    return drift_store(pos, posf, i, x, v, dt, box);
}

/* v += h F; x += dt v, wrapped into the box; float copy of x (kick_drift_at). */
template <bool TYP>
__global__ void kick_drift_kernel(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force,
                                  float4 *posf, int n, gpu_per_type hm, double dt, tb_box_d box,
                                  gpu_acc_clear z)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tb_double4 v, f;
    kick_drift_at<TYP>(i, pos, vel, force, posf, hm, dt, box, z, &v, &f);
}

/* kick_drift_kernel's arithmetic (the same bits), launched with or without gpu_launch's
 * attribute (its wait first), and with TEST the lists' speculative skin test of the new
 * positions as nbr_stale_kernel<true> does it (gpu_nbr_stale.cu: the same bits of the flag, the
 * kicked v kept for a rollback): one kernel where a step had two, each reading x, v and F. */
template <bool TYP, bool TEST>
__global__ void kick_drift_test_kernel(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force,
                                       float4 *posf, int n, gpu_per_type hm, double dt,
                                       tb_box_d box, gpu_acc_clear z, gpu_nbr_fuse t,
                                       gpu_fin_check fc)
{
    gpu_pdl_wait();
    gpu_pdl_trigger();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned bits = 0u;
    const bool check = TEST && fc.rec;
    /* the step before's energies and virial, before thread 0 zeroes them (z.small) */
    unsigned long long key = check && i == 0 ? fin_key_whole(GPU_FIN_NONE, fc.energy, fc.virial)
                                             : GPU_FIN_NONE;
    if (i < n) {
        tb_double4 v, f;
        unsigned long long kp = GPU_FIN_NONE;
        const tb_double4 p = kick_drift_at<TYP>(i, pos, vel, force, posf, hm, dt, box, z, &v, &f,
                                                check ? &fc : NULL, &kp);
        key = kp < key ? kp : key;
        if (TEST) {
            const tb_double4 r = t.xref[i];
            double d[3] = {p.x - r.x, p.y - r.y, p.z - r.z};
            box_min_image_d(&t.box, d);
            const double moved2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            bits = nbr_bits_vf(moved2, t.lim2, t.soon, v, f, t.v2,
                               gpu_per_type_at<TYP>(t.f2, p.w));
            if (t.vsave)
                t.vsave[i] = v;
        }
    }
    if (check && key != GPU_FIN_NONE && fin_open(fc.rec, fc.step)) { /* rare: a bad value */
        fin_commit(fc.rec, key, fc.step);
        bits |= NBR_BAD;
    }
    if (TEST)
        nbr_flag_or<true>(bits, t.flag, t.hflag);
}

template <bool TYP>
__global__ void kick_kernel(tb_double4 *vel, const tb_double4 *force, const tb_double4 *pos, int n,
                            gpu_per_type hm)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tb_double4 v = vel[i];
    const tb_double4 f = force[i];
    const double h = gpu_per_type_at<TYP>(hm, TYP ? pos[i].w : 0.0);
    v.x += h * f.x;
    v.y += h * f.y;
    v.z += h * f.z;
    vel[i] = v;
}

/* x += h v, wrapped into the box; float copy of x (drift_store). */
__global__ void drift_kernel(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n, double h,
                             tb_box_d box)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    drift_store(pos, posf, i, pos[i], vel[i], h, box);
}

/* drift_kernel with the box in device memory (MTK_MOVE). */
__global__ void drift_dev_kernel(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n,
                                 double h, const tb_box_d *dbox)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    drift_store(pos, posf, i, pos[i], vel[i], h, *dbox);
}

__global__ void scale_kernel(tb_double4 *vel, int n, double c)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tb_double4 v = vel[i];
    v.x *= c;
    v.y *= c;
    v.z *= c;
    vel[i] = v;
}

/* v = c1 v + c2 xi, xi interleaved [3n] (the host's layout), c2 of the particle's species. */
template <bool TYP>
__global__ void ostep_kernel(tb_double4 *vel, const tb_double4 *pos, const double *xi, int n,
                             double c1, gpu_per_type c2s)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    tb_double4 v = vel[i];
    const double c2 = gpu_per_type_at<TYP>(c2s, TYP ? pos[i].w : 0.0);
    v.x = c1 * v.x + c2 * xi[3 * i];
    v.y = c1 * v.y + c2 * xi[3 * i + 1];
    v.z = c1 * v.z + c2 * xi[3 * i + 2];
    vel[i] = v;
}

/* The velocities' sums of species t (TYP; else of all) over the particles [lo, hi) of each
 * block: K = 1, |v|^2 as the CPU's sim_kinetic sums it before the masses; K = 6, v_a v_b (xx yy
 * zz xy xz yz). A block of KE_THREADS threads takes strided partial sums over its particles,
 * then a tree in shared memory, one species after the other, into out[gridDim.x ..][K nt]: block
 * g's row at out + g K nt. kinetic_final_kernel sums the rows, in a fixed order too, so the
 * result repeats bit for bit (the blocks and their particles depend on n alone). One block (n
 * <= KE_CHUNK) writes the result itself: the single block's sums of before, the same bits. Many
 * blocks since 2026-11-29: the single block read the velocities at one SM's bandwidth (1.7 ms
 * at 1e6 atoms on an H200, at every thermo row and every Nose-Hoover step). */
#define KE_THREADS 256
#define KE_CHUNK 4096 /* particles per block at least */
template <bool TYP, int K>
__global__ void __launch_bounds__(KE_THREADS) kinetic_part_kernel(const tb_double4 *vel,
                                                                  const tb_double4 *pos, int n,
                                                                  int nt, int chunk, double *out)
{
    __shared__ double part[K][KE_THREADS];
    const int lo = blockIdx.x * chunk, hi = min(n, lo + chunk);
    double *row = out + (size_t)blockIdx.x * K * (TYP ? nt : 1);
    for (int t = 0; t < (TYP ? nt : 1); t++) {
        double s[K];
        for (int a = 0; a < K; a++)
            s[a] = 0.0;
        for (int i = lo + threadIdx.x; i < hi; i += KE_THREADS) {
            if (TYP && gpu_type_of(pos[i].w) != t)
                continue;
            const tb_double4 v = vel[i];
            if (K == 1) {
                s[0] += v.x * v.x + v.y * v.y + v.z * v.z;
            } else {
                s[0] += v.x * v.x;
                s[1 % K] += v.y * v.y;
                s[2 % K] += v.z * v.z;
                s[3 % K] += v.x * v.y;
                s[4 % K] += v.x * v.z;
                s[5 % K] += v.y * v.z;
            }
        }
        for (int a = 0; a < K; a++)
            part[a][threadIdx.x] = s[a];
        __syncthreads();
        for (int w = KE_THREADS / 2; w > 0; w >>= 1) {
            if ((int)threadIdx.x < w)
                for (int a = 0; a < K; a++)
                    part[a][threadIdx.x] += part[a][threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0)
            for (int a = 0; a < K; a++)
                row[K * t + a] = part[a][0];
        __syncthreads(); /* part[.][0] read before the next species overwrites it */
    }
}

/* out[c] = the sum over g < rows of part[g m + c], c < m: strided, then a tree (fixed order). */
__global__ void __launch_bounds__(KE_THREADS) kinetic_final_kernel(const double *part, int rows,
                                                                   int m, double *out)
{
    __shared__ double sum[KE_THREADS];
    for (int c = 0; c < m; c++) {
        double x = 0.0;
        for (int g = threadIdx.x; g < rows; g += KE_THREADS)
            x += part[(size_t)g * m + c];
        sum[threadIdx.x] = x;
        __syncthreads();
        for (int w = KE_THREADS / 2; w > 0; w >>= 1) {
            if ((int)threadIdx.x < w)
                sum[threadIdx.x] += sum[threadIdx.x + w];
            __syncthreads();
        }
        if (threadIdx.x == 0)
            out[c] = sum[0];
        __syncthreads();
    }
}

/* The sums of kinetic_part_kernel into out[K nt], its blocks' rows after out[K TB_TYPES_MAX]
 * (GPU_KE_WORDS). */
template <int K>
static int kinetic_sums(const tb_double4 *vel, const tb_double4 *pos, int n, int nt, double *out,
                        cudaStream_t st)
{
    int g = (n + KE_CHUNK - 1) / KE_CHUNK;
    g = g < 1 ? 1 : g > GPU_KE_BLOCKS ? GPU_KE_BLOCKS : g;
    const int chunk = (n + g - 1) / g;
    double *part = g == 1 ? out : out + K * TB_TYPES_MAX;
    (nt > 1 ? kinetic_part_kernel<true, K> : kinetic_part_kernel<false, K>)<<<g, KE_THREADS, 0, st>>>(
        vel, pos, n, nt, chunk, part);
    TB_LAUNCH_CHECK("kinetic_part_kernel");
    if (g > 1) {
        kinetic_final_kernel<<<1, KE_THREADS, 0, st>>>(part, g, K * (nt > 1 ? nt : 1), out);
        TB_LAUNCH_CHECK("kinetic_final_kernel");
    }
    return 0;
}

/* x = lo + M (x - lo) wrapped into the moved box, the float copy: the positions' part of
 * rescale_kernel and rescale_dev_kernel. */
__device__ __forceinline__ void rescale_point(tb_double4 *pos, float4 *posf, int i,
                                              const double *m, int general, const tb_box_d &box)
{
    tb_double4 x = pos[i];
    if (general) {
        double q[3] = {x.x, x.y, x.z};
        box_map_point_d(box.lo, m, q);
        x.x = q[0];
        x.y = q[1];
        x.z = q[2];
    } else {
        x.x = box.lo[0] + m[0] * (x.x - box.lo[0]);
        x.y = box.lo[1] + m[1] * (x.y - box.lo[1]);
        x.z = box.lo[2] + m[2] * (x.z - box.lo[2]);
    }
    const tb_double4 zero = {0.0, 0.0, 0.0, 0.0};
    drift_store(pos, posf, i, x, zero, 0.0, box); /* the wrap and the float copy */
}

/* The barostat's map (backend.h rescale): x = lo + M (x - lo) wrapped into the moved box
 * (HAS_M), v = VM v (HAS_V); a diagonal map takes the old expressions, lo + mu (x - lo) and
 * v * (1/mu) (the CPU's arithmetic: vm carries 1/mu); the float copy and the type lane kept. */
__global__ void rescale_kernel(tb_double4 *pos, tb_double4 *vel, float4 *posf, int n,
                               gpu_map6 m, gpu_map6 vm, tb_box_d box)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (vm.on) {
        tb_double4 v = vel[i];
        if (vm.general) {
            v.x = vm.m[0] * v.x + vm.m[3] * v.y + vm.m[4] * v.z;
            v.y = vm.m[1] * v.y + vm.m[5] * v.z;
            v.z = vm.m[2] * v.z;
        } else {
            v.x *= vm.m[0];
            v.y *= vm.m[1];
            v.z *= vm.m[2];
        }
        vel[i] = v;
    }
    if (!m.on)
        return;
    rescale_point(pos, posf, i, m.m, m.general, box);
}

/* rescale_kernel's positions with the map and the box in device memory (MTK_MOVE: the box
 * moved there by gpu_mtk_box.cu); general by map6's rule. */
__global__ void rescale_dev_kernel(tb_double4 *pos, float4 *posf, int n, const double *dmap,
                                   const tb_box_d *dbox)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const double m[6] = {dmap[0], dmap[1], dmap[2], dmap[3], dmap[4], dmap[5]};
    rescale_point(pos, posf, i, m, m[3] != 0.0 || m[4] != 0.0 || m[5] != 0.0, *dbox);
}

static int blocks_for(int n, int threads)
{
    return (n + threads - 1) / threads;
}

int gpu_motion_to_float(const tb_double4 *pos, float4 *posf, int n, int threads, cudaStream_t st)
{
    to_float_kernel<<<blocks_for(n, threads), threads, 0, st>>>(pos, posf, n);
    TB_LAUNCH_CHECK("to_float_kernel");
    return 0;
}

int gpu_motion_kick_drift(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force, float4 *posf,
                          int n, int typed, const gpu_per_type *hm, double dt, const tb_box_d *box,
                          const gpu_acc_clear *z, int threads, cudaStream_t st)
{
    gpu_acc_clear none;
    memset(&none, 0, sizeof none);
    (typed ? kick_drift_kernel<true> : kick_drift_kernel<false>)<<<blocks_for(n, threads), threads,
                                                                   0, st>>>(pos, vel, force, posf,
                                                                            n, *hm, dt, *box,
                                                                            z ? *z : none);
    TB_LAUNCH_CHECK("kick_drift_kernel");
    return 0;
}

int gpu_motion_kick_drift_test(tb_double4 *pos, tb_double4 *vel, const tb_double4 *force,
                               float4 *posf, int n, int typed, const gpu_per_type *hm, double dt,
                               const tb_box_d *box, const gpu_acc_clear *z,
                               const gpu_nbr_fuse *t, const gpu_fin_check *fc, int pdl,
                               int threads, cudaStream_t st)
{
    gpu_acc_clear none;
    gpu_nbr_fuse no;
    gpu_fin_check nofc;
    memset(&none, 0, sizeof none);
    memset(&no, 0, sizeof no);
    memset(&nofc, 0, sizeof nofc);
    if (fc && !t)
        return tb_error(NULL, 0, "internal: a kick-drift's finiteness check without its skin test");
    void (*k)(tb_double4 *, tb_double4 *, const tb_double4 *, float4 *, int, gpu_per_type, double,
              tb_box_d, gpu_acc_clear, gpu_nbr_fuse, gpu_fin_check) =
        typed ? (t ? kick_drift_test_kernel<true, true> : kick_drift_test_kernel<true, false>)
              : (t ? kick_drift_test_kernel<false, true> : kick_drift_test_kernel<false, false>);
    CUDA_CHECK(gpu_launch(k, blocks_for(n, threads), threads, 0, st, pdl, pos, vel, force, posf, n,
                          *hm, dt, *box, z ? *z : none, t ? *t : no, fc ? *fc : nofc));
    TB_LAUNCH_CHECK("kick_drift_test_kernel");
    return 0;
}

int gpu_motion_kick(tb_double4 *vel, const tb_double4 *force, const tb_double4 *pos, int n,
                    int typed, const gpu_per_type *hm, int threads, cudaStream_t st)
{
    (typed ? kick_kernel<true> : kick_kernel<false>)<<<blocks_for(n, threads), threads, 0, st>>>(
        vel, force, pos, n, *hm);
    TB_LAUNCH_CHECK("kick_kernel");
    return 0;
}

int gpu_motion_drift(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n, double h,
                     const tb_box_d *box, int threads, cudaStream_t st)
{
    drift_kernel<<<blocks_for(n, threads), threads, 0, st>>>(pos, vel, posf, n, h, *box);
    TB_LAUNCH_CHECK("drift_kernel");
    return 0;
}

int gpu_motion_scale(tb_double4 *vel, int n, double c, int threads, cudaStream_t st)
{
    scale_kernel<<<blocks_for(n, threads), threads, 0, st>>>(vel, n, c);
    TB_LAUNCH_CHECK("scale_kernel");
    return 0;
}

int gpu_motion_ostep(tb_double4 *vel, const tb_double4 *pos, const double *xi, int n, int typed,
                     double c1, const gpu_per_type *c2s, int threads, cudaStream_t st)
{
    (typed ? ostep_kernel<true> : ostep_kernel<false>)<<<blocks_for(n, threads), threads, 0, st>>>(
        vel, pos, xi, n, c1, *c2s);
    TB_LAUNCH_CHECK("ostep_kernel");
    return 0;
}

int gpu_motion_kinetic(const tb_double4 *vel, const tb_double4 *pos, int n, int nt, double *out,
                       cudaStream_t st)
{
    return kinetic_sums<1>(vel, pos, n, nt, out, st);
}

/* The kernel's copy of a map of backend.h's rescale (NULL: off). */
static gpu_map6 map6(const double *m)
{
    gpu_map6 g;
    memset(&g, 0, sizeof g);
    if (!m)
        return g;
    g.on = 1;
    for (int a = 0; a < 6; a++)
        g.m[a] = m[a];
    g.general = m[3] != 0.0 || m[4] != 0.0 || m[5] != 0.0;
    return g;
}

int gpu_motion_rescale(tb_double4 *pos, tb_double4 *vel, float4 *posf, int n, const double m[6],
                       const double vm[6], const tb_box_d *box, int threads, cudaStream_t st)
{
    rescale_kernel<<<blocks_for(n, threads), threads, 0, st>>>(pos, vel, posf, n, map6(m),
                                                                map6(vm), *box);
    TB_LAUNCH_CHECK("rescale_kernel");
    return 0;
}

int gpu_motion_drift_dev(tb_double4 *pos, const tb_double4 *vel, float4 *posf, int n, double h,
                         const tb_box_d *dbox, int threads, cudaStream_t st)
{
    drift_dev_kernel<<<blocks_for(n, threads), threads, 0, st>>>(pos, vel, posf, n, h, dbox);
    TB_LAUNCH_CHECK("drift_dev_kernel");
    return 0;
}

int gpu_motion_rescale_dev(tb_double4 *pos, float4 *posf, int n, const double *dmap,
                           const tb_box_d *dbox, int threads, cudaStream_t st)
{
    rescale_dev_kernel<<<blocks_for(n, threads), threads, 0, st>>>(pos, posf, n, dmap, dbox);
    TB_LAUNCH_CHECK("rescale_dev_kernel");
    return 0;
}

int gpu_motion_kinetic_axes(const tb_double4 *vel, const tb_double4 *pos, int n, int nt,
                            double *out, cudaStream_t st)
{
    return kinetic_sums<6>(vel, pos, n, nt, out, st);
}
