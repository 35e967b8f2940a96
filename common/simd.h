/* simd.h — TB_SIMD_CLONES (and TB_SIMD_CLONES_FMA, below), for vectorized host loops (the CPU backend's tiles and lists,
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

/* TB_SIMD_CLONES_FMA: TB_SIMD_CLONES with an x86-64-v3 clone (AVX2 with FMA) picked before the
 * avx2 one, which has no FMA; for bodies compiled with -ffp-contract=fast (the neighbour-list
 * triangle, nbr_simd.c: on an AVX2 machine 1.15x in float, docs/performance.md). GCC 12 on
 * (arch= clones of x86-64-v3 and their dispatch); else TB_SIMD_CLONES. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && \
    __GNUC__ >= 12
#define TB_SIMD_CLONES_FMA                                                                         \
    __attribute__((target_clones("avx512f", "arch=x86-64-v3", "avx2", "default")))
#else
#define TB_SIMD_CLONES_FMA TB_SIMD_CLONES
#endif

#endif
