/* cmd_validate.c — `tribody validate`: the configured backend against independent references,
 * one verdict per check (docs/validate.md has the method, the tolerances and their reasons).
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

#include "../config/config.h"
#include "../maps3d/map2d.h"
#include "../maps3d/map3d.h"
#include "../validate/gsl_ref.h"
#include "../validate/reference.h"
#include "args.h"
#include "backend.h"
#include "check.h"
#include "cli.h"
#include "gpu.h"
#include "init.h"
#include "nbr_list.h"
#include "output.h"
#include "pot_params.h"
#include "validate_thermo.h"
#include "valsys.h"

static const char validate_help[] =
    "usage: tribody validate CONFIG [--n N] [--time T] [--maps LIST] [--precisions LIST]\n"
    "                        [--backend cpu|gpu] [--report FILE] [--set PATH=VALUE ...]\n"
    "\n"
    "Checks the configured backend against independent references and prints one row per\n"
    "check (check, map, precision, measured, tolerance, verdict):\n"
    "  forces and energies per map and precision against the O(N^3) double reference;\n"
    "  sum of forces, rotation and translation invariance;\n"
    "  velocity Verlet at dt, dt/2, dt/4 against a GSL rk8pd trajectory (errors at T, order\n"
    "  of convergence in [1.8, 2.2]) and energy conservation of both runs.\n"
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

#define VAL_MAX_MAPS 32
#define VAL_FORCE_N 256    /* default particles of the force checks */
#define VAL_TRAJ_N 64      /* default particles of the trajectory checks */
#define VAL_TIME 0.2       /* default trajectory length [tau] */
#define VAL_FLOOR 100.0    /* VV errors must exceed the GSL error bound this many times */
#define VAL_LJ_NOCUT 1.0e4 /* "no cutoff" for the smooth trajectory potential [sigma] */

/* Tolerances per precision (docs/validate.md gives the measurements behind them). */
typedef struct val_tol {
    double energy; /* |E - E_ref| / |E_ref| */
    double fmax;   /* max_i |dF_i| / max_i |F_ref,i| */
    double frms;   /* sqrt(sum |dF|^2 / sum |F_ref|^2) */
    double fsum;   /* |sum F| / sum |F| */
    double rot_e;  /* |E(Rx+t) - E(x)| / |E(x)| */
    double rot_f;  /* max_i |F_i(Rx+t) - R F_i(x)| / max_i |F_i(x)| */
} val_tol;

static const val_tol val_tols[3] = {
    /* double */ {1e-12, 1e-11, 1e-12, 1e-12, 1e-12, 1e-11},
    /* mixed  */ {1e-5, 2e-5, 1e-5, 1e-6, 1e-5, 3e-5},
    /* single */ {1e-3, 1e-3, 1e-3, 1e-4, 1e-3, 1e-3},
};
/* Float tolerances hold for coordinates within VAL_FLOAT_X of the origin: rounding positions
 * to float moves them by up to 2^-24 |x|, so beyond it they grow in proportion to |x|max. */
#define VAL_FLOAT_X 8.0

#define VAL_ORDER_LO 1.8
#define VAL_ORDER_HI 2.2
#define VAL_GSL_ERR 1e-8    /* bound on the GSL reference's own error [sigma, sigma/tau] */
#define VAL_GSL_DRIFT 1e-10 /* GSL run's energy drift */
#define VAL_VV_DRIFT 1e-4   /* velocity Verlet's energy drift at dt */

enum { CMP_LE = VAL_CMP_LE, CMP_GE = VAL_CMP_GE, CMP_IN = VAL_CMP_IN };
enum { V_PASS, V_FAIL, V_SKIP };

typedef struct val_row {
    char check[32];
    char map[32];
    char prec[8];
    double measured;
    int cmp;
    double lo, hi; /* CMP_LE: measured <= hi; CMP_GE: measured >= lo; CMP_IN: both */
    int verdict;
} val_row;

typedef struct val_opts {
    const char *config;
    int n;             /* --n; 0 = defaults */
    double time;       /* --time; 0 = default */
    const char *maps;  /* --maps; NULL = default */
    const char *precs; /* --precisions; NULL = the config's */
    int backend;       /* enum cfg_backend; -1 = the config's */
    const char *report;
    int report_json;
    int n_set;
    char *sets[ARGS_MAX_SET];
    int help;
} val_opts;

