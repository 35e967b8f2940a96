/* checkpoint.c — exact binary restart files, version 2 with tagged sections (see checkpoint.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "solver/io/checkpoint.h"
#include "common/check.h"

static const char magic[8] = {'T', 'B', 'C', 'K', 'P', 'T', '0', '2'};
static const char magic_v1[8] = {'T', 'B', 'C', 'K', 'P', 'T', '0', '1'};
#define CKPT_ENDIAN 0x0102030405060708ULL

typedef struct ckpt_header {
    uint64_t endian; /* CKPT_ENDIAN as written */
    int64_t n, step;
    double time, dt, mass, box, e0, e_pair, e_triplet;
    int64_t thermo_bytes, traj_bytes;
} ckpt_header;

/* Section "SPEC": the unit style and the species, then int32 types[n]. Section "BOX ": the box.
 * A checkpoint without them (written before species and general boxes) is one species of
 * the header's mass in the header's cube (box 0: open). */
typedef struct ckpt_spec {
    int32_t units, ntypes;
    char name[TB_TYPES_MAX][TB_SPECIES_MAX];
    double mass[TB_TYPES_MAX]; /* internal masses (state.h) */
} ckpt_spec;
typedef struct ckpt_box {
    double l[3], lo[3], tilt[3]; /* tilt: xy, xz, yz */
    int32_t pbc, pad;
} ckpt_box;

/* A name an XYZ frame can carry: 1 .. 7 printable characters, no space. */
static int name_ok(const char *p)
{
    int len = 0;
    while (len < TB_SPECIES_MAX && p[len]) {
        if (p[len] <= ' ' || p[len] > '~')
            return 0;
        len++;
    }
    return len > 0 && len < TB_SPECIES_MAX;
}

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

/* One tagged section: tag, 32-bit length, bytes. */
static int put_section(FILE *f, const char tag[4], const void *p, uint32_t len, uint64_t *h)
{
    int bad = put(f, tag, 4, h);
    bad |= put(f, &len, sizeof len, h);
    if (len)
        bad |= put(f, p, len, h);
    return bad;
}

void ckpt_extra_free(ckpt_extra *x)
{
    free(x->thermostat);
    free(x->barostat);
    free(x->observ);
    x->thermostat = x->barostat = NULL;
    x->observ = NULL;
    x->thermostat_len = x->barostat_len = x->observ_len = 0;
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
    hd.mass = s->mass[0];
    hd.box = s->box.pbc ? s->box.l[0] : 0.0; /* the cube of version 2; SPEC and BOX  say more */
    hd.e0 = s->e0;
    hd.e_pair = s->e_pair;
    hd.e_triplet = s->e_triplet;
    hd.thermo_bytes = x->thermo_bytes;
    hd.traj_bytes = x->traj_bytes;

    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    /* NAME.tmp is the run's own scratch file: never followed through a link, and written only
     * when it is a regular file (run.c checks this before step 0; this holds it later too) */
    {
        struct stat st;
        const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
                            0644);
        if (fd < 0)
            return tb_error(tmp, 0, "cannot write checkpoint: %s", strerror(errno));
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            return tb_error(tmp, 0, "cannot write checkpoint: not a regular file");
        }
        if (!(f = fdopen(fd, "wb"))) {
            const int e = errno;
            close(fd);
            return tb_error(tmp, 0, "cannot write checkpoint: %s", strerror(e));
        }
    }
    bad |= put(f, magic, sizeof magic, &h);
    bad |= put(f, &hd, sizeof hd, &h);
    for (int i = 0; i < s->n; i++) { /* the v2 layout's names per particle, from the types */
        char name[TB_SPECIES_MAX] = {0};
        memcpy(name, s->type_name[s->type[i]], TB_SPECIES_MAX - 1);
        bad |= put(f, name, TB_SPECIES_MAX, &h);
    }
    bad |= put(f, s->pos, n3, &h);
    bad |= put(f, s->vel, n3, &h);
    bad |= put(f, s->force, n3, &h);
    bad |= put_section(f, "RUNI", &x->run_id, sizeof x->run_id, &h);
    {
        ckpt_spec sp;
        ckpt_box bx;
        memset(&sp, 0, sizeof sp);
        memset(&bx, 0, sizeof bx);
        sp.units = s->units;
        sp.ntypes = s->ntypes;
        memcpy(sp.name, s->type_name, sizeof sp.name);
        memcpy(sp.mass, s->mass, sizeof sp.mass);
        const uint32_t tlen = (uint32_t)((size_t)s->n * sizeof(int32_t));
        const uint32_t len = (uint32_t)sizeof sp + tlen;
        bad |= put(f, "SPEC", 4, &h);
        bad |= put(f, &len, sizeof len, &h);
        bad |= put(f, &sp, sizeof sp, &h);
        _Static_assert(sizeof(int) == sizeof(int32_t), "types are written as int32");
        bad |= put(f, s->type, tlen, &h);
        for (int a = 0; a < 3; a++) {
            bx.l[a] = s->box.l[a];
            bx.lo[a] = s->box.lo[a];
        }
        bx.tilt[0] = s->box.xy;
        bx.tilt[1] = s->box.xz;
        bx.tilt[2] = s->box.yz;
        bx.pbc = s->box.pbc;
        bad |= put_section(f, "BOX ", &bx, sizeof bx, &h);
    }
    bad |= put_section(f, "PHYS", x->phys, (uint32_t)strnlen(x->phys, sizeof x->phys), &h);
    {
        const struct { int64_t step; double time; } org = {x->step_origin, x->time_origin};
        bad |= put_section(f, "TORG", &org, sizeof org, &h);
    }
    if (x->thermostat_len > 0)
        bad |= put_section(f, "THRM", x->thermostat, (uint32_t)x->thermostat_len, &h);
    if (x->observ_len > 0)
        bad |= put_section(f, "OBSV", x->observ, (uint32_t)x->observ_len, &h);
    if (x->barostat_len > 0)
        bad |= put_section(f, "BARO", x->barostat, (uint32_t)x->barostat_len, &h);
    bad |= put_section(f, "END ", NULL, 0, &h);
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


