/* cpu_motion.c — the integrators' primitives on the CPU backend's copy of the state (the
 * backend_ops kick, drift, scale, ostep and kinetic of backend.h, and the half kicks and drift
 * of its own velocity Verlet step in cpu_backend.c), the barostats' virial, the finiteness
 * check, the library's put and the observables' rdf: O(n) loops over positions and velocities,
 * OpenMP over particles where the order does not matter to the bits. */
#include <string.h>

#include "common/check.h"
#include "solver/cpu/cpu_internal.h"
#include "solver/physics/rdf_cells.h"

/* v += (h/m) F, with m the particle's species' mass (one species: one loop over 3n). */
void cpu_kick_by(backend *b, double hdt)
{
    const long long n3 = 3LL * b->s.n;
    if (b->s.ntypes <= 1) {
        const double h = hdt / b->s.mass[0];
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
        for (long long i = 0; i < n3; i++)
            b->s.vel[i] += h * b->s.force[i];
        return;
    }
    double h[TB_TYPES_MAX];
    for (int t = 0; t < b->s.ntypes; t++)
        h[t] = hdt / b->s.mass[t];
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
    for (long long i = 0; i < n3; i++)
        b->s.vel[i] += h[b->s.type[i / 3]] * b->s.force[i];
}

/* x += dt v, wrapped into the box (box_wrap_d). */
void cpu_drift_by(backend *b, double dt)
{
    const tb_box_d *box = &b->pp.d.box;
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
    for (int i = 0; i < b->s.n; i++) {
        double *x = b->s.pos + 3 * i;
        const double *v = b->s.vel + 3 * i;
        for (int a = 0; a < 3; a++)
            x[a] += dt * v[a];
        box_wrap_d(box, x);
    }
}

int cpu_kick(backend *b, double h)
{
    cpu_kick_by(b, h);
    return 0;
}

int cpu_drift(backend *b, double h)
{
    cpu_drift_by(b, h);
    return 0;
}

int cpu_scale(backend *b, double c)
{
    const long long n3 = 3LL * b->s.n;
    for (long long i = 0; i < n3; i++)
        b->s.vel[i] *= c;
    return 0;
}

int cpu_ostep(backend *b, double c1, const double *c2, const double *xi)
{
    const long long n3 = 3LL * b->s.n;
    for (long long i = 0; i < n3; i++)
        b->s.vel[i] = c1 * b->s.vel[i] + c2[b->s.type[i / 3]] * xi[i];
    return 0;
}

/* Serial, in particle order: the GPU's kinetic kernel sums in its own fixed order, so the
 * two backends agree to rounding, and each repeats itself bit for bit. */
int cpu_kinetic(backend *b, double *ke)
{
    *ke = sim_kinetic(&b->s);
    return 0;
}

/* The kinetic tensor, serial in particle order (restarts repeat bit for bit). */
int cpu_kinetic_axes(backend *b, double k[6])
{
    for (int a = 0; a < 6; a++)
        k[a] = 0.0;
    for (int i = 0; i < b->s.n; i++) {
        const double m = sim_mass(&b->s, i), *v = b->s.vel + 3 * i;
        for (int a = 0; a < 3; a++)
            k[a] += 0.5 * m * v[a] * v[a];
        k[3] += 0.5 * m * v[0] * v[1];
        k[4] += 0.5 * m * v[0] * v[2];
        k[5] += 0.5 * m * v[1] * v[2];
    }
    return 0;
}

/* Whether the map m[6] (backend.h rescale) has off-diagonal terms. */
static int map_general(const double *m)
{
    return m && (m[3] != 0.0 || m[4] != 0.0 || m[5] != 0.0);
}

/* v = VM v for an upper-triangular vm[6] (the old v *= 1/mu when diagonal: vm = 1/mu). */
static void map_velocity(const double vm[6], int general, double v[3])
{
    if (general) {
        v[0] = vm[0] * v[0] + vm[3] * v[1] + vm[4] * v[2];
        v[1] = vm[1] * v[1] + vm[5] * v[2];
        v[2] = vm[2] * v[2];
        return;
    }
    for (int a = 0; a < 3; a++)
        v[a] *= vm[a];
}

int cpu_rescale(backend *b, const double m[6], const double vm[6])
{
    tb_box_d box = b->s.box;
    const int gm = map_general(m), gv = map_general(vm);
    if (m)
        box_deform_d(&box, m);
#pragma omp parallel for schedule(static) num_threads(b->nthreads)
    for (int i = 0; i < b->s.n; i++) {
        double *x = b->s.pos + 3 * i, *v = b->s.vel + 3 * i;
        if (vm)
            map_velocity(vm, gv, v);
        if (!m)
            continue;
        if (gm)
            box_map_point_d(box.lo, m, x);
        else
            for (int a = 0; a < 3; a++)
                x[a] = box.lo[a] + m[a] * (x[a] - box.lo[a]);
        box_wrap_d(&box, x);
    }
    if (!m)
        return 0;
    b->s.box = box;
    b->pp.d.box = box;
    b->pp.f.box = box_to_f(&box);
    if (b->cull)
        nbr_list_move_box(&b->nl, &box);
    return 0;
}

int cpu_virial(backend *b, double w[6])
{
    if (b->vir_skip)
        return tb_error(NULL, 0, "internal: the barostat asked for a virial that was not summed");
    memcpy(w, b->s.virial, 6 * sizeof *w);
    return 0;
}

int cpu_check_finite(backend *b, long step, tb_nonfinite *nf)
{
    sim_find_nonfinite(&b->s, nf);
    if (nf->step >= 0)
        nf->step = step;
    return 0;
}

int cpu_put(backend *b, const sim_state *s, int what)
{
    const size_t bytes = 3 * (size_t)b->s.n * sizeof *s->pos;
    if (what & BACKEND_PUT_POS)
        memcpy(b->s.pos, s->pos, bytes);
    if (what & BACKEND_PUT_VEL)
        memcpy(b->s.vel, s->vel, bytes);
    return 0;
}

int cpu_rdf(backend *b, const rdf_spec *s, unsigned long long *counts, double *volume)
{
    *volume = box_volume_d(&b->pp.d.box);
    rdf_count(s, &b->pp.d.box, b->s.pos, b->s.ntypes > 1 ? b->s.type : NULL, b->s.n, counts);
    return 0;
}