typedef struct val_ctx {
    val_opts o;
    sim_config cfg;
    const backend_ops *ops;
    const map3d_type *m3[VAL_MAX_MAPS];
    const map2d_type *m2[VAL_MAX_MAPS];
    int n3, n2;
    int prec[3], n_prec;
    int fault_flip, fault_energy, fault_ref;
    val_row *rows;
    int n_rows, cap_rows;
} val_ctx;

static int add_row(val_ctx *v, const char *check, const char *map, const char *prec,
                   double measured, int cmp, double lo, double hi, int skip);

/* add_row for validate_thermo.c */
static int row_cb(void *ctx, const char *check, const char *map, const char *prec,
                  double measured, int cmp, double lo, double hi, int skip)
{
    return add_row((val_ctx *)ctx, check, map, prec, measured, cmp, lo, hi, skip);
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
static int add_row(val_ctx *v, const char *check, const char *map, const char *prec,
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

/* ---- states, references and backend evaluations --------------------------------------- */

/* The initial state of c at n particles: regenerated by sim_init at n (a random cluster of
 * given radius at the same density), except for an XYZ file, whose first n particles are
 * kept. Returns 0, TB_EXIT_USAGE or -1. */
static int make_state(const sim_config *c, int n, sim_state *s)
{
    sim_config t = *c;
    sim_state full;
    int rc;
    memset(s, 0, sizeof *s);
    if (n == c->system.particles || c->system.init.type != CFG_INIT_XYZ) {
        /* A random cluster of a given radius keeps its density: R n^(-1/3) fixed. */
        if (c->system.init.type == CFG_INIT_RANDOM && c->system.boundary == CFG_BOUNDARY_OPEN &&
            c->system.init.radius > 0.0)
            t.system.init.radius *= cbrt((double)n / (double)c->system.particles);
        t.system.particles = n;
        return sim_init(s, &t);
    }
    if (n > c->system.particles) {
        tb_error(NULL, 0, "validate: --n %d exceeds the %d particles of system.init.file %s", n,
                 c->system.particles, c->system.init.file);
        return TB_EXIT_USAGE;
    }
    if ((rc = sim_init(&full, c)) != 0)
        return rc;
    if (sim_state_alloc(s, n) != 0) {
        sim_state_free(&full);
        return -1;
    }
    memcpy(s->pos, full.pos, 3 * (size_t)n * sizeof *s->pos);
    memcpy(s->vel, full.vel, 3 * (size_t)n * sizeof *s->vel);
    memcpy(s->species, full.species, (size_t)n * sizeof *s->species);
    s->mass = full.mass;
    s->box = full.box;
    sim_state_free(&full);
    return 0;
}

/* A zeroed state of s's size, for what a backend returns. */
static int make_like(const sim_state *s, sim_state *out)
{
    memset(out, 0, sizeof *out);
    if (sim_state_alloc(out, s->n) != 0)
        return -1;
    out->mass = s->mass;
    out->box = s->box;
    return 0;
}

/* The triplet term alone (for the 3D maps): LJ off; an ATM term the configuration turns off
 * is checked with argon's nu = 0.0703 (the default). */
static sim_config cfg_triplet(const sim_config *c)
{
    sim_config t = *c;
    t.potential.lj.enabled = 0;
    if (t.potential.atm.nu == 0.0)
        t.potential.atm.nu = 0.0703;
    return t;
}

/* The pair term alone (for the 2D maps): ATM off, LJ on (its settings or their defaults;
 * periodic: cutoff at most L/2). */
static sim_config cfg_pair(const sim_config *c)
{
    sim_config t = *c;
    t.potential.atm.nu = 0.0;
    t.potential.lj.enabled = 1;
    if (t.system.boundary == CFG_BOUNDARY_PERIODIC && t.potential.lj.cutoff > 0.5 * t.system.box)
        t.potential.lj.cutoff = 0.5 * t.system.box;
    return t;
}

/* The test-only faults, on what the backend returned. */
static void apply_faults(const val_ctx *v, sim_state *s)
{
    if (v->fault_flip) {
        int m = 0;
        for (int i = 1; i < 3 * s->n; i++)
            if (fabs(s->force[i]) > fabs(s->force[m]))
                m = i;
        s->force[m] = -s->force[m];
    }
    if (v->fault_energy) {
        s->e_pair *= 1.01;
        s->e_triplet *= 1.01;
    }
}

/* Forces and energies of state s0 under c on the backend under test, into out. */
static int backend_eval(const val_ctx *v, const sim_config *c, const sim_state *s0, sim_state *out)
{
    backend *b = NULL;
    int rc = v->ops->create(&b, c, s0);
    if (rc == 0 && (v->ops->compute(b) != 0 || v->ops->fetch(b, out) != 0))
        rc = -1;
    if (b)
        v->ops->destroy(b);
    if (rc == 0)
        apply_faults(v, out);
    return rc;
}

static double norm3(const double *a)
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* max_i |F_i - R_i| / max_i |R_i| and sqrt(sum |F_i - R_i|^2 / sum |R_i|^2). */
static void force_errors(const double *f, const double *ref, int n, double *emax, double *erms)
{
    double dmax = 0.0, rmax = 0.0, d2 = 0.0, r2 = 0.0;
    for (int i = 0; i < n; i++) {
        const double d[3] = {f[3 * i] - ref[3 * i], f[3 * i + 1] - ref[3 * i + 1],
                             f[3 * i + 2] - ref[3 * i + 2]};
        const double dn = norm3(d), rn = norm3(ref + 3 * i);
        if (!(dn <= dmax)) /* NaN propagates */
            dmax = dn;
        if (rn > rmax)
            rmax = rn;
        d2 += dn * dn;
        r2 += rn * rn;
    }
    *emax = rmax > 0.0 ? dmax / rmax : (dmax == 0.0 ? 0.0 : HUGE_VAL);
    *erms = r2 > 0.0 ? sqrt(d2 / r2) : (d2 == 0.0 ? 0.0 : HUGE_VAL);
}

static double rel_err(double x, double ref)
{
    return ref != 0.0 ? fabs(x - ref) / fabs(ref) : (x == 0.0 ? 0.0 : HUGE_VAL);
}

/* ---- 1 and 2: forces, energies, symmetries ---------------------------------------------- */

/* Energy, force max and force rms rows of one backend result against a reference. */
static int term_rows(val_ctx *v, const char *term, const char *map, int prec, const val_tol *t,
                     const sim_state *got, const double *ref_f, double ref_e)
{
    const char *pn = cfg_precision_name(prec);
    char name[3][32];
    double emax, erms;
    force_errors(got->force, ref_f, got->n, &emax, &erms);
    snprintf(name[0], sizeof name[0], "%senergy rel err", term);
    snprintf(name[1], sizeof name[1], "%sforce max rel err", term);
    snprintf(name[2], sizeof name[2], "%sforce rms rel err", term);
    if (add_row(v, name[0], map, pn, rel_err(got->e_pair + got->e_triplet, ref_e), CMP_LE, 0,
                t->energy, 0) != 0 ||
        add_row(v, name[1], map, pn, emax, CMP_LE, 0, t->fmax, 0) != 0 ||
        add_row(v, name[2], map, pn, erms, CMP_LE, 0, t->frms, 0) != 0)
        return -1;
    return 0;
}

/* A uniformly random rotation (unit quaternion from four normals, fixed seed) and a
 * translation with components in [-2.385, 2.385) sigma; periodic: identity and [0, L). */
static void random_motion(const sim_state *s, double R[3][3], double t[3])
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    double q[4], qn = 0.0;
    gsl_rng_set(r, 20240917UL);
    for (int i = 0; i < 4; i++) {
        q[i] = gsl_ran_gaussian(r, 1.0);
        qn += q[i] * q[i];
    }
    qn = sqrt(qn);
    const double w = q[0] / qn, x = q[1] / qn, y = q[2] / qn, z = q[3] / qn;
    const double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++)
            R[a][b] = s->box > 0.0 ? (a == b) : M[a][b];
        t[a] = s->box > 0.0 ? s->box * gsl_rng_uniform(r) : 2.385 * (2.0 * gsl_rng_uniform(r) - 1.0);
    }
    gsl_rng_free(r);
}

