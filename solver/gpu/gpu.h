/* gpu.h — what the host needs to know about the GPU build (gpu_*.cu, or gpu_none.c in a
 * build without nvcc). */
#ifndef TB_GPU_H
#define TB_GPU_H

#include "common/tb.h"

TB_BEGIN_DECLS

/* Number of usable CUDA devices: 0 when none is present or the build has no CUDA. When it
 * returns 0, *why (if not NULL) says why in a few words. */
int gpu_count(const char **why);

/* Makes this rank's GPU (the node-local rank's, mpi.h) the current device; 0, or an exit
 * status with a message. A no-op in one process. */
int gpu_use_rank_device(void);

/* Bytes of the current device's memory in use (by every process), 0 without one; for the
 * benchmarks' memory column (the difference around a backend's life). */
double gpu_mem_used(void);

/* One line describing the build: "CUDA 13.0, sm_80 sm_90" or "CPU-only build". */
const char *gpu_build_info(void);

TB_END_DECLS

#endif