/* Reads the tagged sections up to "END " into x; unknown tags are skipped. 0, or -1 when
 * the sections are truncated or malformed. */
static int get_sections(FILE *f, ckpt_extra *x, sim_state *s, int *got_spec, int *got_box,
                        long long left, uint64_t *h)
{
    for (;;) {
        char tag[4];
        uint32_t len;
        if (left < 8 || get(f, tag, 4, h) != 0 || get(f, &len, sizeof len, h) != 0)
            return -1;
        left -= 8;
        if ((long long)len > left)
            return -1;
        left -= len;
        if (!memcmp(tag, "END ", 4))
            return len == 0 ? 0 : -1;
        if (!memcmp(tag, "RUNI", 4) && len == sizeof x->run_id) {
            if (get(f, &x->run_id, len, h) != 0)
                return -1;
        } else if (!memcmp(tag, "PHYS", 4) && len < sizeof x->phys) {
            if (get(f, x->phys, len, h) != 0)
                return -1;
            x->phys[len] = '\0';
        } else if (!memcmp(tag, "TORG", 4) && len == 16) {
            struct { int64_t step; double time; } org;
            if (get(f, &org, sizeof org, h) != 0)
                return -1;
            x->step_origin = org.step;
            x->time_origin = org.time;
        } else if (!memcmp(tag, "SPEC", 4) &&
                   len == sizeof(ckpt_spec) + (size_t)s->n * sizeof(int32_t)) {
            ckpt_spec sp;
            if (get(f, &sp, sizeof sp, h) != 0 ||
                get(f, s->type, (size_t)s->n * sizeof(int32_t), h) != 0)
                return -1;
            s->units = sp.units;
            s->ntypes = sp.ntypes;
            memcpy(s->type_name, sp.name, sizeof sp.name);
            memcpy(s->mass, sp.mass, sizeof sp.mass);
            *got_spec = 1;
        } else if (!memcmp(tag, "BOX ", 4) && len == sizeof(ckpt_box)) {
            ckpt_box bx;
            if (get(f, &bx, sizeof bx, h) != 0)
                return -1;
            const int per[3] = {bx.pbc & 1, bx.pbc >> 1 & 1, bx.pbc >> 2 & 1};
            s->box = box_make_d(bx.l, bx.tilt[0], bx.tilt[1], bx.tilt[2], bx.lo, per);
            *got_box = 1;
        } else if (!memcmp(tag, "THRM", 4) && !x->thermostat) {
            if (!(x->thermostat = malloc(len ? len : 1)) || get(f, x->thermostat, len, h) != 0)
                return -1;
            x->thermostat_len = len;
        } else if (!memcmp(tag, "OBSV", 4) && !x->observ) {
            if (!(x->observ = malloc(len ? len : 1)) || get(f, x->observ, len, h) != 0)
                return -1;
            x->observ_len = len;
        } else if (!memcmp(tag, "BARO", 4) && !x->barostat) {
            if (!(x->barostat = malloc(len ? len : 1)) || get(f, x->barostat, len, h) != 0)
                return -1;
            x->barostat_len = len;
        } else { /* a section of a later version: skipped, but checksummed */
            char buf[4096];
            while (len > 0) {
                const uint32_t k = len < sizeof buf ? len : (uint32_t)sizeof buf;
                if (get(f, buf, k, h) != 0)
                    return -1;
                len -= k;
            }
        }
    }
}

