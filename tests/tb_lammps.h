/* tb_lammps.h — the LAMMPS cases of tests/lammps/CASE.ref (scripts/lammps-reference): one
 * reader for the tests that compare with them (test_reference_lammps.c: validate/'s reference;
 * test_boxes.c: the CPU backend). A case holds LAMMPS's units, box, origin, periodicity,
 * volume, species (masses, LJ pairs mixed by val_lj_mix, nu per triplet), cutoffs, energies and
 * pressure tensors per sub-style, and every atom's type, position and force. Included after
 * tb_test.h. */
#ifndef TB_LAMMPS_H
#define TB_LAMMPS_H

#include <stdio.h>
#include <string.h>

#include "validate/reference.h"

#define MAXT 4
#define MAXN 256

typedef struct lcase {
    char name[64];
    char units[16];        /* lj, metal, real */
    double mass[MAXT];     /* per type, in the style's mass unit */
    double nktv2p, volume, origin[3];
    val_cell cell;
    int nt, n, shift, arithmetic;
    double eps[MAXT * MAXT], sigma[MAXT * MAXT], rc[MAXT * MAXT];
    unsigned char given[MAXT * MAXT];
    double nu[MAXT * MAXT * MAXT];
    double atm_rc, atm_rct;
    double e_lj, e_atm, p_lj[6], p_atm[6];
    int type[MAXN];
    double pos[3 * MAXN], f[3 * MAXN];
} lcase;

/* Reads tests/lammps/NAME.ref; 0 on success. */
static int read_ref(const char *name, lcase *c)
{
    char path[256], line[512];
    snprintf(path, sizeof path, "tests/lammps/%s.ref", name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    int atoms = 0, bad = 0;
    while (fgets(line, sizeof line, fp)) {
        char key[32];
        int i, j, k, id, t;
        double a, b, d;
        val_cell *cl = &c->cell;
        if (line[0] == '#' || sscanf(line, "%31s", key) != 1)
            continue;
        const char *v = line + strlen(key);
        if (!strcmp(key, "units"))
            bad |= sscanf(v, "%15s", c->units) != 1;
        else if (!strcmp(key, "mass")) {
            bad |= sscanf(v, "%d %lf", &i, &a) != 2 || i < 1 || i > MAXT;
            if (!bad)
                c->mass[i - 1] = a;
        } else if (!strcmp(key, "nktv2p"))
            bad |= sscanf(v, "%lf", &c->nktv2p) != 1;
        else if (!strcmp(key, "box"))
            bad |= sscanf(v, "%lf %lf %lf %lf %lf %lf", &cl->lx, &cl->ly, &cl->lz, &cl->xy,
                          &cl->xz, &cl->yz) != 6;
        else if (!strcmp(key, "origin"))
            bad |= sscanf(v, "%lf %lf %lf", &c->origin[0], &c->origin[1], &c->origin[2]) != 3;
        else if (!strcmp(key, "periodic"))
            bad |= sscanf(v, "%d %d %d", &cl->periodic[0], &cl->periodic[1], &cl->periodic[2]) != 3;
        else if (!strcmp(key, "volume"))
            bad |= sscanf(v, "%lf", &c->volume) != 1;
        else if (!strcmp(key, "ntypes"))
            bad |= sscanf(v, "%d", &c->nt) != 1 || c->nt < 1 || c->nt > MAXT;
        else if (!strcmp(key, "mix"))
            c->arithmetic = strstr(v, "arithmetic") != NULL;
        else if (!strcmp(key, "lj_shift"))
            bad |= sscanf(v, "%d", &c->shift) != 1;
        else if (!strcmp(key, "lj")) {
            bad |= sscanf(v, "%d %d %lf %lf %lf", &i, &j, &a, &b, &d) != 5 || i < 1 || j < 1 ||
                   i > c->nt || j > c->nt;
            if (!bad)
                for (int o = 0; o < 2; o++) {
                    const int p = o ? (j - 1) * c->nt + i - 1 : (i - 1) * c->nt + j - 1;
                    c->eps[p] = a, c->sigma[p] = b, c->rc[p] = d, c->given[p] = 1;
                }
        } else if (!strcmp(key, "atm_cutoff"))
            bad |= sscanf(v, "%lf %lf", &c->atm_rc, &c->atm_rct) != 2;
        else if (!strcmp(key, "nu")) {
            bad |= sscanf(v, "%d %d %d %lf", &i, &j, &k, &a) != 4 || i < 1 || j < 1 || k < 1 ||
                   i > c->nt || j > c->nt || k > c->nt;
            if (!bad) { /* every permutation the same nu */
                const int q[6][3] = {{i, j, k}, {i, k, j}, {j, i, k}, {j, k, i}, {k, i, j}, {k, j, i}};
                for (int o = 0; o < 6; o++)
                    c->nu[((q[o][0] - 1) * c->nt + q[o][1] - 1) * c->nt + q[o][2] - 1] = a;
            }
        } else if (!strcmp(key, "energy_lj"))
            bad |= sscanf(v, "%lf", &c->e_lj) != 1;
        else if (!strcmp(key, "energy_atm"))
            bad |= sscanf(v, "%lf", &c->e_atm) != 1;
        else if (!strcmp(key, "pressure_lj") || !strcmp(key, "pressure_atm")) {
            double *p = key[9] == 'l' ? c->p_lj : c->p_atm;
            bad |= sscanf(v, "%lf %lf %lf %lf %lf %lf", &p[0], &p[1], &p[2], &p[3], &p[4], &p[5]) != 6;
        }
        else if (!strcmp(key, "natoms"))
            bad |= sscanf(v, "%d", &c->n) != 1 || c->n < 3 || c->n > MAXN;
        else if (!strcmp(key, "atom")) {
            double x[6];
            bad |= sscanf(v, "%d %d %lf %lf %lf %lf %lf %lf", &id, &t, &x[0], &x[1], &x[2], &x[3],
                          &x[4], &x[5]) != 8 || id != atoms + 1 || id > c->n || t < 1 || t > c->nt;
            if (!bad) {
                c->type[atoms] = t - 1;
                memcpy(&c->pos[3 * atoms], x, 3 * sizeof *x);
                memcpy(&c->f[3 * atoms], x + 3, 3 * sizeof *x);
                atoms++;
            }
        }
    }
    fclose(fp);
    if (bad || atoms != c->n || c->nt < 1)
        return -1;
    val_lj_mix(c->nt, c->given, c->arithmetic, c->eps, c->sigma, c->rc);
    return 0;
}

#endif
