/* fuzz_xyz.c — libFuzzer target: the XYZ reader (solver/io/xyz.c) and the placement of the
 * state it reads (sim_place, sim_check_extent in solver/io/init.c).
 *
 * Each input is written to a scratch file; the atom count expected is the number on its
 * first line when that is 1..256 (so the reader gets past line 1 and into the atom lines),
 * else 3. Besides the sanitizers' findings, the target aborts on a broken promise: a file
 * that reads (exit 0) gives only finite positions and velocities no larger than 1e15, and
 * after sim_place periodic positions lie in [0, L). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "solver/finite.h"
#include "solver/io/init.h"
#include "solver/io/xyz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void broken(const char *what, double v)
{
    fprintf(stderr, "fuzz_xyz: broken promise: %s (%g)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_state s;
    FILE *f;
    char head[16];
    long n = 3;
    int has_vel = 0;
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "/tmp/fuzz_xyz_%ld.xyz", (long)getpid());
    }
    if (!(f = fopen(scratch, "wb")))
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    memcpy(head, data, size < sizeof head - 1 ? size : sizeof head - 1);
    head[size < sizeof head - 1 ? size : sizeof head - 1] = '\0';
    if (atol(head) >= 1 && atol(head) <= 256)
        n = atol(head);
    memset(&s, 0, sizeof s);
    if (sim_state_alloc(&s, (int)n) != 0)
        return 0;
    s.ntypes = 1;
    s.mass[0] = 1.5;
    s.box = box_cube_d(size % 2 ? 5.0 : 0.0); /* periodic for odd sizes: sim_place wraps */
    if (xyz_read(scratch, "fuzz", (int)n, &s, &has_vel) == 0) {
        for (long i = 0; i < 3 * n; i++)
            if (!isfinite(s.pos[i]) || !isfinite(s.vel[i]) || fabs(s.pos[i]) > 1e15 ||
                fabs(s.vel[i]) > 1e15 / s.mass[0])
                broken("a value read is non-finite or beyond 1e15", s.pos[i]);
        sim_place(&s);
        for (long i = 0; i < 3 * n; i++)
            if (!isfinite(s.pos[i]) || (s.box.pbc && !(s.pos[i] >= 0 && s.pos[i] < s.box.l[i % 3])))
                broken("a placed periodic position outside [0, L)", s.pos[i]);
        sim_check_extent(&s, 1, "fuzz");
    }
    sim_state_free(&s);
    return 0;
}
