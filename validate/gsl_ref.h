/* gsl_ref.h — reference trajectories: the equations of motion integrated with GSL's adaptive
 * embedded Runge–Kutta–Prince–Dormand (8,9) stepper, the forces from val_reference().
 *
 * The state is y = (r_1 .. r_n, v_1 .. v_n) (6n doubles, interleaved x y z), and
 *     dy/dt = (v, F(r) / m),   F from the independent O(N^3) reference (reference.h),
 * integrated by gsl_odeiv2_driver with gsl_odeiv2_step_rk8pd under the standard error
 * control on y (gsl_odeiv2_driver_alloc_y_new): each step keeps its estimated local error
 * per component below epsabs + epsrel |y_i|. Near 1e-13 the global error at t ~ 0.1–1 tau is
 * ~1e-12 sigma for the systems `tribody validate` uses, far below the velocity-Verlet errors it
 * is compared with (docs/validate.md measures both).
 *
 * Like reference.h this includes no solver/ header: it is part of the ground truth.
 * Positions are never wrapped; with periodic boundaries (sys->box > 0) the reference applies
 * the minimum image, so compare positions through the minimum image too. */
#ifndef TB_GSL_REF_H
#define TB_GSL_REF_H

#include "validate/reference.h"

typedef struct val_gsl_opts {
    double epsabs;      /* absolute tolerance per step (1e-13 in `tribody validate`) */
    double epsrel;      /* relative tolerance per step (1e-13) */
    double h0;          /* first trial step [tau]; the control adapts it */
    int n_samples;      /* the run is split at t_end k / n_samples, k = 1..n_samples, where the
                           energy is recorded and cutoff crossings are counted (>= 1) */
    double force_scale; /* multiplies every force; 1 for a true reference. Only the tests of
                           the validator change it (a perturbed reference must be caught). */
} val_gsl_opts;

/* Fills o with the defaults: epsabs = epsrel = 1e-13, h0 = 1e-4, 50 samples, scale 1. */
void val_gsl_opts_default(val_gsl_opts *o);

typedef struct val_gsl_result {
    double e0;         /* total energy (kinetic + pair + triplet) at t = 0 [epsilon] */
    double e_end;      /* total energy at t_end */
    double max_dev;    /* max over the samples of |E(t) - E0| [epsilon] (NaN if any was) */
    long rhs_evals;    /* force evaluations (calls of val_reference) */
    long crossings;    /* pairs (LJ cutoff) and triplets (ATM cutoff) whose inside/outside
                          status changed between consecutive samples: each is a jump of the
                          force, where neither rk8pd's error control nor velocity Verlet's
                          O(dt^2) error law holds. Always 0 without cutoffs. */
} val_gsl_result;

/* Integrates from t = 0 (positions sys->pos, velocities vel0, masses mass[i] of particle i) to t_end
 * under the potential of sys, and writes the state at t_end into pos_end and vel_end (3n
 * doubles each). sys->pos is not modified. Returns 0; -1 after a one-line message on
 * allocation failure or when GSL gives up (a step size underflow, e.g. at a collision). */
int val_gsl_trajectory(const val_system *sys, const double *mass, const double *vel0, double t_end,
                       const val_gsl_opts *o, double *pos_end, double *vel_end,
                       val_gsl_result *r);

/* Total energy kinetic + pair + triplet [epsilon] of positions sys->pos, velocities vel and
 * masses mass[i] (per particle); NAN when the reference fails. */
double val_total_energy(const val_system *sys, const double *mass, const double *vel);

#endif
