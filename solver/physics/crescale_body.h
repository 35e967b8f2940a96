/* crescale_body.h — stochastic cell rescaling's arithmetic (baro.h: the stretch mu of a rescale
 * from the pressure, its noise given; the work terms of the conserved quantity, dK + P0 dV at
 * the rescale and dU after the evaluation), over plain numbers, written once: the host path
 * (baro.c: the CPU, and the GPU by default) and the GPU's one-thread kernels (gpu_mtk_box.cu,
 * built with -fmad=false as the host builds this without contraction) call these functions.
 * The state they move: solver/mtk_state.h (the barostat's state a backend holds). */
#ifndef TB_CRESCALE_BODY_H
#define TB_CRESCALE_BODY_H

#include <math.h>

#include "config/config.h"
#include "solver/box.h"
#include "solver/mtk_state.h"
#include "solver/physics/mtk_body.h"

/* The stretch mu[3] of one rescale (Bernetti & Bussi 2020; baro.h's equations) from the kinetic
 * tensor k[6] and the virial w[6] at volume vol: f = beta dt_P / tau_P, target p0, kT (< 0: the
 * kinetic temperature 2K / N_f, nve), xi the standard normals drawn for it (iso xi[0]). */
TB_HOSTDEV static inline void crescale_mu(int coupling, double f, double p0, double nktv2p,
                                          double kT, int dof, double vol, const double k[6],
                                          const double w[6], const double xi[3], double mu[3])
{
    double pd[3];
    const double K = k[0] + k[1] + k[2];
    if (kT < 0.0)
        kT = dof > 0 ? 2.0 * K / dof : 0.0;
    for (int a = 0; a < 3; a++)
        pd[a] = nktv2p * (2.0 * k[a] + w[a]) / vol;
    const double P = (pd[0] + pd[1] + pd[2]) / 3.0;
    if (coupling == CFG_COUPLE_ISO) {
        const double eps = -f * (p0 - P) + sqrt(2.0 * kT * f * nktv2p / vol) * xi[0];
        mu[0] = mu[1] = mu[2] = exp(eps / 3.0);
        return;
    }
    for (int a = 0; a < 3; a++)
        mu[a] = exp(-f / 3.0 * (p0 - pd[a]) + sqrt(2.0 * kT * f * nktv2p / (3.0 * vol)) * xi[a]);
}

/* The work of the rescale by mu from volume vol to vol1 at the kinetic tensor k before it:
 * W -= dK + P0 dV, dK = sum_a K_a (1 / mu_a^2 - 1) exactly. */
TB_HOSTDEV static inline void crescale_work_move(double *work, const double k[6],
                                                 const double mu[3], double p0, double vol,
                                                 double vol1, double nktv2p)
{
    double dK = 0.0;
    for (int a = 0; a < 3; a++)
        dK += k[a] * (1.0 / (mu[a] * mu[a]) - 1.0);
    *work -= dK + p0 * (vol1 - vol) / nktv2p;
}

/* The work's dU after the evaluation in the stretched box (its virial w): U(lambda x) from 1 to
 * mu by the trapezoid of dU/dlambda = -W(lambda x) / lambda between the virial w_old the
 * pressure came from and w (the second order that the noise makes systematic is then in). */
TB_HOSTDEV static inline void crescale_work_end(double *work, const double mu[3],
                                                const double w_old[6], const double w[6])
{
    double dU = 0.0;
    for (int a = 0; a < 3; a++)
        dU -= 0.5 * (mu[a] - 1.0) * (w_old[a] + w[a] / mu[a]);
    *work -= dU;
}

/* ---- on the state a backend holds (mtk_state.h; gpu_mtk.cu's CRS phases) ---- */

/* CRS_BEGIN: mu from the kept virial and the kinetic tensor now; the box map (mu on the
 * diagonal, box_deform_d) and the velocities' (1 / mu: baro.c's rescale) set. */
TB_HOSTDEV static inline void crescale_state_begin(mtk_state *s, const mtk_par *p,
                                                   const double k[6])
{
    double mu[3];
    for (int c = 0; c < 6; c++)
        s->w_old[c] = s->w_prev[c];
    s->p_last = p->p0;
    crescale_mu(p->coupling, p->cr_f, p->p0, p->nktv2p, p->kT, p->dof, box_volume_d(&s->box),
                k, s->w_old, p->xi, mu);
    for (int a = 0; a < 3; a++) {
        s->map[a] = mu[a];
        s->vm[a] = 1.0 / mu[a];
        s->map[a + 3] = s->vm[a + 3] = 0.0;
    }
}

/* CRS_EVAL's stretch: the box moved by the map and checked (mtk_box_move: the first fault
 * kept with the step), the work's dK + P0 dV from the kinetic tensor k before it. */
TB_HOSTDEV static inline void crescale_state_move(mtk_state *s, const mtk_par *p, const double k[6])
{
    const double vol = box_volume_d(&s->box);
    mtk_box_move(s, p, p->step);
    crescale_work_move(&s->work, k, s->map, s->p_last, vol, box_volume_d(&s->box), p->nktv2p);
}

#endif
