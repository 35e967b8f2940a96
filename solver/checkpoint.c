/* checkpoint.c — exact binary restart files (see checkpoint.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checkpoint.h"
#include "check.h"

static const char magic[8] = {'T', 'B', 'C', 'K', 'P', 'T', '0', '1'};
#define CKPT_ENDIAN 0x0102030405060708ULL

typedef struct ckpt_header {
    uint64_t endian; /* CKPT_ENDIAN as written */
    int64_t n, step;
    double time, dt, mass, box, e0, e_pair, e_triplet;
    int64_t thermo_bytes, traj_bytes;
} ckpt_header;

/* FNV-1a, 64 bits, continued from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t len)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < len; i++) {
        h ^= c[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

#define FNV_SEED 0xcbf29ce484222325ULL

/* fwrite that also folds the bytes into the checksum. */
static int put(FILE *f, const void *p, size_t len, uint64_t *h)
{
    *h = fnv1a(*h, p, len);
    return fwrite(p, 1, len, f) == len ? 0 : -1;
}

int ckpt_write(const char *path, const sim_state *s, const ckpt_extra *x)
{
    char tmp[4200];
    const size_t n3 = 3 * (size_t)s->n * sizeof(double);
    uint64_t h = FNV_SEED;
    ckpt_header hd;
    FILE *f;
    int bad = 0;

    memset(&hd, 0, sizeof hd);
    hd.endian = CKPT_ENDIAN;
    hd.n = s->n;
    hd.step = s->step;
    hd.time = s->time;
    hd.dt = x->dt;
    hd.mass = s->mass;
    hd.box = s->box;
    hd.e0 = s->e0;
    hd.e_pair = s->e_pair;
    hd.e_triplet = s->e_triplet;
    hd.thermo_bytes = x->thermo_bytes;
    hd.traj_bytes = x->traj_bytes;

    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    f = fopen(tmp, "wb");
    if (!f)
        return tb_error(tmp, 0, "cannot write checkpoint: %s", strerror(errno));
    bad |= put(f, magic, sizeof magic, &h);
    bad |= put(f, &hd, sizeof hd, &h);
    bad |= put(f, s->species, (size_t)s->n * TB_SPECIES_MAX, &h);
    bad |= put(f, s->pos, n3, &h);
    bad |= put(f, s->vel, n3, &h);
    bad |= put(f, s->force, n3, &h);
    if (x->thermostat_len > 0) {
        const uint64_t len = x->thermostat_len;
        bad |= put(f, "THRM", 4, &h);
        bad |= put(f, &len, sizeof len, &h);
        bad |= put(f, x->thermostat, x->thermostat_len, &h);
    }
    bad |= fwrite(&h, sizeof h, 1, f) != 1;
    bad |= fflush(f) != 0;
    bad |= fsync(fileno(f)) != 0;
    bad |= fclose(f) != 0;
    if (bad) {
        int e = errno;
        remove(tmp);
        return tb_error(tmp, 0, "cannot write checkpoint: %s", strerror(e));
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        remove(tmp);
        return tb_error(path, 0, "cannot move checkpoint into place: %s", strerror(e));
    }
    return 0;
}

/* fread that also folds the bytes into the checksum. */
static int get(FILE *f, void *p, size_t len, uint64_t *h)
{
    if (fread(p, 1, len, f) != len)
        return -1;
    *h = fnv1a(*h, p, len);
    return 0;
}

/* The tagged sections between the arrays and the checksum (the last 8 bytes of the file):
 * "THRM" into x->thermostat, others skipped (but checksummed). 0, or -1 when truncated. */
static int read_sections(FILE *f, ckpt_extra *x, uint64_t *h)
{
    const long here = ftell(f);
    long end;
    if (here < 0 || fseek(f, 0, SEEK_END) != 0 || (end = ftell(f)) < 0 ||
        fseek(f, here, SEEK_SET) != 0)
        return -1;
    end -= (long)sizeof(uint64_t);
    while (ftell(f) < end) {
        char tag[4];
        uint64_t len;
        unsigned char *buf;
        if (get(f, tag, 4, h) != 0 || get(f, &len, sizeof len, h) != 0 ||
            len > (uint64_t)(end - ftell(f)))
            return -1;
        if (!(buf = malloc(len ? (size_t)len : 1)))
            return -1;
        if (get(f, buf, (size_t)len, h) != 0) {
            free(buf);
            return -1;
        }
        if (memcmp(tag, "THRM", 4) == 0 && !x->thermostat) {
            x->thermostat = buf;
            x->thermostat_len = (size_t)len;
        } else {
            free(buf);
        }
    }
    return ftell(f) == end ? 0 : -1;
}

int ckpt_read(const char *path, sim_state *s, ckpt_extra *x)
{
    char m[8];
    uint64_t h = FNV_SEED, stored;
    ckpt_header hd;
    size_t n3;
    FILE *f = fopen(path, "rb");

    memset(s, 0, sizeof *s);
    x->thermostat = NULL;
    x->thermostat_len = 0;
    if (!f) {
        tb_error(path, 0, "--restart: cannot read checkpoint: %s", strerror(errno));
        return TB_EXIT_USAGE;
    }
    if (get(f, m, sizeof m, &h) != 0 || memcmp(m, magic, sizeof m) != 0) {
        fclose(f);
        tb_error(path, 0, "--restart: not a tribody checkpoint (bad magic)");
        return TB_EXIT_USAGE;
    }
    if (get(f, &hd, sizeof hd, &h) != 0 || hd.endian != CKPT_ENDIAN || hd.n < 1 ||
        hd.n > 100000000) {
        fclose(f);
        tb_error(path, 0, "--restart: checkpoint header is truncated or from another machine");
        return TB_EXIT_USAGE;
    }
    if (sim_state_alloc(s, (int)hd.n) != 0) {
        fclose(f);
        return -1;
    }
    n3 = 3 * (size_t)hd.n * sizeof(double);
    x->thermostat = NULL;
    x->thermostat_len = 0;
    if (get(f, s->species, (size_t)hd.n * TB_SPECIES_MAX, &h) != 0 ||
        get(f, s->pos, n3, &h) != 0 || get(f, s->vel, n3, &h) != 0 ||
        get(f, s->force, n3, &h) != 0 || read_sections(f, x, &h) != 0 ||
        fread(&stored, sizeof stored, 1, f) != 1) {
        fclose(f);
        sim_state_free(s);
        free(x->thermostat);
        x->thermostat = NULL;
        tb_error(path, 0, "--restart: checkpoint is truncated");
        return TB_EXIT_USAGE;
    }
    fclose(f);
    if (stored != h) {
        sim_state_free(s);
        free(x->thermostat);
        x->thermostat = NULL;
        tb_error(path, 0, "--restart: checkpoint is corrupt (checksum mismatch)");
        return TB_EXIT_USAGE;
    }
    for (int64_t i = 0; i < hd.n; i++)
        s->species[i][TB_SPECIES_MAX - 1] = '\0';
    s->step = hd.step;
    s->time = hd.time;
    s->mass = hd.mass;
    s->box = hd.box;
    s->e0 = hd.e0;
    s->e_pair = hd.e_pair;
    s->e_triplet = hd.e_triplet;
    x->thermo_bytes = hd.thermo_bytes;
    x->traj_bytes = hd.traj_bytes;
    x->dt = hd.dt;
    return 0;
}
