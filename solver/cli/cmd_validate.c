/* cmd_validate.c — `tribody validate`: the configured backend against independent references,
 * one verdict per check (docs/validate.md has the method, the tolerances and their reasons).
 * This file: the options, the table of rows, the report and the command; the checks are in
 * validate_forces.c (1, 2), validate_traj.c (3) and validate_thermo.c (4).
 *
 * 1. Forces and energies, per map and precision, against val_reference() (validate/, the
 *    plain i<j<k loop in double). Each 3D map is checked on the triplet term alone (LJ off)
 *    and each 2D map on the pair term alone (ATM off), so that neither term hides in the
 *    other's rounding; the configured pair of maps is then checked on the full potential.
 *    With F the backend's forces and R the reference's,
 *        force max = max_i |F_i - R_i| / max_i |R_i|,
 *        force rms = sqrt(sum_i |F_i - R_i|^2 / sum_i |R_i|^2),
 *        energy    = |E - E_ref| / |E_ref|.
 * 2. Symmetries of the full potential on the backend: |sum_i F_i| / sum_i |F_i| (every
 *    triplet's and pair's forces sum to zero, periodic or not), and E, F under a random
 *    rotation R and translation t, x -> R x + t: |E' - E| / |E| and
 *    max_i |F'_i - R F_i| / max_i |F_i| (periodic: translation only, wrapped into the box).
 * 3. Trajectories: velocity Verlet on the backend (double) at dt, dt/2, dt/4 over T, against
 *    GSL rk8pd with forces from the reference (validate/gsl_ref.h), with the cutoffs removed
 *    (and a periodic system's particles taken as an open cluster) so that the forces are
 *    smooth. Errors at T are max_i |x_i - x_gsl,i| and max_i |v_i - v_gsl,i|; the observed
 *    orders log2(e(h)/e(h/2)) must lie in [1.8, 2.2]. A second GSL run at 1e-11 bounds the
 *    reference's own error, and every VV error must exceed it 100-fold, else the orders would
 *    measure GSL, not Verlet. Energy conservation of both runs, max_t |E(t) - E(0)| relative
 *    to |K| + |U_pair| + |U_triplet| at t = 0, and the order of Verlet's energy error.
 * 4. Thermostats (validate_thermo.c).
 * 5. General systems (validate_boxes.c): a two-species mixture in a triclinic cell, a
 *    two-species ppf slab and argon in units metal, through the lists and the maps, against
 *    the reference's general form (energy, force max, virial).
 *
 * Test-only fault switch: TB_VALIDATE_FAULT=flip-force,scale-energy,perturb-ref (any subset)
 * flips the sign of the largest force component the backend returns, scales its energies by
 * 1.01, or scales the GSL reference's forces by 1 + 1e-3. tests/test_validate.c uses it to
 * show that every kind of check can fail. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "validate/gsl_ref.h"
#include "validate/reference.h"
#include "solver/cli/args.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/io/init.h"
#include "solver/physics/nbr_list.h"
#include "solver/io/output.h"
#include "solver/physics/pot_params.h"
#include "solver/cli/validate_thermo.h"
#include "solver/cli/valsys.h"
#include "solver/physics/potential.h"

static const char validate_help[] =
    "usage: tribody validate CONFIG [--n N] [--time T] [--maps LIST] [--precisions LIST]\n"
    "                        [--backend cpu|gpu] [--report FILE] [--set PATH=VALUE ...]\n"
    "\n"
    "Checks the configured backend against independent references and prints one row per\n"
    "check (check, map, precision, measured, tolerance, verdict):\n"
    "  forces and energies per map and precision against the O(N^3) double reference;\n"
    "  sum of forces, rotation and translation invariance;\n"
    "  velocity Verlet at dt, dt/2, dt/4 against a GSL rk8pd trajectory (errors at T, order\n"
    "  of convergence in [1.8, 2.2]) and energy conservation of both runs;\n"
    "  thermostats; and general systems (two species in a triclinic cell and in a ppf slab,\n"
    "  argon in units metal) against the reference's general form.\n"
    "Tolerances and their reasons: docs/validate.md.\n"
    "\n"
    "options:\n"
    "  --n N              particles of every check (default: min(system.particles, 256) for\n"
    "                     forces, min(system.particles, 64) for trajectories); the initial\n"
    "                     state is regenerated at N\n"
    "  --time T           trajectory length [tau] (default 0.2), rounded to whole steps of dt\n"
    "  --maps LIST        comma-separated map names, all3d, all2d or all (default: every 3D map\n"
    "                     plus the configured solver.map2d)\n"
    "  --precisions LIST  double, mixed, single, comma-separated, or all (default: the config's)\n"
    "  --backend B        cpu or gpu, in place of solver.backend\n"
    "  --report FILE      also write the table as CSV (FILE.csv) or JSON (FILE.json)\n"
    "  --set PATH=VALUE   override a setting, checked like the file\n"
    "  -h, --help         this help\n"
    "\n"
    "Exit status: 0 every check passed, 1 a check failed (or a runtime failure), 2 bad usage,\n"
    "config or input.\n";

#include "solver/cli/validate_int.h"

const val_tol val_tols[3] = {
    /* double */ {1e-12, 1e-11, 1e-12, 1e-12, 1e-12, 1e-11},
    /* mixed  */ {1e-5, 2e-5, 1e-5, 1e-6, 1e-5, 3e-5},
    /* single */ {1e-3, 1e-3, 1e-3, 1e-4, 1e-3, 1e-3},
};


