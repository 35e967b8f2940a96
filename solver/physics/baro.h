/* baro.h — the barostats of `tribody run` (integrator.barostat): stochastic cell rescaling
 * (C-rescale: Bernetti & Bussi, J. Chem. Phys. 153, 114107 (2020); GROMACS's C-rescale), iso
 * and aniso, on top of any integrator (nve, Langevin, Nose-Hoover), composed from the
 * backends' primitives (backend.h: virial, kinetic, kinetic_axes, rescale).
 *
 * Every `every` steps (GROMACS's nstpcouple), within the step, with dt_P = every dt: the
 * pressure P (iso) or its diagonal P_aa (aniso) from the virial of the last force evaluation
 * and the kinetic energy at the step's start (both at time t), target P0, compressibility beta, period tau_P and kT (the
 * thermostat's target; under nve the kinetic temperature 2K / N_f, the NPH form):
 *   iso:    eps = -(beta dt_P / tau_P) (P0 - P) + sqrt(2 kT beta dt_P / (V tau_P)) xi,
 *           mu = exp(eps / 3) on every axis;
 *   aniso:  mu_a = exp(-(beta dt_P / 3 tau_P) (P0 - P_aa) + sqrt(2 kT beta dt_P / (3 V tau_P)) xi_a),
 *           the same volume fluctuations as iso;
 * xi standard normals (GSL mt19937 seeded from system.seed, a stream of its own). The box and
 * the positions are stretched by mu about the box's corner, the velocities by 1/mu (the
 * backend's rescale) after the step's drift, before its force evaluation, which then sees the
 * new box (velocity Verlet: B A [rescale] F B; Langevin: B A O A [rescale] F B; Nose-Hoover:
 * NHC B A [rescale] F B NHC).
 * A factor of the pressure unit (nktv2p) turns kT / V into the style's pressure.
 * The arithmetic (mu, the work's terms) is physics/crescale_body.h's, which the GPU runs on the
 * device unless TB_CRESCALE_DEV=0 (docs/gpu.md "C-rescale on the device").
 *
 * Conserved quantity (the effective energy of the paper): the barostat's energy is
 * P0 V + W, W the work it did, W -= dK + dU + P0 dV at each rescale, dK exact (K_a / mu_a^2),
 * dU = -sum_a (mu_a - 1) (W_aa + W'_aa / mu_a) / 2 (the trapezoid of dU/dlambda = -W/lambda
 * between the virials W before and W' after, which catches the second order that the noise
 * makes systematic: GROMACS's first order drifts by about 1/2 (d ln V)^2 V B_T per rescale),
 * so K + U + E_bath + P0 V + W drifts only by the integration error.
 *
 * State (checkpoint section "BARO"): W, the last target, the virial kept for the next
 * rescale, the RNG, MTK's strain rates and mass (version 1; mtk aniso and tri: version 2, the
 * five other rates after the RNG). The box is the state's (section BOX). MTK: below. */
#ifndef TB_BARO_H
#define TB_BARO_H

#include <stddef.h>

#include "config/config.h"
#include "solver/backend.h"
#include "solver/state.h"

TB_BEGIN_DECLS

typedef struct baro baro;

/* Sets up the barostat of c (*out NULL when c has none). 0, -1 (out of memory, reported), or
 * TB_EXIT_USAGE (a barostat that cannot run: mtk, reported naming it). */
int baro_create(baro **out, const sim_config *c, const sim_state *s);
void baro_destroy(baro *p);

/* Whether the step from `step` to step + 1 rescales (baro_begin .. baro_end), and whether the
 * virial of its evaluation is needed: its own or the next step's rescale. */
int baro_due(const baro *p, long step);
int baro_wants_virial(const baro *p, long step);

/* A step that rescales (baro_due), around the integrator's own:
 *   baro_begin   at its start: mu from the pressure of the last evaluation (its virial, the
 *                velocities now) at kT [energy] (< 0: the kinetic temperature), the noise drawn;
 *   baro_rescale after the drift, before the force evaluation: the box, positions and
 *                velocities stretched (the forces are then evaluated in the new box); stops
 *                (-1, the step named) a box that collapsed (half width below the widest cutoff)
 *                or exploded (volume beyond 1e6 times the starting one);
 *   baro_end     after the evaluation (its virial summed): the work's dU.
 * baro_keep after a step whose evaluation the next step's pressure comes from. 0 or -1. */
