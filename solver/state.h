/* state.h — the simulation state on the host: positions, velocities, forces, energies.
 *
 * Arrays are interleaved, x0 y0 z0 x1 y1 z1 ..., in reduced LJ units: positions [sigma],
 * velocities [sigma/tau], forces [epsilon/sigma], energies [epsilon], time [tau]. */
#ifndef TB_STATE_H
#define TB_STATE_H

#include "common/tb.h"

TB_BEGIN_DECLS

typedef struct sim_state {
    int n;          /* particles */
    double mass;    /* particle mass [m] (all equal) */
    double box;     /* periodic cubic box edge [sigma]; 0 for open boundaries */
    double *pos;    /* [3n] */
    double *vel;    /* [3n] */
    double *force;  /* [3n], at pos */
    char (*species)[TB_SPECIES_MAX]; /* [n] */
    int *type;      /* [n]: species index of each particle, 0 .. ntypes-1 (all 0 for one species) */
    int ntypes;     /* species in the system, 1 .. TB_TYPES_MAX */
    long step;      /* steps done */
    double time;    /* step * dt [tau] */
    double e_pair;    /* LJ energy at pos [epsilon] */
    double e_triplet; /* ATM energy at pos [epsilon] */
    double e0;        /* total energy at step 0, the reference of the drift [epsilon] */
    /* Virial tensor W_ab = sum over interactions of (r_a F_b) of the pair and triplet terms
     * together, in the order xx yy zz xy xz yz [epsilon]; filled by the backends' fetch()
     * with the energies. Pressure P = (N k T + (W_xx + W_yy + W_zz)/3) / V. */
    double virial[6];
    /* Energy term of the thermostat [epsilon] (integrate.h): K + U + e_bath is the quantity
     * the integrator conserves (0 for nve: the total energy). */
    double e_bath;
} sim_state;

/* Allocates the arrays of n particles (zeroed, species "Ar"); returns 0 or -1. */
int sim_state_alloc(sim_state *s, int n);
/* Frees what sim_state_alloc allocated; accepts NULL and a zeroed state. */
void sim_state_free(sim_state *s);

/* Kinetic energy sum m v^2 / 2 [epsilon]. */
double sim_kinetic(const sim_state *s);
/* Degrees of freedom used for the temperature: 3n - 3 (total momentum is conserved). */
int sim_dof(const sim_state *s);
/* Instantaneous temperature 2 KE / (dof k_B) [epsilon/k_B]. */
double sim_temperature(const sim_state *s);
/* Trace of the virial W_xx + W_yy + W_zz [epsilon]. */
double sim_virial_trace(const sim_state *s);
/* Pressure of a periodic box, as LAMMPS's compute pressure: the tensor
 *   P_ab = (sum_i m v_i,a v_i,b + W_ab) / V,   V = L^3,
 * and P = (P_xx + P_yy + P_zz) / 3 = (2 K + tr W) / (3 V) [epsilon/sigma^3]. Writes P, P_xx,
 * P_yy, P_zz, P_xy, P_xz, P_yz into p[7] and returns 0; returns -1 (p untouched) for open
 * boundaries, which have no volume. */
int sim_pressure(const sim_state *s, double p[7]);
/* The conserved quantity of the integrator, K + e_pair + e_triplet + e_bath [epsilon]. */
double sim_conserved(const sim_state *s);

TB_END_DECLS

#endif
