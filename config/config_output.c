/* config_output.c — the checks of the observables' settings (output.rdf, output.msd) across
 * settings: which groups were given, and r_max against the box the configuration makes. A box
 * that comes from a file (system.init.type lammps or xyz) is checked when the run starts
 * (solver/cli/run_obs.c), against the state's box. */
#include <stdio.h>

#include "config/config.h"
#include "config/config_int.h"

void cfg_check_output(cfg_ctx *x)
{
    sim_config *c = x->c;
    c->output.rdf.enabled = cfg_given(x, "output.rdf") != NULL;
    c->output.msd.enabled = cfg_given(x, "output.msd") != NULL;
    if (!c->output.rdf.enabled || cfg_rejected(x, "system.box") ||
        cfg_rejected(x, "system.boundary") || cfg_rejected(x, "output.rdf.r_max"))
        return;
    if (c->system.boundary == CFG_BOUNDARY_OPEN && c->system.init.type != CFG_INIT_LAMMPS &&
        c->system.init.type != CFG_INIT_XYZ) {
        cfg_problem(x, cfg_given(x, "output.rdf"), "output.rdf",
                    "needs a box with a periodic axis (g(r) is normalised by the volume; the "
                    "boundary is open)");
        return;
    }
    const double half = cfg_box_half_width(c);
    char a[32], b[32];
    if (cfg_given(x, "output.rdf.r_max") && half > 0 && c->output.rdf.r_max > half)
        cfg_problem(x, cfg_given(x, "output.rdf.r_max"), "output.rdf.r_max",
                    "beyond half the smallest periodic width of the box, %s (got %s)",
                    cfg_fmt_num(half, a), cfg_fmt_num(c->output.rdf.r_max, b));
}
