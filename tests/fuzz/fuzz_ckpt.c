/* fuzz_ckpt.c — libFuzzer target: the checkpoint reader (ckpt_read, solver/io/checkpoint.c).
 *
 * Each input is written to a scratch file and read back. A checkpoint ends in a checksum of
 * everything before it, which random bytes almost never match; so for inputs of even size
 * the last 8 bytes are replaced by the FNV-1a checksum of the rest, and the fuzzer reaches
 * what lies behind it (the header's fields, the tagged sections). One input in 13 is read
 * with an expected particle count (5), as a restart does. Besides the sanitizers' findings,
 * the target aborts on a broken promise: a file that reads (0) holds 1..size/80 particles, a
 * step >= 0, finite header numbers and a NUL-terminated physics text; one that does not
 * gives TB_EXIT_USAGE (-1 only when memory runs out). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tb.h"
#include "solver/io/checkpoint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void broken(const char *what, double v)
{
    fprintf(stderr, "fuzz_ckpt: broken promise: %s (%g)\n", what, v);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_state s;
    ckpt_extra x;
    FILE *f;
    int rc;
    if (!scratch[0])
        snprintf(scratch, sizeof scratch, "/tmp/fuzz_ckpt_%ld.tbck", (long)getpid());
    if (!(f = fopen(scratch, "wb")))
        return 0;
    if (size >= 16 && size % 2 == 0) {
        uint64_t h = 0xcbf29ce484222325ULL;
        for (size_t i = 0; i < size - 8; i++) {
            h ^= data[i];
            h *= 0x100000001b3ULL;
        }
        fwrite(data, 1, size - 8, f);
        fwrite(&h, sizeof h, 1, f);
    } else {
        fwrite(data, 1, size, f);
    }
    fclose(f);
    rc = ckpt_read(scratch, size % 13 == 5 ? 5 : 0, "fuzz.cfg", &s, &x);
    if (rc == 0) {
        if (s.n < 1 || (size_t)s.n > size / 80)
            broken("a particle count the file cannot hold", s.n);
        if (size % 13 == 5 && s.n != 5)
            broken("a particle count other than the expected 5", s.n);
        if (s.step < 0)
            broken("a negative step", (double)s.step);
        if (!isfinite(s.time) || !isfinite(s.e0) || !isfinite(s.e_pair) ||
            !isfinite(s.e_triplet) || !isfinite(s.mass[0]) || !isfinite(s.box.l[0]) || !isfinite(x.dt))
            broken("a non-finite header number", s.e0);
        if (memchr(x.phys, '\0', sizeof x.phys) == NULL)
            broken("a physics text without its NUL", 0);
        if (x.thermostat_len != 0 && !x.thermostat)
            broken("a thermostat length without its bytes", (double)x.thermostat_len);
        for (int t = 0; t < s.ntypes; t++)
            if (!memchr(s.type_name[t], '\0', TB_SPECIES_MAX))
                broken("a species name without its NUL", t);
        for (int i = 0; i < s.n; i++)
            if (s.type[i] < 0 || s.type[i] >= s.ntypes)
                broken("a type outside the species", s.type[i]);
        sim_state_free(&s);
        ckpt_extra_free(&x);
    } else if (rc != TB_EXIT_USAGE && rc != -1) {
        broken("a status other than 0, 2 or -1", rc);
    }
    return 0;
}