/* Opens path for reading without blocking (a FIFO would wait for a writer forever, on
 * every rank) and only when it is a regular file. NULL after one line. */
static FILE *open_regular(const char *path)
{
    struct stat st;
    FILE *f;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        tb_error(path, 0, "--restart: cannot read checkpoint: %s", strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        tb_error(path, 0, "--restart: not a regular file");
        return NULL;
    }
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
        tb_error(path, 0, "--restart: cannot read checkpoint: %s", strerror(errno));
        close(fd);
        return NULL;
    }
    return f;
}

/* The header fields a forged or damaged (but checksummed) file could hold: a negative step,
 * non-finite numbers. 0, or TB_EXIT_USAGE after one line naming the field. */
static int check_header(const char *path, const ckpt_header *hd)
{
    const char *bad = NULL;
    const double v[] = {hd->time, hd->dt, hd->mass, hd->box, hd->e0, hd->e_pair, hd->e_triplet};
    const char *name[] = {"time", "dt", "mass", "box", "e0 (the drift reference energy)",
                          "pair energy", "triplet energy"};
    for (int i = 0; i < 7 && !bad; i++)
        if (!isfinite(v[i]))
            bad = name[i];
    if (bad) {
        tb_error(path, 0, "--restart: the checkpoint's %s is not finite", bad);
        return TB_EXIT_USAGE;
    }
    if (hd->step < 0 || hd->step > LONG_MAX / 2) {
        tb_error(path, 0, "--restart: the checkpoint's step is out of range (got %lld)",
                 (long long)hd->step);
        return TB_EXIT_USAGE;
    }
    if (!(hd->dt > 0) || !(hd->mass > 0) || hd->box < 0 || hd->thermo_bytes < -1 ||
        hd->traj_bytes < -1) {
        tb_error(path, 0, "--restart: the checkpoint's %s is out of range",
                 !(hd->dt > 0) ? "dt" : !(hd->mass > 0) ? "mass" : hd->box < 0 ? "box"
                 : hd->thermo_bytes < -1 ? "thermo file size" : "trajectory file size");
        return TB_EXIT_USAGE;
    }
    return 0;
}

/* The time origin lies at or before the checkpoint's step, at a finite time. 0, or
 * TB_EXIT_USAGE after one line. */
static int check_origin(const char *path, const ckpt_header *hd, const ckpt_extra *x)
{
    if (x->step_origin < 0 || x->step_origin > hd->step || !isfinite(x->time_origin)) {
        tb_error(path, 0, "--restart: the checkpoint's time origin is out of range (step %lld, "
                          "time %g)", x->step_origin, x->time_origin);
        return TB_EXIT_USAGE;
    }
    return 0;
}

