/* gpu_finite.cu — the per-step finiteness check of the GPU backend (see finite.h) as a kernel of
 * its own, and the record it shares with the step's kick-drift (gpu_finite.cuh).
 *
 * One kernel over the particles: a thread checks its particle's force, position, velocity and
 * kinetic energy (within tb_ke_bound, so that the host's and the thermostats' sums of m v^2 / 2
 * cannot overflow), and thread 0 the two energies and the virial, and, only when it finds a
 * non-finite value, atomicMin's the key term * 2^32 + particle into the record with the step. A
 * kernel that finds the record already filled by an earlier step returns at once, so the record
 * keeps the first bad step. Nothing is atomic on the usual (all finite) path: a check costs one
 * read of pos, vel and force, and a copy of the 16-byte record into pinned host memory behind an
 * event. The backend reads it at once (check_finite), or, for check_finite_late, a step later:
 * then the next step's kick-drift checks the same values as it reads them, with no kernel or copy
 * of its own, and a bad value reaches the host as a bit of the skin test's flag
 * (gpu_backend_ext.cu, gpu_fin_take; docs/gpu.md, "A step's finiteness check"); this kernel runs
 * where that kick-drift does not test the skin. */
#include "common/check.h"
#include "solver/gpu/gpu_finite.cuh"

template <bool TYP>
__global__ void finite_kernel(const tb_double4 *pos, const tb_double4 *vel,
                              const tb_double4 *force, const double *energy,
                              const double *virial, gpu_per_type mass, double ke_bound, int n,
                              long long step, gpu_finite_rec *rec)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long key = GPU_FIN_NONE;
    if (!fin_open(rec, step))
        return;
    if (i < n) { /* the particle's terms first: each key below those of later terms */
        const tb_double4 p = pos[i];
        key = fin_key_particle(i, force[i], p, vel[i], gpu_per_type_at<TYP>(mass, p.w), ke_bound);
    }
    if (i == 0)
        key = fin_key_whole(key, energy, virial);
    fin_commit(rec, key, step);
}

int gpu_finite_reset(gpu_finite_rec *d_rec, cudaStream_t st)
{
    const gpu_finite_rec h = {-1LL, ~0ULL};
    CUDA_CHECK(cudaMemcpyAsync(d_rec, &h, sizeof h, cudaMemcpyHostToDevice, st));
    CUDA_CHECK(gpu_wait_stream(st));
    return 0;
}

/* Launches the check of the state after `step` and an asynchronous copy of the record into
 * h_rec (pinned host memory), then records ev: the record is in h_rec once ev is done. */
int gpu_finite_launch(const tb_double4 *pos, const tb_double4 *vel, const tb_double4 *force,
                      const double *energy, const double *virial, const gpu_per_type *mass,
                      int typed, int n, long step, gpu_finite_rec *d_rec, gpu_finite_rec *h_rec,
                      cudaEvent_t ev, cudaStream_t st)
{
    const int threads = 256;
    const int nblk = (n + threads - 1) / threads;
    if (typed)
        finite_kernel<true><<<nblk, threads, 0, st>>>(pos, vel, force, energy, virial, *mass,
                                                       tb_ke_bound(n), n, (long long)step, d_rec);
    else
        finite_kernel<false><<<nblk, threads, 0, st>>>(pos, vel, force, energy, virial, *mass,
                                                        tb_ke_bound(n), n, (long long)step, d_rec);
    TB_LAUNCH_CHECK("finite_kernel");
    return gpu_finite_copy(d_rec, h_rec, ev, st);
}

/* The record copied into h_rec (pinned) behind the stream's work, then ev recorded. */
int gpu_finite_copy(const gpu_finite_rec *d_rec, gpu_finite_rec *h_rec, cudaEvent_t ev,
                    cudaStream_t st)
{
    CUDA_CHECK(cudaMemcpyAsync(h_rec, d_rec, sizeof *h_rec, cudaMemcpyDeviceToHost, st));
    CUDA_CHECK(cudaEventRecord(ev, st));
    return 0;
}

/* Waits for ev (gpu_finite_launch's) and decodes the record in h_rec. */
int gpu_finite_read(const gpu_finite_rec *h_rec, cudaEvent_t ev, long *bad_step, int *term,
                    int *particle)
{
    CUDA_CHECK(gpu_wait_event(ev));
    const gpu_finite_rec h = *h_rec;
    *bad_step = (long)h.step;
    *term = h.step >= 0 ? (int)(h.key >> 32) : -1;
    *particle = h.step >= 0 && *term >= TB_NF_FORCE && *term <= TB_NF_KINETIC
                    ? (int)(h.key & 0xffffffffULL)
                    : -1;
    return 0;
}
