/* check.h — error reporting for host code, and CUDA_CHECK for every CUDA runtime call.
 *
 * Internal functions return 0 on success or -1 on failure, after reporting once through
 * tb_error() (the GSL_ERROR habit). Messages go to stderr as one line:
 *     tribody: <where>: <what failed>[: <what to do>]
 * CUDA_CHECK(expr) prints file, line, the CUDA error name and string and the failing
 * expression, then returns -1 from the enclosing function (which must return int), so the
 * caller can free what it holds. TB_LAUNCH_CHECK(name) checks a kernel launch; when
 * compiled with -DTB_SYNC_LAUNCHES (make DEBUG=1 and the tests) it also synchronizes, so
 * an asynchronous fault names the kernel that caused it. */
#ifndef TB_CHECK_H
#define TB_CHECK_H

#include <stdio.h>
#include "common/tb.h"

TB_BEGIN_DECLS

/* Prints "tribody: file:line: message" (or "tribody: message" when file is NULL) to stderr.
 * line <= 0 omits the line number. Always returns -1, so `return tb_error(...)` works. */
int tb_error(const char *file, int line, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Prints "tribody: message" to stderr; for notices that are not errors. */
void tb_notice(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Where messages go instead of stderr: the rank layer (mpi.c) sets a sink on ranks other
 * than 0, which keeps their messages until the ranks agree (one message per failure) and drops
 * their notices. sink gets one complete line, "message\n" without the "tribody: " prefix. */
void tb_set_sink(void (*sink)(const char *line));
/* Sets the sink and returns the one before, to be put back: the library (solver/lib/api.c)
 * keeps the messages of each call for tribody_last_error(). */
typedef void (*tb_sink_fn)(const char *line);
tb_sink_fn tb_swap_sink(tb_sink_fn sink);

/* Errors reported so far (tb_error calls). */
long tb_error_count(void);

TB_END_DECLS

#ifdef __CUDACC__
#include <cuda_runtime.h>
#define CUDA_CHECK(expr)                                                                   \
    do {                                                                                   \
        cudaError_t tb_cuda_err_ = (expr);                                                 \
        if (tb_cuda_err_ != cudaSuccess)                                                   \
            return tb_error(__FILE__, __LINE__, "CUDA error %s: %s in '%s'",               \
                            cudaGetErrorName(tb_cuda_err_), cudaGetErrorString(tb_cuda_err_), \
                            #expr);                                                        \
    } while (0)

#ifdef TB_SYNC_LAUNCHES
#define TB_LAUNCH_CHECK(name)                                                              \
    do {                                                                                   \
        CUDA_CHECK(cudaGetLastError());                                                    \
        cudaError_t tb_sync_err_ = cudaDeviceSynchronize();                                \
        if (tb_sync_err_ != cudaSuccess)                                                   \
            return tb_error(__FILE__, __LINE__, "CUDA error %s: %s in kernel %s",          \
                            cudaGetErrorName(tb_sync_err_), cudaGetErrorString(tb_sync_err_), \
                            name);                                                         \
    } while (0)
#else
#define TB_LAUNCH_CHECK(name)                                                              \
    do {                                                                                   \
        cudaError_t tb_launch_err_ = cudaGetLastError();                                   \
        if (tb_launch_err_ != cudaSuccess)                                                 \
            return tb_error(__FILE__, __LINE__, "CUDA error %s: %s launching kernel %s",   \
                            cudaGetErrorName(tb_launch_err_),                              \
                            cudaGetErrorString(tb_launch_err_), name);                     \
    } while (0)
#endif
#endif /* __CUDACC__ */

#endif
