/* state.h — the simulation state on the host: box, species, positions, velocities, forces,
 * energies.
 *
 * Arrays are interleaved, x0 y0 z0 x1 y1 z1 ..., in the units of the style `units`
 * (config/units.h): positions [length], velocities [length/time], forces [energy/length],
 * energies [energy], time [time]. Masses are held internally as mass * mvv2e
 * [energy time^2/length^2], so that F/m is an acceleration and m v^2 / 2 an energy in every
 * style (lj: mvv2e = 1, the masses as configured). */
#ifndef TB_STATE_H
#define TB_STATE_H

#include "common/tb.h"
#include "solver/box.h"

TB_BEGIN_DECLS

typedef struct sim_state {
    int n;          /* particles */
    int units;      /* enum cfg_units: the style of every number here */
    int ntypes;     /* species in the system, 1 .. TB_TYPES_MAX */
    char type_name[TB_TYPES_MAX][TB_SPECIES_MAX]; /* species names, "Ar" */
    double mass[TB_TYPES_MAX]; /* internal mass of each species, mass * mvv2e (see above) */
    tb_box_d box;   /* the box (solver/box.h); open axes are never wrapped */
    double *pos;    /* [3n] */
    double *vel;    /* [3n] */
    double *force;  /* [3n], at pos */
    int *type;      /* [n]: species index of each particle, 0 .. ntypes-1 (all 0 for one species);
                       its name is type_name[type[i]] */
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

/* Allocates the arrays of n particles (zeroed: one species "Ar" of mass 1, open boundaries,
 * lj units); returns 0 or -1. */
int sim_state_alloc(sim_state *s, int n);
/* Sets s's unit style and its species (names, internal masses) from c's units and
 * system.species (or the one species of system.mass). */
struct sim_config;
void sim_set_species(sim_state *s, const struct sim_config *c);

/* Copies what describes the system, not the particles' motion, from src to dst: the unit
 * style, the species, the box, and the types of the first min(n) particles. */
void sim_state_like(sim_state *dst, const sim_state *src);

/* Frees what sim_state_alloc allocated; accepts NULL and a zeroed state. */
void sim_state_free(sim_state *s);

/* memcpy of count doubles, on OpenMP's threads when there are many (from 32768 doubles): the
 * library's copies of positions and forces between its arrays, the GPU's pinned staging and
 * the caller's (a single thread's memcpy of n = 32768 particles costs 0.05-0.08 ms). */
void sim_copy_doubles(double *dst, const double *src, size_t count);
/* The same pass over bytes (sim_copy_doubles is one); and whether a and b hold the same
 * bytes (1) or not (0), compared on the same threads (the library's tribody_same_bytes). */
void sim_copy_bytes(void *dst, const void *src, size_t bytes);
int sim_same_bytes(const void *a, const void *b, size_t bytes);
/* The threads of such a host pass: at most SIM_HOST_THREADS (4: a copy of 0.75 MiB is bound
 * by memory, and each thread more is one more chance that the pass waits for a thread the
 * system has descheduled: on an H200 machine's 16 cores, 16 threads cost 0.3-0.4 ms per pass
 * at times), and no more than OpenMP's omp_get_max_threads() (OMP_NUM_THREADS=1: none). */
#define SIM_HOST_THREADS 4
int sim_host_threads(void);

/* Kinetic energy sum m v^2 / 2 [energy]. */
double sim_kinetic(const sim_state *s);
/* Internal mass of particle i (state.h's note). */
static inline double sim_mass(const sim_state *s, int i) { return s->mass[s->type ? s->type[i] : 0]; }
/* The volume of the box [length^3], as LAMMPS's: the extent given for an open axis too;
 * 0 when there is no box (open boundaries everywhere). */
double sim_volume(const sim_state *s);
/* The mass density, as LAMMPS's thermo `density` (mass x mv2d / volume): mass/sigma^3 in lj,
 * g/cm^3 in metal and real (g/mol over Avogadro's number, Angstrom^3); NaN without a volume.
 * The one owner for the thermo column and the run's summary. */
double sim_density(const sim_state *s);
/* Degrees of freedom used for the temperature: 3n - 3 (total momentum is conserved). */
int sim_dof(const sim_state *s);
/* Instantaneous temperature 2 KE / (dof k_B) [temperature]; _k: of the kinetic energy k
 * already summed (sim_kinetic(s)), the same number without the pass over the particles. */
double sim_temperature(const sim_state *s);
double sim_temperature_k(const sim_state *s, double k);
/* Trace of the virial W_xx + W_yy + W_zz [epsilon]. */
double sim_virial_trace(const sim_state *s);
/* Pressure of a box, as LAMMPS's compute pressure: the tensor
 *   P_ab = nktv2p (sum_i m v_i,a v_i,b + W_ab) / V   (sim_volume),
 * and P = (P_xx + P_yy + P_zz) / 3 = nktv2p (2 K + tr W) / (3 V) [pressure]. Writes P, P_xx,
 * P_yy, P_zz, P_xy, P_xz, P_yz into p[7] and returns 0; returns -1 (p untouched) without a
 * box (open boundaries everywhere), which has no volume. */
int sim_pressure(const sim_state *s, double p[7]);
/* sim_pressure in two parts, the same numbers: kin[6] = sum_i m v_i,a v_i,b (xx yy zz xy xz
 * yz), a pass over the particles that depends on the velocities alone (the library keeps it
 * while they do not change), and the pressure of s's box and virial with that kin. */
void sim_kinetic_tensor(const sim_state *s, double kin[6]);
int sim_pressure_kin(const sim_state *s, const double kin[6], double p[7]);
/* The conserved quantity of the integrator, K + e_pair + e_triplet + e_bath [epsilon]; _k: of
 * K = k already summed (as sim_temperature_k). */
double sim_conserved(const sim_state *s);
double sim_conserved_k(const sim_state *s, double k);

TB_END_DECLS

#endif
