/* cpu_instances.h — instantiates a template header of the CPU backend in its three precisions
 * (GSL's templates_on.h habit): double (TB_REAL double, TB_ACC double; suffixes TB_NAME _d and
 * TB_TNAME _dd), mixed (float arithmetic, double accumulation: _f, _fd) and single (float,
 * float: _f, _ff; left out when TB_CPU_NO_SINGLE is defined, for a test that needs only two).
 *
 * Define TB_CPU_TEMPLATE as the header's path from the repository root, in quotes (and
 * TB_CPU_TEMPLATE2, TB_CPU_TEMPLATE3 for more headers instantiated alongside), then include this file; it
 * undefines both at the end. No include guard on purpose.
 *
 * TB_SIMD_CLONES (common/simd.h), for the vectorized bodies: AVX-512, AVX2 and baseline clones
 * picked at load time. The files that use it are compiled with -fno-math-errno (Makefile),
 * without which sqrt cannot run in SIMD lanes. */
#include "common/simd.h"

#define TB_REAL double
#define TB_ACC double
#define TB_NAME(x) x##_d
#define TB_TNAME(x) x##_dd
#include TB_CPU_TEMPLATE
#ifdef TB_CPU_TEMPLATE2
#include TB_CPU_TEMPLATE2
#endif
#ifdef TB_CPU_TEMPLATE3
#include TB_CPU_TEMPLATE3
#endif
#undef TB_REAL
#undef TB_ACC
#undef TB_NAME
#undef TB_TNAME

#define TB_REAL float
#define TB_NAME(x) x##_f
#define TB_ACC double
#define TB_TNAME(x) x##_fd
#include TB_CPU_TEMPLATE
#ifdef TB_CPU_TEMPLATE2
#include TB_CPU_TEMPLATE2
#endif
#ifdef TB_CPU_TEMPLATE3
#include TB_CPU_TEMPLATE3
#endif
#undef TB_ACC
#undef TB_TNAME

#ifndef TB_CPU_NO_SINGLE
#define TB_ACC float
#define TB_TNAME(x) x##_ff
#include TB_CPU_TEMPLATE
#ifdef TB_CPU_TEMPLATE2
#include TB_CPU_TEMPLATE2
#endif
#ifdef TB_CPU_TEMPLATE3
#include TB_CPU_TEMPLATE3
#endif
#undef TB_ACC
#undef TB_TNAME
#endif
#undef TB_REAL
#undef TB_NAME

#undef TB_CPU_TEMPLATE
#undef TB_CPU_TEMPLATE2
#undef TB_CPU_TEMPLATE3
