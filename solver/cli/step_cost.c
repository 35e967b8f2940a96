/* step_cost.c — the estimated time of one force evaluation before step 0 (step_cost.h).
 *
 * All triplets: C(N,3) triplets (ATM on) plus C(N,2) pairs (LJ on). Neighbour lists: every
 * particle walks the pairs of its row of m partners, m = rho (4/3) pi R^3 / 2 (the partners
 * after it within the list radius R = max cutoff + skin, nbr_radius, at the initial number
 * density rho: N / L^3 in a periodic box, N over the bounding box of an open cluster), so
 * N (m + m^2/2) entry pairs. Both at the rates of step_cost.h, times the threads (CPU) or GPUs
 * and the ranks: a lower bound of the real time. */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "common/check.h"
#include "solver/cli/step_cost.h"
#include "solver/par/mpi.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot_params.h"
#include "solver/physics/potential.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* Number density of s [sigma^-3]: periodic N / L^3; open N over the bounding box, each edge
 * at least r (a flat or tiny cluster still holds its partners within r). */
static double number_density(const sim_state *s, double r)
{
    double v = 1.0;
    if (sim_volume(s) > 0)
        return s->n / sim_volume(s);
    for (int a = 0; a < 3; a++) {
        double lo = HUGE_VAL, hi = -HUGE_VAL;
        for (int i = 0; i < s->n; i++) {
            lo = fmin(lo, s->pos[3 * i + a]);
            hi = fmax(hi, s->pos[3 * i + a]);
        }
        v *= fmax(hi - lo, r);
    }
    return s->n / v;
}

static int is_gpu(const backend_ops *ops)
{
    return strcmp(ops->name, "gpu") == 0;
}

double step_cost_seconds(const sim_config *c, const sim_state *s, const backend_ops *ops,
                         double *work, int *lists)
{
    pot_params pp;
    const double n = s->n;
    const double rate = (is_gpu(ops) ? STEP_COST_GPU_RATE
                                     : STEP_COST_CPU_RATE * omp_get_max_threads()) *
                        tb_nranks();
    pot_params_init_box(&pp, c, &s->box);
    *lists = nbr_wanted(c, &pp);
    if (*lists) {
        const double r = nbr_radius(c, &pp);
        const double m = number_density(s, r) * (4.0 / 3.0) * M_PI * r * r * r / 2.0;
        *work = n * (m + 0.5 * m * m);
    } else {
        *work = (pp.atm_on ? n * (n - 1) * (n - 2) / 6.0 : 0.0) +
                (pp.lj_on ? n * (n - 1) / 2.0 : 0.0);
    }
    return *work / rate;
}

int step_cost_check(const sim_config *c, const sim_state *s, const backend_ops *ops)
{
    double work;
    int lists;
    const double t = step_cost_seconds(c, s, ops, &work, &lists);
    const double limit = c->solver.max_step_seconds;
    char where[96];
    char fix[256];
    if (t <= limit)
        return 0;
    if (is_gpu(ops))
        snprintf(where, sizeof where, "%d GPU%s (at most %.0e per second each)", tb_nranks(),
                 tb_nranks() > 1 ? "s" : "", STEP_COST_GPU_RATE);
    else
        snprintf(where, sizeof where, "%d CPU thread%s (at most %.0e per second each)",
                 omp_get_max_threads() * tb_nranks(),
                 omp_get_max_threads() * tb_nranks() > 1 ? "s" : "", STEP_COST_CPU_RATE);
    if (lists) { /* the term that sets the list radius */
        const tb_box_d box = s->box;
        double r, lo, hi;
        const char *setting;
        const pot_term *w = pot_widest(c, &box, &r);
        w->cutoffs(c, &box, &lo, &hi, &setting);
        snprintf(fix, sizeof fix, "lower %s (%g sigma%s) or solver.skin, or use fewer particles",
                 setting, r,
                 w == pot_terms[POT_TERM_atm] && r > 0 && r == pot_atm_cutoff_default(&box)
                     ? "; the periodic default is L/4" : "");
    } else if (c->solver.cull) {
        snprintf(fix, sizeof fix, "give the ATM term a cutoff (potential.atm.cutoff) so that "
                                  "solver.cull takes the O(N) neighbour lists, or use fewer "
                                  "particles");
    } else {
        snprintf(fix, sizeof fix, "set solver.cull = true for the O(N) neighbour lists (every "
                                  "term has a cutoff), or use fewer particles");
    }
    tb_error(c->path, 0, "solver.max_step_seconds: one step of n = %d on the %s (%.3g %s) is "
                         "estimated at %.3g s or more on %s, beyond %g s: %s, or raise "
                         "solver.max_step_seconds to run it anyway", s->n,
             lists ? "neighbour lists" : "all-triplets path", work,
             lists ? "entry pairs" : "triplets and pairs", t, where, limit, fix);
    return TB_EXIT_USAGE;
}
