/* fuzz_xyz.c — libFuzzer target: the XYZ reader (solver/io/xyz.c) and the placement of the
 * state it reads (sim_place, sim_check_extent in solver/io/init.c).
 *
 * Each input is written to a scratch file; the atom count expected is the number on its
 * first line when that is 1..256 (so the reader gets past line 1 and into the atom lines),
 * else 3. Besides the sanitizers' findings, the target aborts on a broken promise: a file
 * that reads (exit 0) gives only finite positions and velocities no larger than 1e15, and
 * every type is one of the configured species, and after sim_place periodic positions of an
 * untilted box lie in [lo, lo + L). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
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
    sim_config c;
    FILE *f;
    char head[16];
    long n = 3;
    int has_vel = 0, has_cell = 0;
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
    /* the count given or not (the file's), one species or two named Ar and Kr */
    memset(&c, 0, sizeof c);
    c.system.particles = size % 3 ? (int)n : 0;
    c.system.mass = 1.5;
    cfg_single_species(&c);
    if (size % 5 == 0) {
        c.system.species_given = 1;
        c.system.n_species = 2;
        snprintf(c.system.species[1].name, TB_SPECIES_MAX, "Kr");
        c.system.species[1].mass = 3.0;
    }
    if (xyz_read(scratch, "fuzz", &c, &s, &has_vel, &has_cell) == 0) {
        if (!has_cell)
            s.box = box_cube_d(size % 2 ? 5.0 : 0.0); /* periodic for odd sizes: sim_place wraps */
        for (long i = 0; i < 3L * s.n; i++)
            if (!isfinite(s.pos[i]) || !isfinite(s.vel[i]) || fabs(s.pos[i]) > 1e15 ||
                fabs(s.vel[i]) > 1e15 / 1.5)
                broken("a value read is non-finite or beyond 1e15", s.pos[i]);
        for (int i = 0; i < s.n; i++)
            if (s.type[i] < 0 || s.type[i] >= s.ntypes || s.ntypes > c.system.n_species)
                broken("a type outside the species", s.type[i]);
        sim_place(&s);
        for (long i = 0; i < 3L * s.n; i++) {
            const int a = (int)(i % 3);
            if (!isfinite(s.pos[i]) ||
                ((s.box.pbc >> a & 1) && !s.box.tilted &&
                 !(s.pos[i] >= s.box.lo[a] && s.pos[i] < s.box.lo[a] + s.box.l[a])))
                broken("a placed periodic position outside [lo, lo + L)", s.pos[i]);
        }
        sim_check_extent(&s, 1, "fuzz");
    }
    sim_state_free(&s);
    return 0;
}
