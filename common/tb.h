/* tb.h — portability macros shared by host (gcc, C11) and device (nvcc, C++) code.
 *
 * Every header whose functions run on both the CPU backend and the GPU marks them
 * TB_HOSTDEV; gcc sees plain static inline C, nvcc sees __host__ __device__.
 * Nothing here includes CUDA headers, so config/ and validate/ may include it. */
#ifndef TB_TB_H
#define TB_TB_H

#ifdef __CUDACC__
#define TB_HOSTDEV __host__ __device__
#define TB_RESTRICT __restrict__
#else
#define TB_HOSTDEV
#define TB_RESTRICT restrict
#endif

#ifdef __cplusplus
#define TB_BEGIN_DECLS extern "C" {
#define TB_END_DECLS }
#else
#define TB_BEGIN_DECLS
#define TB_END_DECLS
#endif

#define TB_VERSION "0.1.0"

/* Species (particle types) in one system, and the longest species name + NUL. A type is an
 * index 0 .. TB_TYPES_MAX-1 into the species of the configuration (config.h), the order of
 * system.species and of a LAMMPS data file's types. */
#define TB_TYPES_MAX 8
#define TB_SPECIES_MAX 8

/* Exit statuses of the tribody program (see README.md). */
#define TB_EXIT_OK 0
#define TB_EXIT_RUNTIME 1
#define TB_EXIT_USAGE 2

#endif
