/* output.c — numbered backups of existing outputs, and the thermo CSV (see output.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "output.h"

int out_backup(const char *path)
{
    struct stat st;
    char bak[4200];
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
        return 0;
    for (int k = 1; k < 100000; k++) {
        snprintf(bak, sizeof bak, "%s.~%d~", path, k);
        if (stat(bak, &st) != 0 && errno == ENOENT) {
            if (rename(path, bak) != 0)
                return tb_error(path, 0, "cannot back up existing output to %s: %s", bak,
                                strerror(errno));
            tb_notice("%s exists: kept as %s", path, bak);
            return 0;
        }
    }
    return tb_error(path, 0, "too many backups of this output exist; remove some");
}

FILE *out_create(const char *path)
{
    FILE *f;
    if (strcmp(path, "-") == 0)
        return stdout;
    if (out_backup(path) != 0)
        return NULL;
    f = fopen(path, "w");
    if (!f)
        tb_error(path, 0, "cannot create output file: %s", strerror(errno));
    return f;
}

int out_close(FILE *f, const char *path)
{
    int bad;
    if (!f)
        return 0;
    bad = ferror(f);
    if (f == stdout)
        bad |= fflush(f) != 0;
    else
        bad |= fclose(f) != 0;
    if (bad)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}

int thermo_header(FILE *f, const char *path)
{
    if (fprintf(f, "step,time,kinetic,pair,triplet,total,drift,temperature,virial,pressure,pxx,"
                   "pyy,pzz,conserved\n") < 0)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}

double sim_drift(const sim_state *s)
{
    const double e = sim_conserved(s);
    return s->e0 != 0.0 ? (e - s->e0) / fabs(s->e0) : e - s->e0;
}

int thermo_row(FILE *f, const char *path, const sim_state *s)
{
    const double ke = sim_kinetic(s), epot = s->e_pair + s->e_triplet;
    double p[7];
    char press[128] = ",,,";
    if (sim_pressure(s, p) == 0)
        snprintf(press, sizeof press, "%.15g,%.15g,%.15g,%.15g", p[0], p[1], p[2], p[3]);
    if (fprintf(f, "%ld,%.10g,%.15g,%.15g,%.15g,%.15g,%.6e,%.10g,%.15g,%s,%.15g\n", s->step,
                s->time, ke, s->e_pair, s->e_triplet, ke + epot, sim_drift(s), sim_temperature(s),
                sim_virial_trace(s), press, sim_conserved(s)) < 0)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}
