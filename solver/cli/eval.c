/* eval.c — `tribody eval`: one energy and force evaluation of the initial state, through the
 * library's engine (solver/lib/engine.h), so `eval` and the C API give the same numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "config/units.h"
#include "solver/cli/args.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/cli/step_cost.h"
#include "solver/par/mpi.h"
#include "solver/io/output.h"
#include "solver/io/xyz.h"
#include "solver/lib/engine.h"
#include "solver/physics/potential.h"

static const char eval_help[] =
    "usage: tribody eval CONFIG [--set PATH=VALUE ...] [-o FILE]\n"
    "\n"
    "Evaluates the energy and the forces of CONFIG's initial state once, on the configured\n"
    "backend, map and precision. Prints the energy terms on stdout (in the units of `units`) and\n"
    "writes one extended-XYZ frame with per-particle forces\n"
    "(Properties=species:S:1:pos:R:3:vel:R:3:forces:R:3, energy= in the comment line).\n"
    "\n"
    "options:\n"
    "  --set PATH=VALUE   override a setting, checked like the file\n"
    "  -o FILE            write the frame to FILE ('-' for stdout); an existing file is kept\n"
    "                     as FILE.~1~. Without -o no file is written\n"
    "  -h, --help         this help\n";

int cmd_eval(int argc, char **argv)
{
    tb_engine e;
    cli_args a;
    const char *out;
    FILE *f = NULL;
    double fmax = 0.0;
    int rc;

    memset(&e, 0, sizeof e);
    if ((rc = tb_mpi_agree(args_parse(argc, argv, "o", &a))) != 0)
        return rc;
    if (a.help) {
        fputs(eval_help, stdout);
        return 0;
    }
    out = a.out; /* NULL: print only, write no frame */
    /* the library's engine (solver/lib/engine.h), with the command line's checks around it */
    if ((rc = tb_mpi_agree(engine_config(&e, a.config, NULL, a.n_set, a.sets))) != 0)
        return rc;
    const sim_config *c = &e.cfg;
    const sim_state *sp = &e.s;
    if ((rc = tb_mpi_agree(engine_state_from_config(&e))) != 0)
        goto done;
    if ((rc = tb_mpi_agree(backend_select(c, &e.ops))) != 0 ||
        (rc = tb_mpi_agree(step_cost_check(c, sp, e.ops))) != 0 ||
        (rc = tb_mpi_agree(engine_start(&e))) != 0 ||
        (out && (rc = out_check(out, NULL, "-o")) != 0))
        goto done;
    if ((rc = engine_compute(&e, "the initial state")) != 0)
        goto done;
    const sim_state s = *sp;
    for (int i = 0; i < s.n; i++) {
        const double *F = s.force + 3 * i;
        const double m = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
        if (m > fmax)
            fmax = m;
    }
    /* With the frame on stdout, the summary goes to stderr. */
    FILE *txt = out && strcmp(out, "-") == 0 ? stderr : stdout;
    char ranks[96];
    fprintf(txt, "tribody eval: n = %d, %s boundary, backend %s, map %s / %s, precision %s, tile %d, "
                 "%s\n", s.n, cfg_boundary_name(c->system.boundary), e.ops->name, c->solver.map,
            c->solver.map2d, cfg_precision_name(c->solver.precision), c->solver.tile,
            tb_ranks_desc(ranks, sizeof ranks, !strcmp(e.ops->name, "gpu")));
    const tb_units *u = units_of(s.units);
    const int sw = pot_sw_on(c); /* the terms the two energies hold */
    fprintf(txt, "E_pair    = %.15g %s   (%s, pairs i<j)\n", s.e_pair, u->energy,
            sw ? "Stillinger-Weber phi2" : "Lennard-Jones");
    fprintf(txt, "E_triplet = %.15g %s   (%s)\n", s.e_triplet, u->energy,
            sw ? "Stillinger-Weber phi3, angles j-i-k at each centre i"
               : "Axilrod-Teller-Muto, triplets i<j<k");
    fprintf(txt, "E_pot     = %.15g %s\n", s.e_pair + s.e_triplet, u->energy);
    fprintf(txt, "E_kin     = %.15g %s   (T = %.6g %s)\n", sim_kinetic(&s), u->energy,
            sim_temperature(&s), u->temperature);
    fprintf(txt, "max |F|   = %.6g %s\n", fmax, u->force);
    fprintf(txt, "virial    = %.15g %s   (W_xx + W_yy + W_zz; tensor xx yy zz xy xz yz: %.17g %.17g "
                 "%.17g %.17g %.17g %.17g)\n", sim_virial_trace(&s), u->energy, s.virial[0],
            s.virial[1], s.virial[2], s.virial[3], s.virial[4], s.virial[5]);
    {
        double p[7];
        if (sim_pressure(&s, p) == 0)
            fprintf(txt, "pressure  = %.15g %s   (P = nktv2p (2 E_kin + W) / 3V; pxx pyy pzz pxy "
                         "pxz pyz %.17g %.17g %.17g %.17g %.17g %.17g)\n", p[0], u->pressure, p[1],
                    p[2], p[3], p[4], p[5], p[6]);
    }
    if (!out || tb_rank() != 0) /* no frame asked for; rank 0 alone writes */
        goto done;
    f = out_create(out);
    if (!f || xyz_write_frame(f, &s, 1, NULL) != 0) {
        rc = 1;
        goto done;
    }
    rc = out_close(f, out) != 0;
    f = NULL;
    if (rc == 0 && strcmp(out, "-") != 0)
        fprintf(txt, "wrote %s (one frame with forces)\n", out);
done:
    if (f)
        out_close(f, out);
    engine_free(&e);
    return rc < 0 ? 1 : rc;
}
