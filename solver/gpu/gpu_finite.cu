/* gpu_finite.cu — the per-step finiteness check of the GPU backend (see finite.h).
 *
 * One kernel over the particles, launched after each step on the backend's stream: a thread
 * checks its particle's force, position, velocity and kinetic energy (within tb_ke_bound, so
 * that the host's and the thermostats' sums of m v^2 / 2 cannot overflow), and thread 0 the
 * two energies and the virial, and, only when it finds a non-finite value, atomicMin's the
 * key term * 2^32 + particle into the record with the step. A kernel that finds the record
 * already filled by an earlier step returns at once, so the record keeps the first bad step.
 * Nothing is atomic on the usual (all finite) path: a step costs one read of pos, vel and
 * force, and a copy of the 16-byte record into pinned host memory behind an event. The
 * backend reads it at once (check_finite) or a step later (check_finite_late: the host does
 * not wait for the step it has just launched; gpu_backend.cu). */
#include "common/check.h"
#include "solver/finite.h"
#include "solver/gpu/gpu_internal.h"

template <bool TYP>
__global__ void finite_kernel(const tb_double4 *pos, const tb_double4 *vel,
                              const tb_double4 *force, const double *energy,
                              const double *virial, gpu_per_type mass, double ke_bound, int n,
                              long long step, gpu_finite_rec *rec)
{
    const long long seen = *(volatile long long *)&rec->step;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long key = ~0ULL;
    if (seen >= 0 && seen != step)
        return;
    if (i < n) { /* the particle's terms first: each key below those of later terms */
        const tb_double4 f = force[i], p = pos[i], v = vel[i];
        if (!(isfinite(f.x) && isfinite(f.y) && isfinite(f.z)))
            key = ((unsigned long long)TB_NF_FORCE << 32) | (unsigned)i;
        else if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z)))
            key = ((unsigned long long)TB_NF_POS << 32) | (unsigned)i;
        else if (!(isfinite(v.x) && isfinite(v.y) && isfinite(v.z)))
            key = ((unsigned long long)TB_NF_VEL << 32) | (unsigned)i;
        else if (!tb_ke_ok(v.x * v.x + v.y * v.y + v.z * v.z, gpu_per_type_at<TYP>(mass, p.w),
                           ke_bound))
            key = ((unsigned long long)TB_NF_KINETIC << 32) | (unsigned)i;
    }
    if (i == 0 && virial)
        for (int c = 0; c < 6; c++)
            if (!isfinite(virial[c]) && key > ((unsigned long long)TB_NF_VIRIAL << 32))
                key = (unsigned long long)TB_NF_VIRIAL << 32;
    if (i == 0 && energy) { /* keys 0 and 1 << 32: below every other */
        if (!isfinite(energy[0]))
            key = (unsigned long long)TB_NF_TRIPLET << 32;
        else if (!isfinite(energy[1]))
            key = (unsigned long long)TB_NF_PAIR << 32;
    }
    if (key != ~0ULL) {
        atomicMin(&rec->key, key);
        rec->step = step;
    }
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