int val_add_row(val_ctx *v, const char *check, const char *map, const char *prec,
                   double measured, int cmp, double lo, double hi, int skip);

/* val_add_row for validate_thermo.c */
static int row_cb(void *ctx, const char *check, const char *map, const char *prec,
                  double measured, int cmp, double lo, double hi, int skip)
{
    return val_add_row((val_ctx *)ctx, check, map, prec, measured, cmp, lo, hi, skip);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- options ------------------------------------------------------------------------ */

static const char *opt_val(int argc, char **argv, int *i, const char *name)
{
    const size_t len = strlen(name);
    if (!strcmp(argv[*i], name))
        return *i + 1 < argc ? argv[++*i] : NULL;
    if (!strncmp(argv[*i], name, len) && argv[*i][len] == '=')
        return argv[*i] + len + 1;
    return NULL;
}

static int is_opt(const char *arg, const char *name)
{
    const size_t len = strlen(name);
    return !strncmp(arg, name, len) && (arg[len] == '\0' || arg[len] == '=');
}

static int parse_args(int argc, char **argv, val_opts *o)
{
    static const char *const names[] = {"--n", "--time", "--maps", "--precisions", "--backend",
                                        "--report", "--set"};
    memset(o, 0, sizeof *o);
    o->backend = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int which = -1;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            o->help = 1;
            continue;
        }
        for (int k = 0; k < (int)(sizeof names / sizeof *names); k++)
            if (is_opt(a, names[k]))
                which = k;
        if (which < 0) {
            if (a[0] == '-' && a[1] != '\0') {
                tb_error(NULL, 0, "validate: unknown option '%s' (see tribody validate --help)", a);
                return TB_EXIT_USAGE;
            }
            if (o->config) {
                tb_error(NULL, 0, "validate: unexpected argument '%s' (one CONFIG file only)", a);
                return TB_EXIT_USAGE;
            }
            o->config = a;
            continue;
        }
        v = opt_val(argc, argv, &i, names[which]);
        if (!v || !*v) {
            tb_error(NULL, 0, "validate: %s: missing value (see tribody validate --help)",
                     names[which]);
            return TB_EXIT_USAGE;
        }
        char *end;
        switch (which) {
        case 0: {
            const long n = strtol(v, &end, 10);
            if (*end || n < 4 || n > 1000000) {
                tb_error(NULL, 0, "validate: --n: expected an integer 4..1000000 (got \"%s\")", v);
                return TB_EXIT_USAGE;
            }
            o->n = (int)n;
            break;
        }
        case 1:
            o->time = strtod(v, &end);
            if (*end || !(o->time > 0.0) || !isfinite(o->time)) {
                tb_error(NULL, 0, "validate: --time: expected a time > 0 [tau] (got \"%s\")", v);
                return TB_EXIT_USAGE;
            }
            break;
        case 2:
            o->maps = v;
            break;
        case 3:
            o->precs = v;
            break;
        case 4:
            if (!strcmp(v, "cpu"))
                o->backend = CFG_BACKEND_CPU;
            else if (!strcmp(v, "gpu"))
                o->backend = CFG_BACKEND_GPU;
            else {
                tb_error(NULL, 0, "validate: --backend: expected cpu or gpu (got \"%s\")", v);
                return TB_EXIT_USAGE;
            }
            break;
        case 5: {
            const char *dot = strrchr(v, '.');
            if (dot && !strcasecmp(dot, ".json"))
                o->report_json = 1;
            else if (!dot || strcasecmp(dot, ".csv")) {
                tb_error(NULL, 0, "validate: --report: expected a FILE.csv or FILE.json (got \"%s\")", v);
                return TB_EXIT_USAGE;
            }
            o->report = v;
            break;
        }
        default:
            if (!strchr(v, '=')) {
                tb_error(NULL, 0, "validate: --set: expected PATH=VALUE (got \"%s\")", v);
                return TB_EXIT_USAGE;
            }
            if (o->n_set == ARGS_MAX_SET) {
                tb_error(NULL, 0, "validate: more than %d --set options", ARGS_MAX_SET);
                return TB_EXIT_USAGE;
            }
            o->sets[o->n_set++] = (char *)v;
        }
    }
    if (!o->help && !o->config) {
        tb_error(NULL, 0, "validate: missing CONFIG file (see tribody validate --help)");
        return TB_EXIT_USAGE;
    }
    return 0;
}