int ckpt_read(const char *path, int n_expected, const char *cfg, sim_state *s, ckpt_extra *x)
{
    char m[8];
    uint64_t h = FNV_SEED, stored;
    ckpt_header hd;
    size_t n3;
    int got_spec = 0, got_box = 0;
    char *names = NULL; /* [n][TB_SPECIES_MAX], the v2 layout's names per particle */
    struct stat st;
    long long size, arrays;
    FILE *f;

    memset(s, 0, sizeof *s);
    memset(x, 0, sizeof *x);
    if (!(f = open_regular(path)) || fstat(fileno(f), &st) != 0) {
        if (f)
            fclose(f);
        return TB_EXIT_USAGE;
    }
    size = (long long)st.st_size;
    if (get(f, m, sizeof m, &h) != 0 || memcmp(m, magic, sizeof m) != 0) {
        fclose(f);
        if (!memcmp(m, magic_v1, sizeof m))
            tb_error(path, 0, "--restart: a version 1 checkpoint (TBCKPT01, from an older "
                              "tribody), which records neither the physics settings nor the run "
                              "id, so it cannot be continued safely: start a new run");
        else
            tb_error(path, 0, "--restart: not a tribody checkpoint (bad magic)");
        return TB_EXIT_USAGE;
    }
    if (get(f, &hd, sizeof hd, &h) != 0 || hd.endian != CKPT_ENDIAN || hd.n < 1 ||
        hd.n > 100000000) {
        fclose(f);
        tb_error(path, 0, "--restart: checkpoint header is truncated or from another machine");
        return TB_EXIT_USAGE;
    }
    /* The count must be the configuration's, and the arrays must fit in the file, before
     * they are allocated (a header may claim 10^8 particles: 8 GB). */
    if (n_expected > 0 && hd.n != n_expected) {
        fclose(f);
        tb_error(path, 0, "--restart: checkpoint has %lld particles but %s sets "
                          "system.particles = %d", (long long)hd.n, cfg ? cfg : "the configuration",
                 n_expected);
        return TB_EXIT_USAGE;
    }
    arrays = (long long)hd.n * (TB_SPECIES_MAX + 9 * (long long)sizeof(double));
    if (size < (long long)(sizeof m + sizeof hd) + arrays + 8 + (long long)sizeof stored) {
        fclose(f);
        tb_error(path, 0, "--restart: checkpoint is truncated (%lld bytes, too few for the %lld "
                          "particles its header claims)", size, (long long)hd.n);
        return TB_EXIT_USAGE;
    }
    if (sim_state_alloc(s, (int)hd.n) != 0) {
        fclose(f);
        return -1;
    }
    n3 = 3 * (size_t)hd.n * sizeof(double);
    x->thermostat = NULL;
    x->thermostat_len = 0;
    x->observ = NULL;
    x->observ_len = 0;
    x->barostat = NULL;
    x->barostat_len = 0;
    if (!(names = malloc((size_t)hd.n * TB_SPECIES_MAX))) {
        fclose(f);
        sim_state_free(s);
        return tb_error(path, 0, "--restart: out of host memory for %lld names", (long long)hd.n);
    }
    if (get(f, names, (size_t)hd.n * TB_SPECIES_MAX, &h) != 0 ||
        get(f, s->pos, n3, &h) != 0 || get(f, s->vel, n3, &h) != 0 ||
        get(f, s->force, n3, &h) != 0 ||
        get_sections(f, x, s, &got_spec, &got_box, size - (long long)(sizeof m + sizeof hd) - arrays -
                               (long long)sizeof stored, &h) != 0 ||
        fread(&stored, sizeof stored, 1, f) != 1) {
        fclose(f);
        free(names);
        sim_state_free(s);
        ckpt_extra_free(x);
        tb_error(path, 0, "--restart: checkpoint is truncated");
        return TB_EXIT_USAGE;
    }
    fclose(f);
    /* The names per particle repeat SPEC's types; a file without SPEC (one species) names
     * its species after its first particle. */
    if (!got_spec && name_ok(names))
        snprintf(s->type_name[0], sizeof s->type_name[0], "%.*s", TB_SPECIES_MAX - 1, names);
    free(names);
    if (stored != h) {
        sim_state_free(s);
        ckpt_extra_free(x);
        tb_error(path, 0, "--restart: checkpoint is corrupt (checksum mismatch)");
        return TB_EXIT_USAGE;
    }
    if (check_header(path, &hd) != 0 || check_origin(path, &hd, x) != 0) {
        sim_state_free(s);
        ckpt_extra_free(x);
        return TB_EXIT_USAGE;
    }
    s->step = hd.step;
    s->time = hd.time;
    if (!got_spec) /* before species: one, of the header's mass */
        s->mass[0] = hd.mass;
    int bad_spec = !(s->ntypes >= 1 && s->ntypes <= TB_TYPES_MAX) || s->units < 0 || s->units > 2;
    for (int t = 0; !bad_spec && t < s->ntypes; t++) {
        s->type_name[t][TB_SPECIES_MAX - 1] = '\0';
        bad_spec |= !(s->mass[t] > 0 && isfinite(s->mass[t]));
    }
    for (int64_t i = 0; !bad_spec && i < hd.n; i++)
        bad_spec |= s->type[i] < 0 || s->type[i] >= s->ntypes;
    for (int a = 0; !bad_spec && got_box && a < 3; a++)
        bad_spec |= !isfinite(s->box.l[a]) || !isfinite(s->box.lo[a]) ||
                    ((s->box.pbc >> a & 1) && !(s->box.l[a] > 0));
    if (bad_spec) {
        sim_state_free(s);
        ckpt_extra_free(x);
        tb_error(path, 0, "--restart: checkpoint's species or box section is invalid");
        return TB_EXIT_USAGE;
    }
    if (!got_box)
        s->box = box_cube_d(hd.box);
    s->e0 = hd.e0;
    s->e_pair = hd.e_pair;
    s->e_triplet = hd.e_triplet;
    x->thermo_bytes = hd.thermo_bytes;
    x->traj_bytes = hd.traj_bytes;
    x->dt = hd.dt;
    return 0;
}