static void rotate(const double R[3][3], const double *x, double *y)
{
    for (int a = 0; a < 3; a++)
        y[a] = R[a][0] * x[0] + R[a][1] * x[1] + R[a][2] * x[2];
}

/* Sum of forces and rotation + translation invariance of the full potential at precision
 * prec; got is the backend's result at s. */
static int symmetry_rows(val_ctx *v, const sim_config *c, const char *map, int prec,
                         const val_tol *t, const sim_state *s, const sim_state *got)
{
    const char *pn = cfg_precision_name(prec);
    const int periodic = s->box > 0.0;
    double sum[3] = {0, 0, 0}, abs_sum = 0.0, R[3][3], tr[3], fmax = 0.0, dmax = 0.0;
    sim_state moved, got2;
    int rc;
    for (int i = 0; i < s->n; i++) {
        for (int a = 0; a < 3; a++)
            sum[a] += got->force[3 * i + a];
        abs_sum += norm3(got->force + 3 * i);
    }
    if (add_row(v, "force sum |sum F|/sum|F|", map, pn,
                abs_sum > 0 ? norm3(sum) / abs_sum : norm3(sum), CMP_LE, 0, t->fsum, 0) != 0)
        return -1;

    if (make_like(s, &moved) != 0 || make_like(s, &got2) != 0) {
        sim_state_free(&moved);
        return -1;
    }
    random_motion(s, R, tr);
    for (int i = 0; i < s->n; i++) {
        rotate(R, s->pos + 3 * i, moved.pos + 3 * i);
        rotate(R, s->vel + 3 * i, moved.vel + 3 * i);
        for (int a = 0; a < 3; a++) {
            double x = moved.pos[3 * i + a] + tr[a];
            if (periodic)
                x -= s->box * floor(x / s->box);
            moved.pos[3 * i + a] = x;
        }
    }
    rc = backend_eval(v, c, &moved, &got2);
    if (rc == 0) {
        for (int i = 0; i < s->n; i++) {
            double rf[3], d[3];
            rotate(R, got->force + 3 * i, rf);
            for (int a = 0; a < 3; a++)
                d[a] = got2.force[3 * i + a] - rf[a];
            const double dn = norm3(d), fn = norm3(got->force + 3 * i);
            if (!(dn <= dmax))
                dmax = dn;
            if (fn > fmax)
                fmax = fn;
        }
        rc = add_row(v, periodic ? "translation: energy" : "rotation+translation: E", map, pn,
                     rel_err(got2.e_pair + got2.e_triplet, got->e_pair + got->e_triplet), CMP_LE,
                     0, t->rot_e, 0);
        if (rc == 0)
            rc = add_row(v, periodic ? "translation: forces" : "rotation+translation: F", map, pn,
                         fmax > 0 ? dmax / fmax : dmax, CMP_LE, 0, t->rot_f, 0);
    }
    sim_state_free(&moved);
    sim_state_free(&got2);
    return rc;
}