static void add_map3(val_ctx *v, const map3d_type *t)
{
    for (int i = 0; i < v->n3; i++)
        if (v->m3[i] == t)
            return;
    if (v->n3 < VAL_MAX_MAPS)
        v->m3[v->n3++] = t;
}

static void add_map2(val_ctx *v, const map2d_type *t)
{
    for (int i = 0; i < v->n2; i++)
        if (v->m2[i] == t)
            return;
    if (v->n2 < VAL_MAX_MAPS)
        v->m2[v->n2++] = t;
}

/* --maps, after the configuration is read (the default depends on it). */
static int parse_maps(val_ctx *v)
{
    char buf[1024], n3[256], n2[256];
    const sim_config *c = &v->cfg;
    if (!v->o.maps) {
        if (c->potential.atm.nu != 0.0 || !c->potential.lj.enabled)
            for (int i = 0; map3d_all[i]; i++)
                add_map3(v, map3d_all[i]);
        if (c->potential.lj.enabled)
            add_map2(v, map2d_find(c->solver.map2d));
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", v->o.maps);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        const int all = !strcmp(tok, "all");
        if (all || !strcmp(tok, "all3d"))
            for (int i = 0; map3d_all[i]; i++)
                add_map3(v, map3d_all[i]);
        if (all || !strcmp(tok, "all2d"))
            for (int i = 0; map2d_all[i]; i++)
                add_map2(v, map2d_all[i]);
        if (all || !strcmp(tok, "all3d") || !strcmp(tok, "all2d"))
            continue;
        if (map3d_find(tok)) {
            add_map3(v, map3d_find(tok));
        } else if (map2d_find(tok)) {
            add_map2(v, map2d_find(tok));
        } else {
            map3d_names(n3, sizeof n3);
            map2d_names(n2, sizeof n2);
            tb_error(NULL, 0, "validate: --maps: unknown map \"%s\" (expected one of: %s, %s, "
                              "all3d, all2d or all)", tok, n3, n2);
            return TB_EXIT_USAGE;
        }
    }
    return 0;
}

