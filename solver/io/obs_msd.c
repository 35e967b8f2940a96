/* obs_msd.c — the mean-square displacement per species from unwrapped positions, and the
 * diffusion coefficient from its slope (obs.h).
 *
 * The backends wrap every position into the box at each drift (box_wrap_d) and the state holds
 * no image flags, so the images are followed here, at every state the run fetches: the
 * displacement since the last look less its minimum image (solver/box.h) is a whole number of
 * lattice vectors c, b, a (solved in that order, the restricted triclinic cell being upper
 * triangular), the wraps in between. The images are integers: the same whichever states were
 * looked at, so a restarted run, whose checkpoint carries them, continues exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/check.h"
#include "config/units.h"
#include "solver/io/obs_int.h"
#include "solver/io/output.h"

void obs_track(obs *o, const sim_state *s)
{
    const tb_box_d *b = &s->box;
    const double q = 0.5 * box_half_width_d(b); /* a quarter of the smallest width */
    if (!o || !o->msd_on || !box_periodic_d(b))
        return;
    for (int i = 0; i < o->n; i++) {
        double *p = o->prev + 3 * (size_t)i;
        const double *x = s->pos + 3 * (size_t)i;
        double d[3] = {x[0] - p[0], x[1] - p[1], x[2] - p[2]}, m[3];
        memcpy(m, d, sizeof m);
        box_min_image_d(b, m);
        if (!o->far_noted && m[0] * m[0] + m[1] * m[1] + m[2] * m[2] > q * q) {
            /* half a width would be taken for a wrap the other way: say so before it happens */
            o->far_noted = 1;
            tb_notice("output.msd: particle %d moved %.3g since the last look at the state (step "
                      "%ld), more than a quarter of the box's width: the images may be wrong; "
                      "sample more often (output.msd.every, output.thermo_every)", i,
                      sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]), s->step);
        }
        /* the jump d - m = sx a + sy b + sz c, a = (lx,0,0), b = (xy,ly,0), c = (xz,yz,lz) */
        const double jz = d[2] - m[2], jy = d[1] - m[1], jx = d[0] - m[0];
        const double sz = b->pbc & 4 ? rint(jz / b->l[2]) : 0.0;
        const double sy = b->pbc & 2 ? rint((jy - sz * b->yz) / b->l[1]) : 0.0;
        const double sx = b->pbc & 1 ? rint((jx - sz * b->xz - sy * b->xy) / b->l[0]) : 0.0;
        /* x moved by the jump when it was wrapped back: the image count goes the other way */
        o->img[3 * (size_t)i] -= (int)sx;
        o->img[3 * (size_t)i + 1] -= (int)sy;
        o->img[3 * (size_t)i + 2] -= (int)sz;
        memcpy(p, x, sizeof m);
    }
}

int obs_msd_sample(obs *o, const sim_state *s)
{
    double sum[TB_TYPES_MAX] = {0}, row[3 + TB_TYPES_MAX], all = 0.0;
    const tb_box_d *b = &s->box;
    if (!o || !o->msd_on)
        return 0;
    for (int i = 0; i < o->n; i++) {
        const int *im = o->img + 3 * (size_t)i;
        const double *x = s->pos + 3 * (size_t)i, *x0 = o->x0 + 3 * (size_t)i;
        /* the unwrapped position x + ia a + ib b + ic c, less the origin */
        const double d[3] = {x[0] + im[0] * b->l[0] + im[1] * b->xy + im[2] * b->xz - x0[0],
                             x[1] + im[1] * b->l[1] + im[2] * b->yz - x0[1],
                             x[2] + im[2] * b->l[2] - x0[2]};
        sum[s->type[i]] += d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    }
    row[0] = (double)s->step;
    row[1] = s->time;
    for (int t = 0; t < o->ntypes; t++) {
        all += sum[t];
        row[3 + t] = o->count[t] ? sum[t] / o->count[t] : 0.0;
    }
    row[2] = all / o->n;
    return obs_rows_add(&o->msd, row);
}