/* The label of the full potential's maps: "lambda+lambda2d", or one of them. */
/* 1 when c takes the neighbour-list path (solver.cull and every term with a cutoff). */
static int uses_lists(const sim_config *c)
{
    pot_params pp;
    pot_params_init(&pp, c);
    return nbr_wanted(c, &pp);
}

/* The per-map rows check the maps, so they run with solver.cull = false; the GPU's
 * all-triplets path takes periodic ATM cutoffs up to L/4 only. */
static sim_config maps_only(sim_config c)
{
    c.solver.cull = 0;
    return c;
}

static int maps_can_run(const val_ctx *v, const sim_config *c)
{
    return !(v->ops == &gpu_backend_ops && c->system.boundary == CFG_BOUNDARY_PERIODIC &&
             c->potential.atm.nu != 0.0 && c->potential.atm.cutoff > 0.25 * c->system.box);
}

static void full_label(const sim_config *c, char *buf, size_t len)
{
    if (uses_lists(c))
        snprintf(buf, len, "lists");
    else if (c->potential.atm.nu != 0.0 && c->potential.lj.enabled)
        snprintf(buf, len, "%s+%s", c->solver.map, c->solver.map2d);
    else
        snprintf(buf, len, "%s", c->potential.lj.enabled ? c->solver.map2d : c->solver.map);
}