static int parse_precisions(val_ctx *v)
{
    char buf[256];
    v->n_prec = 0;
    if (!v->o.precs) {
        v->prec[v->n_prec++] = v->cfg.solver.precision;
        return 0;
    }
    snprintf(buf, sizeof buf, "%s", !strcmp(v->o.precs, "all") ? "double,mixed,single" : v->o.precs);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        int p = -1, dup = 0;
        for (int i = 0; i < 3; i++)
            if (!strcmp(tok, cfg_precision_name(i)))
                p = i;
        if (p < 0) {
            tb_error(NULL, 0, "validate: --precisions: expected double, mixed, single or all "
                              "(got \"%s\")", tok);
            return TB_EXIT_USAGE;
        }
        for (int i = 0; i < v->n_prec; i++)
            dup |= v->prec[i] == p;
        if (!dup)
            v->prec[v->n_prec++] = p;
    }
    return 0;
}

/* TB_VALIDATE_FAULT: test-only faults (see the file header). */
static int parse_faults(val_ctx *v)
{
    char buf[256];
    const char *env = getenv("TB_VALIDATE_FAULT");
    if (!env || !*env)
        return 0;
    snprintf(buf, sizeof buf, "%s", env);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (!strcmp(tok, "flip-force"))
            v->fault_flip = 1;
        else if (!strcmp(tok, "scale-energy"))
            v->fault_energy = 1;
        else if (!strcmp(tok, "perturb-ref"))
            v->fault_ref = 1;
        else {
            tb_error(NULL, 0, "validate: TB_VALIDATE_FAULT: unknown fault \"%s\" (expected "
                              "flip-force, scale-energy or perturb-ref)", tok);
            return TB_EXIT_USAGE;
        }
    }
    tb_notice("validate: TB_VALIDATE_FAULT=%s: faults injected on purpose (test only)", env);
    return 0;
}

/* ---- rows --------------------------------------------------------------------------- */

static void tol_text(const val_row *r, char *buf, size_t len)
{
    if (r->cmp == CMP_LE)
        snprintf(buf, len, "%.3g", r->hi);
    else if (r->cmp == CMP_GE)
        snprintf(buf, len, ">= %.3g", r->lo);
    else
        snprintf(buf, len, "[%.3g, %.3g]", r->lo, r->hi);
}

static const char *verdict_name(int v)
{
    return v == V_PASS ? "PASS" : v == V_FAIL ? "FAIL" : "SKIP";
}

/* Records and prints one check. skip: the check does not apply (its verdict is SKIP and it
 * does not count); NaN never passes. Returns 0 or -1 (out of memory). */
int val_add_row(val_ctx *v, const char *check, const char *map, const char *prec,
                   double measured, int cmp, double lo, double hi, int skip)
{
    char tol[48];
    if (v->n_rows == v->cap_rows) {
        const int cap = v->cap_rows ? 2 * v->cap_rows : 64;
        val_row *r = realloc(v->rows, (size_t)cap * sizeof *r);
        if (!r)
            return tb_error(NULL, 0, "out of host memory");
        v->rows = r;
        v->cap_rows = cap;
    }
    val_row *r = &v->rows[v->n_rows++];
    memset(r, 0, sizeof *r);
    snprintf(r->check, sizeof r->check, "%s", check);
    snprintf(r->map, sizeof r->map, "%s", map);
    snprintf(r->prec, sizeof r->prec, "%s", prec);
    r->measured = measured;
    r->cmp = cmp;
    r->lo = lo;
    r->hi = hi;
    const int ok = (cmp == CMP_GE || measured <= hi) && (cmp == CMP_LE || measured >= lo);
    r->verdict = skip ? V_SKIP : ok ? V_PASS : V_FAIL;
    tol_text(r, tol, sizeof tol);
    printf(cmp == CMP_IN ? "%-26s %-16s %-9s %-11.3f %-12s %s\n"
                         : "%-26s %-16s %-9s %-11.3g %-12s %s\n",
           r->check, r->map, r->prec, r->measured, tol, verdict_name(r->verdict));
    fflush(stdout);
    return 0;
}

/* ---- report and command ------------------------------------------------------------------ */

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.9g", x);
    else
        fputs("null", f);
}

