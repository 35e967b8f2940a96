/* mtk_body.h — MTK's half-step arithmetic (baro.h: the strain rates' kick, the velocities' map
 * exp(-h (Omega + tr Omega / N_f)), the box map exp(h Omega)) and the Nose-Hoover chain's half
 * step (integrate.h), over plain numbers, written once: the host (baro.c, integrate.c: the CPU
 * backend, and the GPU with TB_BARO_HOST=1) and the GPU's one-thread kernels (gpu_mtk.cu) call
 * these functions. The state they move: solver/mtk_state.h. */
#ifndef TB_MTK_BODY_H
#define TB_MTK_BODY_H

#include <math.h>

#include "config/config.h"
#include "solver/box.h"
#include "solver/mtk_state.h"

/* ---- the Nose-Hoover chain (Martyna, Tuckerman, Klein 1996; integrate.h) ---- */

/* Force on chain element j: G_1 = (2K - N_f kT)/Q_1, G_j = (Q_{j-1} v_{j-1}^2 - kT)/Q_j. */
TB_HOSTDEV static inline double mtk_nhc_force(int dof, const double *Q, const double *veta, int j,
                                              double K, double kT)
{
    if (j == 0)
        return (2.0 * K - dof * kT) / Q[0];
    return (Q[j - 1] * veta[j - 1] * veta[j - 1] - kT) / Q[j];
}

/* v_j += d4 G_j, between two half-scalings by the next element: exp(-d8 v_{j+1}). */
TB_HOSTDEV static inline void mtk_nhc_kick(int m, int dof, const double *Q, double *veta, int j,
                                           double K, double kT, double d4, double d8)
{
    const double G = mtk_nhc_force(dof, Q, veta, j, K, kT);
    if (j == m - 1) {
        veta[j] += d4 * G;
    } else {
        const double e = exp(-d8 * veta[j + 1]);
        veta[j] = (veta[j] * e + d4 * G) * e;
    }
}

/* exp(iL_NHC h) for kinetic energy K at target kT (n_c = 1, 3-stage Suzuki-Yoshida weights);
 * chain masses Q_1 = N_f kT tau^2, Q_j = kT tau^2. Returns the velocities' factor. */
TB_HOSTDEV static inline double mtk_nhc_half(int m, int dof, double period, double *eta,
                                             double *veta, double K, double kT, double h)
{
    const double w1 = 1.3512071919596578; /* 1 / (2 - 2^(1/3)) */
    const double w[3] = {w1, 1.0 - 2.0 * w1, w1};
    double Q[MTK_NH_MAX], scale = 1.0;
    const double tt = period * period;
    Q[0] = dof * kT * tt;
    for (int j = 1; j < m; j++)
        Q[j] = kT * tt;
    if (!(kT > 0.0))
        return 1.0; /* no thermostat at T = 0 (the masses vanish) */
    for (int a = 0; a < 3; a++) {
        const double d2 = w[a] * h, d4 = 0.5 * d2, d8 = 0.25 * d2;
        for (int j = m - 1; j >= 0; j--)
            mtk_nhc_kick(m, dof, Q, veta, j, K * scale * scale, kT, d4, d8);
        scale *= exp(-d2 * veta[0]);
        for (int j = 0; j < m; j++)
            eta[j] += d2 * veta[j];
        for (int j = 0; j < m; j++)
            mtk_nhc_kick(m, dof, Q, veta, j, K * scale * scale, kT, d4, d8);
    }
    return scale;
}

/* Energy of the chain: sum Q_j v_j^2 / 2 + N_f kT eta_1 + kT sum_{j>=2} eta_j. */
TB_HOSTDEV static inline double mtk_nhc_energy(int m, int dof, double period, const double *eta,
                                               const double *veta, double kT)
{
    const double tt = period * period;
    double e = 0.0;
    for (int j = 0; j < m; j++) {
        const double Q = (j == 0 ? dof * kT : kT) * tt;
        e += 0.5 * Q * veta[j] * veta[j] + (j == 0 ? dof : 1) * kT * eta[j];
    }
    return e;
}

/* ---- MTK (baro.h) ---- */

/* The strain rates' half-step kick at the virial w[6] and the kinetic tensor k[6] (iso: K
 * alone), volume vol, target p0; *w_mass = (N + 1) kT tau_P^2 (no kick when it is not > 0). */