/* Virial rows of the full potential at precision p: the tensor against the reference's
 * (max component error over the largest component, tolerance that of the forces) and, in
 * double, the trace against -dE/ds under x -> s x, L -> s L (central difference, h = 1e-6:
 * truncation and rounding ~1e-10 relative; tolerance 1e-7). */
static int virial_rows(val_ctx *v, const sim_config *c, const char *map, int prec,
                       const val_tol *t, const sim_state *s, const sim_state *got,
                       const double *wref)
{
    const char *pn = cfg_precision_name(prec);
    double num = 0.0, den = 0.0;
    for (int k = 0; k < 6; k++) {
        if (!(fabs(got->virial[k] - wref[k]) <= num))
            num = fabs(got->virial[k] - wref[k]);
        den = fmax(den, fabs(wref[k]));
    }
    if (add_row(v, "virial rel err", map, pn, den > 0 ? num / den : num, CMP_LE, 0, t->fmax, 0))
        return -1;
    if (prec != CFG_PREC_DOUBLE)
        return 0;
    const double h = 1e-6;
    double e[2] = {0, 0};
    sim_state sc, out;
    if (make_like(s, &sc) != 0 || make_like(s, &out) != 0) {
        sim_state_free(&sc);
        return tb_error(NULL, 0, "validate: out of host memory");
    }
    for (int k = 0; k < 2; k++) {
        const double f = 1.0 + (k ? h : -h);
        sim_config cs = *c;
        for (int i = 0; i < 3 * s->n; i++)
            sc.pos[i] = s->pos[i] * f;
        memcpy(sc.vel, s->vel, 3 * (size_t)s->n * sizeof *sc.vel);
        sc.box = s->box * f;
        cs.system.box = c->system.box * f;
        if (backend_eval(v, &cs, &sc, &out) != 0) {
            sim_state_free(&sc);
            sim_state_free(&out);
            return -1;
        }
        e[k] = out.e_pair + out.e_triplet;
    }
    sim_state_free(&sc);
    sim_state_free(&out);
    const double fd = -(e[1] - e[0]) / (2 * h);
    const double tr = got->virial[0] + got->virial[1] + got->virial[2];
    return add_row(v, "virial vs -dE/ds (FD)", map, pn, rel_err(tr, fd), CMP_LE, 0, 1e-7, 0);
}