/* What the checks ran on, in words. */
static const char *device_text(const val_ctx *v)
{
    static char buf[256];
    if (v->ops == &cpu_backend_ops)
        snprintf(buf, sizeof buf, "CPU, %d OpenMP threads (build: %s)", omp_get_max_threads(),
                 gpu_build_info());
    else
        snprintf(buf, sizeof buf, "GPU (build: %s)", gpu_build_info());
    return buf;
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static int write_report(const val_ctx *v, FILE *f, int n_force, int n_traj, double T, double dt,
                        int failed, int skipped)
{
    char tol[48];
    if (!v->o.report_json) {
        fputs("check,map,precision,measured,tolerance,verdict\n", f);
        for (int i = 0; i < v->n_rows; i++) {
            const val_row *r = &v->rows[i];
            tol_text(r, tol, sizeof tol);
            fprintf(f, "%s,%s,%s,%.9g,\"%s\",%s\n", r->check, r->map, r->prec, r->measured, tol,
                    verdict_name(r->verdict));
        }
        return 0;
    }
    fputs("{\n  \"config\": ", f);
    json_str(f, v->cfg.path);
    fprintf(f, ",\n  \"backend\": \"%s\",\n  \"device\": ", v->ops->name);
    json_str(f, device_text(v));
    fputs(",\n", f);
    fprintf(f, "  \"n_force\": %d,\n  \"n_trajectory\": %d,\n  \"time\": ", n_force, n_traj);
    json_num(f, T);
    fputs(",\n  \"dt\": ", f);
    json_num(f, dt);
    fprintf(f, ",\n  \"checks_total\": %d,\n  \"failed\": %d,\n  \"skipped\": %d,\n"
               "  \"verdict\": \"%s\",\n  \"checks\": [\n",
            v->n_rows, failed, skipped, failed ? "FAIL" : "PASS");
    for (int i = 0; i < v->n_rows; i++) {
        const val_row *r = &v->rows[i];
        tol_text(r, tol, sizeof tol);
        fprintf(f, "    {\"check\": \"%s\", \"map\": \"%s\", \"precision\": \"%s\", \"measured\": ",
                r->check, r->map, r->prec);
        json_num(f, r->measured);
        fprintf(f, ", \"tolerance\": \"%s\", \"verdict\": \"%s\"}%s\n", tol,
                verdict_name(r->verdict), i + 1 < v->n_rows ? "," : "");
    }
    fputs("  ]\n}\n", f);
    return 0;
}

int cmd_validate(int argc, char **argv)
{
    static val_ctx ctx;
    val_ctx *v = &ctx;
    sim_state sf, st;
    FILE *rep = NULL;
    char names[512];
    int rc;
    const double t0 = now_s();

    memset(v, 0, sizeof *v);
    memset(&sf, 0, sizeof sf);
    memset(&st, 0, sizeof st);
    if ((rc = parse_args(argc, argv, &v->o)) != 0)
        return rc;
    if (v->o.help) {
        fputs(validate_help, stdout);
        return 0;
    }
    if ((rc = parse_faults(v)) != 0)
        return rc;
    if ((rc = cfg_load(&v->cfg, v->o.config, v->o.n_set, v->o.sets)) != 0)
        return rc;
    if (v->o.backend >= 0)
        v->cfg.solver.backend = v->o.backend;
    if ((rc = parse_maps(v)) != 0 || (rc = parse_precisions(v)) != 0)
        return rc;
    if ((rc = backend_select(&v->cfg, &v->ops)) != 0)
        return rc;

    if (v->cfg.system.particles == 0) { /* a data file or XYZ frame gives the count */
        if ((rc = sim_init(&sf, &v->cfg)) != 0)
            return rc;
        v->cfg.system.particles = sf.n;
        sim_state_free(&sf);
    }
    const int n_cfg = v->cfg.system.particles;
    const int n_force = v->o.n ? v->o.n : (n_cfg < VAL_FORCE_N ? n_cfg : VAL_FORCE_N);
    const int n_traj = v->o.n ? v->o.n : (n_cfg < VAL_TRAJ_N ? n_cfg : VAL_TRAJ_N);
    const double dt = v->cfg.integrator.dt;
    long nsteps = lround((v->o.time > 0 ? v->o.time : VAL_TIME) / dt);
    if (nsteps < 1)
        nsteps = 1;
    if ((rc = val_make_state(&v->cfg, n_force, &sf)) != 0 ||
        (rc = val_make_state(&v->cfg, n_traj, &st)) != 0)
        goto done;
    v->box = sf.box; /* the state's box, not the config's: a file may have given it */
    st.box = box_cube_d(0.0); /* the trajectory runs with open boundaries (val_cfg_traj) */
    if (v->o.report && !(rep = out_create(v->o.report))) {
        rc = 1;
        goto done;
    }

    /* The header: what is checked, where. */
    printf("tribody validate: %s on backend %s: %s\n", v->cfg.path, v->ops->name, device_text(v));
    printf("  system: %s boundary, LJ %s, ATM %s,%s tile %d, map %s / %s\n",
           cfg_boundary_name(v->cfg.system.boundary), v->cfg.potential.lj.enabled ? "on" : "off",
           v->cfg.potential.atm.nu != 0.0 ? "on" : "off",
           pot_sw_on(&v->cfg) ? " Stillinger-Weber on (the lists only)," : "", v->cfg.solver.tile,
           v->cfg.solver.map, v->cfg.solver.map2d);
    names[0] = '\0';
    for (int i = 0; i < v->n3; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), " %s", v->m3[i]->name);
    for (int i = 0; i < v->n2; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), " %s", v->m2[i]->name);
    printf("  forces: n = %d; maps%s; precisions", n_force, names);
    for (int i = 0; i < v->n_prec; i++)
        printf(" %s", cfg_precision_name(v->prec[i]));
    printf("\n  trajectory: n = %d, T = %.6g tau = %ld steps of dt = %.6g tau (and dt/2, dt/4), "
           "velocity Verlet vs GSL rk8pd (epsabs = epsrel = 1e-13)%s\n\n",
           n_traj, (double)nsteps * dt, nsteps, dt,
           v->cfg.system.boundary == CFG_BOUNDARY_OPEN
               ? "; cutoffs removed (smooth forces)"
               : "; box and cutoffs removed: the particles as an open cluster (smooth forces)");
    printf("%-26s %-16s %-9s %-11s %-12s %s\n", "check", "map", "precision", "measured",
           "tolerance", "verdict");

    if ((rc = val_force_checks(v, &sf)) != 0 || (rc = val_traj_checks(v, &st, nsteps)) != 0) {
        rc = rc == TB_EXIT_USAGE ? rc : 1;
        goto done;
    }
    if (pot_sw_on(&v->cfg)) /* the later sections' systems are sized for LJ and ATM */
        printf("  (thermostat and general-box sections skipped with potential.sw: their systems "
               "(argon-like, boxes below twice its cutoff) are not those of its file; "
               "tests/test_sw.c checks SW in tilted boxes)\n");
    else {
        const sim_config ct = val_cfg_traj(&v->cfg);
        if ((rc = val_thermostat_checks(v->ops, &ct, &st, row_cb, v)) != 0) {
            rc = rc == TB_EXIT_USAGE ? rc : 1;
            goto done;
        }
    }
    if (!pot_sw_on(&v->cfg) && (rc = val_general_checks(v)) != 0) {
        rc = 1;
        goto done;
    }
    int failed = 0, skipped = 0;
    for (int i = 0; i < v->n_rows; i++) {
        failed += v->rows[i].verdict == V_FAIL;
        skipped += v->rows[i].verdict == V_SKIP;
    }
    if (rep) {
        write_report(v, rep, n_force, n_traj, (double)nsteps * dt, dt, failed, skipped);
        const int bad = out_close(rep, v->o.report);
        rep = NULL;
        if (bad) {
            rc = 1;
            goto done;
        }
    }
    printf("\ntribody validate: %d checks: %d passed, %d failed, %d skipped in %.1f s: %s\n",
           v->n_rows, v->n_rows - failed - skipped, failed, skipped, now_s() - t0,
           failed ? "FAIL" : "PASS");
    if (v->o.report)
        printf("wrote %s\n", v->o.report);
    rc = failed ? 1 : 0;
done:
    if (rep)
        out_close(rep, v->o.report);
    sim_state_free(&sf);
    sim_state_free(&st);
    free(v->rows);
    return rc < 0 ? 1 : rc;
}
