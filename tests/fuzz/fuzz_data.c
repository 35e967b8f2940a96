/* fuzz_data.c — libFuzzer target: the LAMMPS data file reader (solver/io/lammps_data.c) and the
 * placement of the state it reads (sim_place in solver/io/init.c).
 *
 * Each input is written to a scratch file and read under a configuration of two species (A,
 * mass 1; B, mass 2), periodic on every axis, or on x and y alone for odd sizes, the count
 * not given. Besides the sanitizers' findings, the target aborts on a broken promise: a file
 * that reads (exit 0) gives only finite positions and velocities no larger than 1e15, types
 * of the configured species, a box with edges > 0 and tilts within LAMMPS's limits. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "solver/io/init.h"
#include "solver/io/lammps_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void broken(const char *what, double v)
{
    fprintf(stderr, "fuzz_data: broken promise: %s (%g)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_state s;
    sim_config c;
    FILE *f;
    int has_vel = 0;
    if (!scratch[0])
        snprintf(scratch, sizeof scratch, "/tmp/fuzz_data_%ld.data", (long)getpid());
    if (!(f = fopen(scratch, "wb")))
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    memset(&c, 0, sizeof c);
    c.system.mass = 1.0;
    c.system.species_given = 1;
    c.system.n_species = 2;
    snprintf(c.system.species[0].name, TB_SPECIES_MAX, "A");
    snprintf(c.system.species[1].name, TB_SPECIES_MAX, "B");
    c.system.species[0].mass = 1.0;
    c.system.species[1].mass = 2.0;
    c.system.boundary = size % 2 ? CFG_BOUNDARY_MIXED : CFG_BOUNDARY_PERIODIC;
    c.system.periodic[0] = c.system.periodic[1] = 1;
    c.system.periodic[2] = size % 2 ? 0 : 1;
    if (lmp_data_read(scratch, "fuzz", &c, &s, &has_vel) == 0) {
        const tb_box_d *b = &s.box;
        for (long i = 0; i < 3L * s.n; i++)
            if (!isfinite(s.pos[i]) || !isfinite(s.vel[i]) || fabs(s.pos[i]) > 1e15 ||
                fabs(s.vel[i]) > 1e15)
                broken("a value read is non-finite or beyond 1e15", s.pos[i]);
        for (int i = 0; i < s.n; i++)
            if (s.type[i] < 0 || s.type[i] > 1)
                broken("a type outside the species", s.type[i]);
        for (int a = 0; a < 3; a++)
            if (!(b->l[a] > 0))
                broken("a box edge <= 0", b->l[a]);
        if (fabs(b->xy) > 0.5 * b->l[0] * (1 + 1e-14) || fabs(b->xz) > 0.5 * b->l[0] * (1 + 1e-14) ||
            fabs(b->yz) > 0.5 * b->l[1] * (1 + 1e-14))
            broken("a tilt beyond LAMMPS's limits", b->xy);
        sim_place(&s);
        for (long i = 0; i < 3L * s.n; i++)
            if (!isfinite(s.pos[i]))
                broken("a placed position is not finite", s.pos[i]);
        sim_state_free(&s);
    }
    return 0;
}