static int force_checks(val_ctx *v, const sim_state *s)
{
    const size_t n3 = 3 * (size_t)s->n;
    const sim_config c3 = maps_only(cfg_triplet(&v->cfg)), c2 = maps_only(cfg_pair(&v->cfg));
    const int lists = uses_lists(&v->cfg), maps3 = maps_can_run(v, &c3);
    double *ref3 = calloc(n3, sizeof *ref3), *ref2 = calloc(n3, sizeof *ref2);
    double *reff = calloc(n3, sizeof *reff);
    double e3p = 0, e3t = 0, e2p = 0, e2t = 0, efp = 0, eft = 0, wref[6];
    char label[2 * CFG_NAME_MAX + 2];
    val_system vs;
    sim_state got;
    int rc = -1;

    memset(&got, 0, sizeof got);
    if (!ref3 || !ref2 || !reff || make_like(s, &got) != 0) {
        tb_error(NULL, 0, "validate: out of host memory for n = %d", s->n);
        goto done;
    }
    val_system_of(&c3, s, s->pos, &vs);
    if ((v->n3 || lists) && val_reference(&vs, ref3, &e3p, &e3t) != 0)
        goto done;
    val_system_of(&c2, s, s->pos, &vs);
    if ((v->n2 || lists) && val_reference(&vs, ref2, &e2p, &e2t) != 0)
        goto done;
    val_system_of(&v->cfg, s, s->pos, &vs);
    if (val_reference_virial(&vs, reff, &efp, &eft, wref) != 0)
        goto done;
    full_label(&v->cfg, label, sizeof label);
    double xmax = s->box;
    for (size_t i = 0; i < n3; i++)
        if (fabs(s->pos[i]) > xmax)
            xmax = fabs(s->pos[i]);
    const double xscale = xmax > VAL_FLOAT_X ? xmax / VAL_FLOAT_X : 1.0;
    if (xscale > 1.0)
        printf("  (coordinates reach %.3g sigma: float tolerances x %.3g, see docs/validate.md)\n",
               xmax, xscale);

    for (int ip = 0; ip < v->n_prec; ip++) {
        const int p = v->prec[ip];
        val_tol tol = val_tols[p];
        sim_config c;
        if (p != CFG_PREC_DOUBLE && xscale > 1.0) {
            tol.energy *= xscale;
            tol.fmax *= xscale;
            tol.frms *= xscale;
            tol.fsum *= xscale;
            tol.rot_e *= xscale;
            tol.rot_f *= xscale;
        }
        if (lists) { /* each term alone through the neighbour lists, then the maps */
            c = c3;
            c.solver.cull = 1;
            c.solver.precision = p;
            if (uses_lists(&c) && ((rc = backend_eval(v, &c, s, &got)) != 0 ||
                                   (rc = term_rows(v, "triplet ", "lists", p, &tol, &got, ref3,
                                                   e3p + e3t)) != 0))
                goto done;
            c = c2;
            c.solver.cull = 1;
            c.solver.precision = p;
            if ((rc = backend_eval(v, &c, s, &got)) != 0 ||
                (rc = term_rows(v, "pair ", "lists", p, &tol, &got, ref2, e2p + e2t)) != 0)
                goto done;
        }
        if (!maps3 && v->n3 && ip == 0)
            printf("  (3D maps skipped: the GPU's all-triplets path takes periodic ATM cutoffs "
                   "up to L/4 = %g only; the lists cover this system)\n", 0.25 * v->cfg.system.box);
        for (int m = 0; m < v->n3 && maps3; m++) {
            c = c3;
            c.solver.precision = p;
            snprintf(c.solver.map, sizeof c.solver.map, "%s", v->m3[m]->name);
            if ((rc = backend_eval(v, &c, s, &got)) != 0 ||
                (rc = term_rows(v, "triplet ", v->m3[m]->name, p, &tol, &got, ref3, e3p + e3t)) != 0)
                goto done;
        }
        for (int m = 0; m < v->n2; m++) {
            c = c2;
            c.solver.precision = p;
            snprintf(c.solver.map2d, sizeof c.solver.map2d, "%s", v->m2[m]->name);
            if ((rc = backend_eval(v, &c, s, &got)) != 0 ||
                (rc = term_rows(v, "pair ", v->m2[m]->name, p, &tol, &got, ref2, e2p + e2t)) != 0)
                goto done;
        }
        c = v->cfg;
        c.solver.precision = p;
        if ((rc = backend_eval(v, &c, s, &got)) != 0 ||
            (rc = term_rows(v, "", label, p, &tol, &got, reff, efp + eft)) != 0 ||
            (rc = virial_rows(v, &c, label, p, &tol, s, &got, wref)) != 0 ||
            (rc = symmetry_rows(v, &c, label, p, &tol, s, &got)) != 0)
            goto done;
    }
    rc = 0;
done:
    free(ref3);
    free(ref2);
    free(reff);
    sim_state_free(&got);
    return rc;
}

/* ---- 3: trajectories ------------------------------------------------------------------- */

/* max_i |a_i - b_i| over particles, through the minimum image when box > 0. */
static double max_dist(const double *a, const double *b, int n, double box)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) {
        double d[3];
        for (int x = 0; x < 3; x++) {
            d[x] = a[3 * i + x] - b[3 * i + x];
            if (box > 0.0)
                d[x] -= box * rint(d[x] / box);
        }
        const double dn = norm3(d);
        if (!(dn <= m))
            m = dn;
    }
    return m;
}

/* nsteps of velocity Verlet from s0 under c on the backend; the final state into out and the
 * largest |E(t) - E0| / (|K| + |U_pair| + |U_triplet|)(0) over 20 samples into *drift. */
