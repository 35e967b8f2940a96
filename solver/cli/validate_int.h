/* validate_int.h — what the parts of `tribody validate` share: the table of rows, the context,
 * the tolerances, and the entry points of the force checks (validate_forces.c) and the
 * trajectory checks (validate_traj.c); cmd_validate.c holds the options, the rows, the report
 * and the command. Not a public interface. */
#ifndef TB_VALIDATE_INT_H
#define TB_VALIDATE_INT_H

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "solver/cli/args.h"
#include "solver/backend.h"
#include "solver/state.h"
#include "solver/cli/validate_thermo.h"

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

extern const val_tol val_tols[3];
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
    tb_box_d box; /* the state's box after sim_init (a data file or XYZ frame may give it):
                     every check of the configured system takes it, not cfg_box */
    const backend_ops *ops;
    const map3d_type *m3[VAL_MAX_MAPS];
    const map2d_type *m2[VAL_MAX_MAPS];
    int n3, n2;
    int prec[3], n_prec;
    int fault_flip, fault_energy, fault_ref;
    val_row *rows;
    int n_rows, cap_rows;
} val_ctx;

/* Adds (and prints) one row of the table; 0 or -1 (out of memory, reported). */
int val_add_row(val_ctx *v, const char *check, const char *map, const char *prec,
                double measured, int cmp, double lo, double hi, int skip);
/* The initial state of c regenerated at n particles; 0 or the error status. */
int val_make_state(const sim_config *c, int n, sim_state *s);
/* A state of s's size, particles and box, for a backend's results; 0 or -1. */
int val_make_like(const sim_state *s, sim_state *out);
/* Forces and energies of s0 under c on the backend under test, into out (with the faults). */
int val_backend_eval(const val_ctx *v, const sim_config *c, const sim_state *s0, sim_state *out);
/* Sections 1 and 2 (forces, energies, virial, symmetries) and section 3 (trajectories) of
 * docs/validate.md; 0 or a nonzero status. */
int val_force_checks(val_ctx *v, const sim_state *s);
int val_traj_checks(val_ctx *v, const sim_state *s, long nsteps);
/* Section 5 (validate_boxes.c): general boxes, two species and units metal against the
 * reference's general form; 0 or -1. */
int val_general_checks(val_ctx *v);
/* n particles of s (allocated, species set) uniform in box b, z in [zlo, zhi) of b's lattice
 * coordinate along an open z, none closer than dmin (minimum image), types drawn uniformly
 * among s->ntypes; the box set. The one generator of such states (tests/test_boxes.c too).
 * 0 or -1 (reported). */
int val_place_box(sim_state *s, const tb_box_d *b, int n, double zlo, double zhi, double dmin,
                  unsigned long seed);
/* |a| of a 3-vector; the label of the full-potential rows of c ("lists", or the maps). */
double val_norm3(const double *a);
void val_full_label(const sim_config *c, const tb_box_d *box, char *buf, size_t len);
/* The trajectory checks' form of c: double, open, smooth (no cutoffs). */
sim_config val_cfg_traj(const sim_config *c);

#endif