int baro_begin(baro *p, const backend_ops *ops, backend *b, long step, double kT);
int baro_rescale(baro *p, const backend_ops *ops, backend *b, long step);
int baro_end(baro *p, const backend_ops *ops, backend *b);
int baro_keep(baro *p, const backend_ops *ops, backend *b);
/* The device path of C-rescale (integrate.c's crs_step_dev; backend.h's CRS phases): at a
 * rescale's step start the target and the noise of baro_begin, drawn in the same order, which
 * baro_mtk_get hands to the backend (par->xi); the stretch, the box and the work are then the
 * backend's (crescale_body.h), brought back by baro_mtk_set. */
int baro_noise(baro *p, long step);
/* The backend kept the virial for the next rescale (CRS_KEEP): as baro_keep says. */
void baro_kept(baro *p);

/* MTK (Martyna, Tobias, Klein 1994 with Shinoda, Shiga, Mikami 2004's splitting, as LAMMPS's
 * fix npt without a barostat chain, pchain 0), iso, aniso and tri, with the Nose-Hoover chain
 * of integrate.c; one step (integrate.c's mtk_step):
 *   NHC(h) [Omega(h)] V(h) B(h) D(h) A(dt) D(h) F B(h) V(h) [Omega(h)] NHC(h).
 * Omega, the strain rates (upper triangular: iso one rate for the three edges, aniso the
 * diagonal, tri also xy xz yz), each of mass W = (N + 1) kT tau_P^2:
 *   d omega_aa += h ((P_aa - P0) V / nktv2p + 2K / 3N) / W   (iso: P for P_aa),
 *   d omega_ab += h P_ab V / nktv2p / W                         (tri, a < b: target 0),
 * P_ab = nktv2p (2 K_ab + W_ab) / V from the kinetic tensor now (kinetic_axes) and the virial of
 * the last evaluation (before: the step's start; else this evaluation's, kept for the next
 * step). V: v = exp(-h (Omega + tr Omega / 3N)) v (baro_mtk_velocities; iso: the factor
 * exp(-h omega (1 + 1/N)), baro_mtk_vfactor); D: the box and positions under exp(h Omega)
 * (baro_mtk_dilate; box_deform_d), the velocities kept. The exponentials of the upper-triangular
 * matrices are exact (divided differences). Energy: sum W omega^2 / 2 + P0 V (baro_energy).
 * tri stops the run (-1, the step named) when a tilt leaves LAMMPS's skew limits (|xy|, |xz|
 * <= lx/2, |yz| <= ly/2: LAMMPS would flip the box, tribody does not).
 * The arithmetic of Omega's kick and of the maps is physics/mtk_body.h's, which the GPU runs on
 * the device (backend.h's mtk; integrate.c's mtk_step_dev; docs/gpu.md "MTK on the device"). */
int baro_is_mtk(const baro *p);
/* *K: the kinetic energy now, which the pressure took. */
int baro_mtk_omega(baro *p, const backend_ops *ops, backend *b, int before, double h,
                   double kT, long step, double *K);
double baro_mtk_vfactor(const baro *p, double h);
int baro_mtk_velocities(baro *p, const backend_ops *ops, backend *b, double h);
int baro_mtk_dilate(baro *p, const backend_ops *ops, backend *b, double h, long step);

/* The device path (integrate.c's mtk_step_dev, backend.h's mtk): baro_mtk_apply is
 * baro_mtk_dilate with the map already in p (from the backend's state); baro_mtk_get and
 * baro_mtk_set copy the strain rates, W, the target, the kept virial and the map to and from
 * the backend's mtk_state (get also fills par's coupling, N, unit, tau_P and the volume);
 * baro_mtk_prev fetches the initial state's virial where no step has kept one yet. */
int baro_mtk_apply(baro *p, const backend_ops *ops, backend *b, long step);
void baro_mtk_get(const baro *p, mtk_state *s, mtk_par *par);
void baro_mtk_set(baro *p, const mtk_state *s);
/* The message (tb_error's line, returned) of a moved box's fault f (mtk_body.h's mtk_box_fault)
 * at step: the host path's check and the backend's late record (gpu_mtk.cu) say it alike. */
int baro_box_fault(int f, const tb_box_d *nb, long step, double v0, double range);
int baro_mtk_prev(baro *p, const backend_ops *ops, backend *b);

/* The barostat's energy P0 V + W [energy] (P0 of the last rescale's step); MTK's above. */
double baro_energy(const baro *p);

/* Target pressure of the step from `step` to step + 1 (the ramp, as the temperature's). */
double baro_target(const baro *p, long step);

/* The state as bytes (malloc'd), and its restore; a block that does not fit is an error
 * naming path (TB_EXIT_USAGE); no block (an older checkpoint): starts afresh with a notice. */
int baro_save(const baro *p, unsigned char **buf, size_t *len);
int baro_restore(baro *p, const unsigned char *buf, size_t len, const char *path);

TB_END_DECLS

#endif