static int vv_run(const val_ctx *v, const sim_config *c, const sim_state *s0, long nsteps,
                  sim_state *out, double *drift)
{
    backend *b = NULL;
    double e0, scale, dev = 0.0;
    const long chunks = nsteps < 20 ? nsteps : 20;
    long done = 0;
    int rc = v->ops->create(&b, c, s0);
    if (rc == 0 && (v->ops->compute(b) != 0 || v->ops->fetch(b, out) != 0))
        rc = -1;
    if (rc == 0) {
        e0 = sim_kinetic(out) + out->e_pair + out->e_triplet;
        scale = sim_kinetic(out) + fabs(out->e_pair) + fabs(out->e_triplet);
        for (long k = 1; k <= chunks && rc == 0; k++) {
            const long upto = nsteps * k / chunks;
            if (v->ops->advance(b, upto - done) != 0 || v->ops->fetch(b, out) != 0) {
                rc = -1;
                break;
            }
            done = upto;
            const double d = fabs(sim_kinetic(out) + out->e_pair + out->e_triplet - e0);
            if (!(d <= dev))
                dev = d;
        }
        *drift = scale > 0 ? dev / scale : dev;
    }
    if (b)
        v->ops->destroy(b);
    return rc;
}

/* The configuration of the trajectory checks: double precision, no cutoffs, so that the
 * forces are smooth (a cutoff makes them jump, and then neither Verlet's O(dt^2) error law
 * nor rk8pd's error control holds). A periodic system needs its cutoffs (minimum image), so
 * its particles are taken as they are, as an open cluster (docs/validate.md). */
static sim_config cfg_traj(const sim_config *c)
{
    sim_config t = *c;
    t.solver.precision = CFG_PREC_DOUBLE;
    t.system.boundary = CFG_BOUNDARY_OPEN;
    t.system.box = 0.0;
    t.potential.atm.cutoff = 0.0;
    if (t.potential.lj.enabled)
        t.potential.lj.cutoff = VAL_LJ_NOCUT;
    return t;
}

static int traj_checks(val_ctx *v, const sim_state *s, long nsteps)
{
    const size_t n3 = 3 * (size_t)s->n;
    sim_config c = cfg_traj(&v->cfg);
    const double dt = c.integrator.dt, T = (double)nsteps * dt;
    double *xg = malloc(4 * n3 * sizeof *xg), *vg = xg + n3, *xg11 = vg + n3, *vg11 = xg11 + n3;
    double ex[3], ev[3], drift[3], ep, et, ke = 0.0;
    static const char *const hname[3] = {"dt", "dt/2", "dt/4"};
    char label[2 * CFG_NAME_MAX + 2], name[48];
    val_gsl_opts o;
    val_gsl_result r13, r11;
    val_system vs;
    sim_state out;
    int rc = -1;

    memset(&out, 0, sizeof out);
    if (!xg || make_like(s, &out) != 0) {
        tb_error(NULL, 0, "validate: out of host memory for n = %d", s->n);
        goto done;
    }
    full_label(&c, label, sizeof label);
    val_system_of(&c, s, s->pos, &vs);
    val_gsl_opts_default(&o);
    o.n_samples = (int)ceil(T / 0.004); /* about the step rk8pd takes at 1e-13 here */
    if (v->fault_ref)
        o.force_scale = 1.0 + 1e-3;
    if (val_gsl_trajectory(&vs, s->mass, s->vel, T, &o, xg, vg, &r13) != 0)
        goto done;
    /* The bound: a looser run on other step sizes (one sample: no forced step ends). */
    o.epsabs = o.epsrel = 1e-11;
    o.n_samples = 1;
    if (val_gsl_trajectory(&vs, s->mass, s->vel, T, &o, xg11, vg11, &r11) != 0)
        goto done;
    if (val_reference(&vs, NULL, &ep, &et) != 0)
        goto done;
    for (size_t i = 0; i < n3; i++)
        ke += 0.5 * s->mass * s->vel[i] * s->vel[i];
    const double escale = ke + fabs(ep) + fabs(et);
    const double gx = max_dist(xg, xg11, s->n, s->box), gv = max_dist(vg, vg11, s->n, 0.0);

    for (int k = 0; k < 3; k++) {
        c.integrator.dt = dt / (double)(1 << k);
        if ((rc = vv_run(v, &c, s, nsteps << k, &out, &drift[k])) != 0)
            goto done;
        ex[k] = max_dist(out.pos, xg, s->n, s->box);
        ev[k] = max_dist(out.vel, vg, s->n, 0.0);
    }
    rc = -1;
    printf("  (GSL rk8pd: %ld force evaluations at 1e-13, %ld at 1e-11; %ld cutoff crossings)\n",
           r13.rhs_evals, r11.rhs_evals, r13.crossings);
    /* Cutoff crossings make the force jump: Verlet's error is then no longer O(dt^2). */
    const int skip = r13.crossings > 0;
    if (add_row(v, "GSL error bound: x", "-", "double", gx, CMP_LE, 0, VAL_GSL_ERR, 0) ||
        add_row(v, "GSL error bound: v", "-", "double", gv, CMP_LE, 0, VAL_GSL_ERR, 0) ||
        add_row(v, "GSL energy drift", "-", "double", r13.max_dev / escale, CMP_LE, 0,
                VAL_GSL_DRIFT, 0))
        goto done;
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "VV position error %s", hname[k]);
        if (add_row(v, name, label, "double", ex[k], CMP_GE, VAL_FLOOR * gx, 0, skip))
            goto done;
        snprintf(name, sizeof name, "VV velocity error %s", hname[k]);
        if (add_row(v, name, label, "double", ev[k], CMP_GE, VAL_FLOOR * gv, 0, skip))
            goto done;
    }
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "VV position order %s", hname[k + 1]);
        if (add_row(v, name, label, "double", log2(ex[k] / ex[k + 1]), CMP_IN, VAL_ORDER_LO,
                    VAL_ORDER_HI, skip))
            goto done;
        snprintf(name, sizeof name, "VV velocity order %s", hname[k + 1]);
        if (add_row(v, name, label, "double", log2(ev[k] / ev[k + 1]), CMP_IN, VAL_ORDER_LO,
                    VAL_ORDER_HI, skip))
            goto done;
    }
    if (add_row(v, "VV energy drift dt", label, "double", drift[0], CMP_LE, 0, VAL_VV_DRIFT, 0))
        goto done;
    for (int k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "VV energy drift order %s", hname[k + 1]);
        if (add_row(v, name, label, "double", log2(drift[k] / drift[k + 1]), CMP_IN,
                    VAL_ORDER_LO, VAL_ORDER_HI, skip))
            goto done;
    }
    if (skip)
        printf("  (errors and orders SKIPPED: %ld cutoff crossings make the forces jump; "
               "reported, not judged)\n", r13.crossings);
    rc = 0;
