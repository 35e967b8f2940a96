/* simd.h — TB_SIMD_CLONES, for vectorized host loops (the CPU backend's tiles and lists,
 * solver/cpu/cpu_instances.h; the library's placement of new positions, solver/io/init.c): on
 * x86-64 GCC a function built for AVX-512, AVX2 and the baseline and picked at load time (an
 * ifunc), so the binary stays portable; elsewhere (clang, nvcc, other machines) one build. */
#ifndef TB_SIMD_H
#define TB_SIMD_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define TB_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TB_SIMD_CLONES
#endif

#endif