const double *obs_msd_rows(const obs *o, long *n, int *width)
{
    *n = o->msd.n;
    *width = o->msd.width;
    return o->msd.v;
}

double obs_slope(const double *t, const double *y, int stride, int i0, int n)
{
    double mt = 0.0, my = 0.0, stt = 0.0, sty = 0.0;
    const int m = n - i0;
    if (m < 2)
        return (double)NAN;
    for (int i = i0; i < n; i++) {
        mt += t[(size_t)i * stride];
        my += y[(size_t)i * stride];
    }
    mt /= m;
    my /= m;
    for (int i = i0; i < n; i++) {
        const double dt = t[(size_t)i * stride] - mt;
        stt += dt * dt;
        sty += dt * (y[(size_t)i * stride] - my);
    }
    return stt > 0 ? sty / stt : (double)NAN;
}

/* Diffusion coefficients in cm^2/s per unit of the style: metal A^2/ps, real A^2/fs (none: lj). */
static double to_cgs(int units)
{
    const tb_units *u = units_of(units);
    if (!strcmp(u->name, "metal"))
        return 1e-4; /* 1 A^2/ps = 1e-16 cm^2 / 1e-12 s */
    if (!strcmp(u->name, "real"))
        return 1e-1; /* 1 A^2/fs = 1e-16 cm^2 / 1e-15 s */
    return 0.0;
}

int obs_msd_write(const obs *o, FILE *out)
{
    const tb_units *u = units_of(o->units);
    const int w = o->msd.width, sets = w - 2;
    const long n = o->msd.n;
    FILE *f;
    if (o->msd_file[0]) {
        if (!(f = out_create(o->msd_file)))
            return -1;
        fprintf(f, "# tribody output.msd: mean-square displacement of the unwrapped positions "
                   "from step %.0f, one sample every %d steps\n# units: time [%s]; msd [%s^2]\n"
                   "step,time,msd",
                n ? o->msd.v[0] : 0.0, o->msd_every, u->time, u->length);
        for (int t = 0; sets > 1 && t < o->ntypes; t++)
            fprintf(f, ",msd_%s", o->type_name[t]);
        fputc('\n', f);
        for (long r = 0; r < n; r++) {
            const double *row = o->msd.v + (size_t)r * w;
            fprintf(f, "%.0f", row[0]);
            for (int k = 1; k < w; k++)
                fprintf(f, ",%.17g", row[k]);
            fputc('\n', f);
        }
        if (out_close(f, o->msd_file) != 0)
            return -1;
        if (strcmp(o->msd_file, "-")) {
            int cols[1 + TB_TYPES_MAX];
            char xl[64], yl[64];
            for (int k = 0; k < sets; k++)
                cols[k] = 3 + k;
            snprintf(xl, sizeof xl, "time [%s]", u->time);
            snprintf(yl, sizeof yl, "MSD [%s^2]", u->length);
            if (obs_plot(o->msd_file, o->msd_png, "mean-square displacement", xl, yl, 2, sets, cols) != 0)
                return -1;
        }
    }
    /* D = slope / 6 over the later half of the samples (the early, ballistic part left out) */
    const double cgs = to_cgs(o->units);
    fprintf(out, "  diffusion (MSD slope / 6 over the later half of %ld samples, t >= %.6g %s):",
            n, n ? o->msd.v[(size_t)(n / 2) * w + 1] : 0.0, u->time);
    for (int k = 0; k < sets; k++) {
        const double D = obs_slope(o->msd.v + 1, o->msd.v + 2 + k, w, (int)(n / 2), (int)n) / 6.0;
        fprintf(out, " D%s%s = %.6g %s^2/%s", k ? "_" : "", k ? o->type_name[k - 1] : "", D,
                u->length, u->time);
        if (cgs > 0)
            fprintf(out, " (%.4g cm^2/s)", D * cgs);
        fputc(k + 1 < sets ? ',' : '\n', out);
    }
    return 0;
}