done:
    free(xg);
    sim_state_free(&out);
    return rc;
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

    const int n_cfg = v->cfg.system.particles;
    const int n_force = v->o.n ? v->o.n : (n_cfg < VAL_FORCE_N ? n_cfg : VAL_FORCE_N);
    const int n_traj = v->o.n ? v->o.n : (n_cfg < VAL_TRAJ_N ? n_cfg : VAL_TRAJ_N);
    const double dt = v->cfg.integrator.dt;
    long nsteps = lround((v->o.time > 0 ? v->o.time : VAL_TIME) / dt);
    if (nsteps < 1)
        nsteps = 1;
    if ((rc = make_state(&v->cfg, n_force, &sf)) != 0 ||
        (rc = make_state(&v->cfg, n_traj, &st)) != 0)
        goto done;
    st.box = 0.0; /* the trajectory runs with open boundaries (cfg_traj) */
    if (v->o.report && !(rep = out_create(v->o.report))) {
        rc = 1;
        goto done;
    }

    /* The header: what is checked, where. */
    printf("tribody validate: %s on backend %s: %s\n", v->cfg.path, v->ops->name, device_text(v));
    printf("  system: %s boundary, LJ %s, ATM %s, tile %d, map %s / %s\n",
           cfg_boundary_name(v->cfg.system.boundary), v->cfg.potential.lj.enabled ? "on" : "off",
           v->cfg.potential.atm.nu != 0.0 ? "on" : "off", v->cfg.solver.tile, v->cfg.solver.map,
           v->cfg.solver.map2d);
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

    if ((rc = force_checks(v, &sf)) != 0 || (rc = traj_checks(v, &st, nsteps)) != 0) {
        rc = rc == TB_EXIT_USAGE ? rc : 1;
        goto done;
    }
    {
        const sim_config ct = cfg_traj(&v->cfg);
        if ((rc = val_thermostat_checks(v->ops, &ct, &st, row_cb, v)) != 0) {
            rc = rc == TB_EXIT_USAGE ? rc : 1;
            goto done;
        }
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
