/* phase.h — where the time of a run goes (issue 23): TRIBODY_TIMES=1 in the environment makes
 * tb_phase("name") print "tribody-time: name T" on stderr, T the wall clock (CLOCK_REALTIME,
 * seconds since the epoch), so that a script can subtract consecutive marks and compare the
 * first and last with the process's own start and end (scripts/gpu-check.d/setup.sh). Unset:
 * one getenv, nothing printed. Header-only, so every folder and the fuzzers can mark. */
#ifndef TB_PHASE_H
#define TB_PHASE_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline void tb_phase(const char *what)
{
    const char *e = getenv("TRIBODY_TIMES");
    struct timespec ts;
    if (!e || !*e || *e == '0')
        return;
    clock_gettime(CLOCK_REALTIME, &ts);
    fprintf(stderr, "tribody-time: %s %.6f\n", what, (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec);
}

#endif
