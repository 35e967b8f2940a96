/* run_obs.c — the observables in `tribody run` (run_obs.h): their set-up, with the default
 * range of g(r) from the potential, and their samples in the stepping loop. */
#include <stdio.h>
#include <time.h>

#include "common/check.h"
#include "solver/cli/run_obs.h"
#include "solver/physics/potential.h"

int run_obs_create(obs **o, const sim_config *c, const sim_state *s, const ckpt_extra *x,
                   const char *restart)
{
    double r_max = c->output.rdf.r_max;
    int rc;
    if (c->output.rdf.enabled && !(r_max > 0)) { /* the default: the largest cutoff, within L/2 */
        const double half = box_half_width_d(&s->box);
        int all_cut;
        r_max = pot_range(c, &s->box, &all_cut);
        if (!(r_max > 0) || r_max > half)
            r_max = half;
    }
    if ((rc = obs_create(o, c, s, r_max)) != 0)
        return rc;
    if (*o && x && x->observ_len > 0)
        return obs_restore(*o, x->observ, x->observ_len, restart);
    return 0;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int every(long step, int n)
{
    return n > 0 && step % n == 0;
}

int run_obs_fetch_due(const obs *o, const sim_config *c, long step)
{
    return o && ((c->output.msd.enabled && every(step, c->output.msd.every)) ||
                 every(step, c->output.thermo_every));
}

int run_obs_step(obs *o, const sim_config *c, const backend_ops *ops, backend *b,
                 const sim_state *s, int fetched)
{
    const long step = s->step;
    const rdf_spec *spec = obs_rdf_spec(o);
    if (!o)
        return 0;
    if (spec && every(step, c->output.rdf.every)) {
        double volume = 0.0;
        const double t0 = seconds(); /* rdf() returns with the counts: the whole cost */
        if (ops->rdf(b, spec, obs_rdf_counts(o), &volume) != 0)
            return -1;
        obs_rdf_add(o, volume, seconds() - t0);
    }
    if (!fetched)
        return 0;
    obs_track(o, s);
    if (c->output.msd.enabled && every(step, c->output.msd.every) && obs_msd_sample(o, s) != 0)
        return -1;
    if (every(step, c->output.thermo_every) && obs_stats_sample(o, s) != 0)
        return -1;
    return 0;
}