TB_HOSTDEV static inline void mtk_omega_kick(double *om, double *w_mass, int coupling, int n,
                                             double nktv2p, double period, double kT, double p0,
                                             double vol, double h, const double w[6],
                                             const double k[6], double K)
{
    *w_mass = (n + 1) * kT * period * period;
    if (!(*w_mass > 0.0))
        return; /* T = 0: no barostat mass (as the chain's) */
    const double mtk1 = 2.0 * K / (3.0 * n); /* LAMMPS's mtk_term1 */
    if (coupling == CFG_COUPLE_ISO) {
        const double P = nktv2p * (2.0 * K + w[0] + w[1] + w[2]) / (3.0 * vol);
        om[0] += h * (((P - p0) * vol / nktv2p + mtk1) / *w_mass);
        return;
    }
    /* P_ab V / nktv2p = 2 K_ab + W_ab; the diagonal against P0, the tilts' against 0 */
    for (int a = 0; a < 3; a++)
        om[a] += h * ((2.0 * k[a] + w[a] - p0 * vol / nktv2p + mtk1) / *w_mass);
    if (coupling == CFG_COUPLE_TRI)
        for (int a = 3; a < 6; a++)
            om[a] += h * ((2.0 * k[a] + w[a]) / *w_mass);
}

/* (e^x - e^y) / (x - y), e^x at x = y: the first divided difference of exp. */
TB_HOSTDEV static inline double mtk_exp_dd1(double x, double y)
{
    return x == y ? exp(x) : exp(y) * (expm1(x - y) / (x - y));
}

/* The second divided difference of exp at x, y, z (symmetric): over the widest pair, or,
 * when all three lie within 1e-4, its series about their mean (terms to the third order). */
TB_HOSTDEV static inline double mtk_exp_dd2(double x, double y, double z)
{
    double t;
    if (x > y) t = x, x = y, y = t;
    if (y > z) t = y, y = z, z = t;
    if (x > y) t = x, x = y, y = t;
    if (z - x > 1e-4)
        return (mtk_exp_dd1(z, y) - mtk_exp_dd1(y, x)) / (z - x);
    const double m = (x + y + z) / 3.0, a = x - m, b = y - m, c = z - m;
    const double h2 = a * a + b * b + c * c + a * b + a * c + b * c;
    const double h3 = a * a * a + b * b * b + c * c * c + a * a * (b + c) + b * b * (a + c) +
                      c * c * (a + b) + a * b * c;
    return exp(m) * (0.5 + h2 / 24.0 + h3 / 120.0);
}

/* e = exp(A) for an upper-triangular A (a[6]: xx yy zz xy xz yz, the order of backend.h's
 * maps), exactly: the diagonal e^a_aa, the off-diagonal terms by divided differences. */
TB_HOSTDEV static inline void mtk_exp_upper(const double a[6], double e[6])
{
    for (int k = 0; k < 3; k++)
        e[k] = exp(a[k]);
    e[3] = a[3] != 0.0 ? a[3] * mtk_exp_dd1(a[0], a[1]) : 0.0;
    e[5] = a[5] != 0.0 ? a[5] * mtk_exp_dd1(a[1], a[2]) : 0.0;
    e[4] = (a[4] != 0.0 ? a[4] * mtk_exp_dd1(a[0], a[2]) : 0.0) +
           (a[3] != 0.0 && a[5] != 0.0 ? a[3] * a[5] * mtk_exp_dd2(a[0], a[1], a[2]) : 0.0);
}

/* The velocities' factor of iso: exp(-h omega (1 + 1/N)), 1 + d / N_f with N_f = 3N. */
TB_HOSTDEV static inline double mtk_vfactor(const double *om, int n, double h)
{
    return exp(-h * om[0] * (1.0 + 1.0 / n));
}

/* The velocities' map of a half step: v = exp(-h (Omega + mtk2 I)) v, mtk2 = tr Omega / 3N
 * (LAMMPS's nh_v_press); iso: the factor on the diagonal. */
TB_HOSTDEV static inline void mtk_vmap(const double *om, int coupling, int n, double h, double vm[6])
{
    if (coupling == CFG_COUPLE_ISO) {
        vm[0] = vm[1] = vm[2] = mtk_vfactor(om, n, h);
        vm[3] = vm[4] = vm[5] = 0.0;
        return;
    }
    const double mtk2 = (om[0] + om[1] + om[2]) / (3.0 * n);
    double a[6];
    for (int k = 0; k < 6; k++)
        a[k] = k < 3 ? -h * (om[k] + mtk2) : coupling == CFG_COUPLE_TRI ? -h * om[k] : 0.0;
    mtk_exp_upper(a, vm);
}

/* The box map of a half step's dilation, exp(h Omega) (box_deform_d). */
TB_HOSTDEV static inline void mtk_box_map(const double *om, int coupling, double h, double map[6])
{
    if (coupling == CFG_COUPLE_ISO) {
        const double m = exp(h * om[0]);
        map[0] = map[1] = map[2] = m;
        map[3] = map[4] = map[5] = 0.0;
        return;
    }
    double a[6];
    for (int k = 0; k < 6; k++)
        a[k] = k < 3 || coupling == CFG_COUPLE_TRI ? h * om[k] : 0.0;
    mtk_exp_upper(a, map);
}

