/* gpu_finite.cuh — the finiteness check's keys and record (device code, CUDA C++ only; finite.h
 * has the terms, gpu_internal.h the record): a particle's key, the whole state's (energies,
 * virial), and the record's update. Shared by gpu_finite.cu's finite_kernel (the check as a
 * kernel of its own) and the step's kick-drift (gpu_motion.cu's kick_drift_test_kernel), which
 * checks the state of the step before it as it reads that state (gpu_fin_check; docs/gpu.md,
 * "A step's finiteness check"): the same keys, the same record. */
#ifndef TB_GPU_FINITE_CUH
#define TB_GPU_FINITE_CUH

#include "solver/finite.h"
#include "solver/gpu/gpu_internal.h"

#define GPU_FIN_NONE (~0ULL)

/* Particle i's key (GPU_FIN_NONE when its values are finite): the particle's terms in the
 * order force, position, velocity, kinetic energy (within ke_bound), each key below those of
 * later terms; m its mass. */
__device__ __forceinline__ unsigned long long fin_key_particle(int i, const tb_double4 &f,
                                                               const tb_double4 &p,
                                                               const tb_double4 &v, double m,
                                                               double ke_bound)
{
    if (!(isfinite(f.x) && isfinite(f.y) && isfinite(f.z)))
        return ((unsigned long long)TB_NF_FORCE << 32) | (unsigned)i;
    if (!(isfinite(p.x) && isfinite(p.y) && isfinite(p.z)))
        return ((unsigned long long)TB_NF_POS << 32) | (unsigned)i;
    if (!(isfinite(v.x) && isfinite(v.y) && isfinite(v.z)))
        return ((unsigned long long)TB_NF_VEL << 32) | (unsigned)i;
    if (!tb_ke_ok(v.x * v.x + v.y * v.y + v.z * v.z, m, ke_bound))
        return ((unsigned long long)TB_NF_KINETIC << 32) | (unsigned)i;
    return GPU_FIN_NONE;
}

/* The whole state's terms folded into key: the virial's (any component), then the energies'
 * (keys 0 and 1 << 32: below every other). NULL: not checked. */
__device__ __forceinline__ unsigned long long fin_key_whole(unsigned long long key,
                                                            const double *energy,
                                                            const double *virial)
{
    if (virial)
        for (int c = 0; c < 6; c++)
            if (!isfinite(virial[c]) && key > ((unsigned long long)TB_NF_VIRIAL << 32))
                key = (unsigned long long)TB_NF_VIRIAL << 32;
    if (energy) {
        if (!isfinite(energy[0]))
            key = (unsigned long long)TB_NF_TRIPLET << 32;
        else if (!isfinite(energy[1]))
            key = (unsigned long long)TB_NF_PAIR << 32;
    }
    return key;
}

/* Whether the record still takes keys of `step`: empty, or already naming this step (it keeps
 * the first bad step). */
__device__ __forceinline__ bool fin_open(const gpu_finite_rec *rec, long long step)
{
    const long long seen = *(volatile const long long *)&rec->step;
    return seen < 0 || seen == step;
}

/* A bad value's key into the record of `step`. */
__device__ __forceinline__ void fin_commit(gpu_finite_rec *rec, unsigned long long key,
                                           long long step)
{
    if (key != GPU_FIN_NONE) {
        atomicMin(&rec->key, key);
        rec->step = step;
    }
}

#endif