/* The kinetic energy and tensor from the backends' per-species sums: v2[t] = sum |v|^2 (iso),
 * or v2[6 t + c] = sum v_a v_b (else), mass[t] each species' mass (the GPU's gpu_kinetic and
 * gpu_kinetic_axes: the same order). */
TB_HOSTDEV static inline double mtk_kinetic_sum(int coupling, int nt, const double *mass,
                                                const double *v2, double k[6])
{
    if (coupling == CFG_COUPLE_ISO) {
        double ke = 0.0;
        for (int t = 0; t < nt; t++)
            ke += 0.5 * mass[t] * v2[t];
        return ke;
    }
    for (int a = 0; a < 6; a++)
        k[a] = 0.0;
    for (int t = 0; t < nt; t++)
        for (int a = 0; a < 6; a++)
            k[a] += 0.5 * mass[t] * v2[6 * t + a];
    return k[0] + k[1] + k[2];
}

/* ---- the box (box.h) under the barostat ---- */

/* The first tilt of b beyond LAMMPS's skew limits (0 xy, 1 xz, 2 yz: |xy|, |xz| <= lx/2,
 * |yz| <= ly/2, as the config's system.box.tilt), or -1. */
TB_HOSTDEV static inline int mtk_tilt_beyond(const tb_box_d *b)
{
    const double t[3] = {b->xy, b->xz, b->yz}, lim[3] = {b->l[0], b->l[0], b->l[1]};
    for (int k = 0; k < 3; k++)
        if (fabs(t[k]) > 0.5 * lim[k] * (1 + 1e-14))
            return k;
    return -1;
}

/* Whether a moved box stops the run (baro.c's box_check says why): 0 no; 1 it exploded (its
 * volume not finite, not > 0, or beyond 1e6 v0); 2 it collapsed (half its smallest width
 * below the widest cutoff, range); 3 + k its tilt k beyond the skew limit (tri only). */
TB_HOSTDEV static inline int mtk_box_fault(const tb_box_d *nb, int coupling, double v0, double range)
{
    const double vol1 = box_volume_d(nb), half = box_half_width_d(nb);
    if (!isfinite(vol1) || !(vol1 > 0.0) || vol1 > 1e6 * v0)
        return 1;
    if (half < range)
        return 2;
    const int k = coupling == CFG_COUPLE_TRI ? mtk_tilt_beyond(nb) : -1;
    return k >= 0 ? 3 + k : 0;
}

/* One dilation's box on the state (box_dev): s->box mapped by s->map (box_deform_d), its
 * first fault kept with the step (the box is moved all the same: the run stops when the
 * fault is read). */
TB_HOSTDEV static inline void mtk_box_move(mtk_state *s, const mtk_par *p, long step)
{
    tb_box_d nb = s->box;
    box_deform_d(&nb, s->map);
    const int f = mtk_box_fault(&nb, p->coupling, p->v0, p->range);
    if (f && !s->fault) {
        s->fault = f;
        s->fault_step = step;
        s->fault_box = nb;
    }
    s->box = nb;
}

/* The step's half kick of the strain rates on the state s (the virial w, the kinetic sums v2 of
 * mtk_kinetic_sum), then the half step's maps: MTK's Omega(h) and the maps of V(h) and D(h). */
TB_HOSTDEV static inline void mtk_state_omega(mtk_state *s, const mtk_par *p, int nt,
                                              const double *mass, const double *v2,
                                              const double w[6])
{
    double k[6] = {0, 0, 0, 0, 0, 0};
    s->K = mtk_kinetic_sum(p->coupling, nt, mass, v2, k);
    s->p_last = p->p0;
    mtk_omega_kick(s->om, &s->w_mass, p->coupling, p->n, p->nktv2p, p->period_p, p->kT, p->p0,
                   s->box_dev ? box_volume_d(&s->box) : p->vol, p->h, w, k, s->K);
    mtk_vmap(s->om, p->coupling, p->n, p->h, s->vm);
    mtk_box_map(s->om, p->coupling, p->h, s->map);
}

/* The chain's half step on the state s at the kinetic energy K: s->scale, and its energy. */
TB_HOSTDEV static inline void mtk_state_chain(mtk_state *s, const mtk_par *p, double K, int end)
{
    s->scale = mtk_nhc_half(p->m, p->dof, p->period_t, s->eta, s->veta, K, p->kT, p->h);
    if (end)
        s->e_bath = mtk_nhc_energy(p->m, p->dof, p->period_t, s->eta, s->veta, p->kT);
}

#endif
