/* reference.h — independent CPU reference for energies and forces: a plain triple loop
 * over i<j<k (and a double loop over i<j) in double precision with OpenMP.
 *
 * The ground truth of tribody's tests and `tribody validate`. It shares no code with the
 * solver: it includes no solver/ header and derives the ATM forces its own way.
 *
 * Conventions (the same as the solver's, docs/physics.md):
 *  - ATM: E = nu (1 + 3 cos g1 cos g2 cos g3) / (r_ij r_jk r_ki)^3 summed over i<j<k; with
 *    atm_cutoff > 0 a triplet counts iff all three sides are <= atm_cutoff, and with
 *    atm_cutoff_triple > 0 only if also r_ij r_jk r_ki <= atm_cutoff_triple^3 (LAMMPS's
 *    pair_style atm semantics).
 *  - LJ (when lj != 0): 4 eps ((sigma/r)^12 - (sigma/r)^6) over i<j with r < lj_cutoff,
 *    minus its value at lj_cutoff when lj_shift != 0.
 *  - Periodic (box > 0): minimum image in a cubic box of edge box; a triplet i<j<k uses
 *    d_ij = mic(r_j - r_i), d_ik = mic(r_k - r_i) and d_jk = d_ik - d_ij (anchored at the
 *    lowest index). Pairs use mic(r_j - r_i). */
#ifndef TB_REFERENCE_H
#define TB_REFERENCE_H

typedef struct val_system {
    int n;
    const double *pos; /* [3n] interleaved [sigma] */
    double box;        /* periodic cubic box edge; 0 = open */
    double nu;         /* ATM coefficient; 0 = no triplet term */
    double atm_cutoff; /* 0 = none */
    double atm_cutoff_triple; /* 0 = none: else also r_ij r_jk r_ki <= atm_cutoff_triple^3 */
    int lj;            /* 1 = include the LJ pair term */
    double eps, sigma, lj_cutoff;
    int lj_shift;
} val_system;

/* Computes the pair and triplet energies and, when force != NULL, the total force on each
 * particle (3n doubles). Returns 0, or -1 on allocation failure. */
int val_reference(const val_system *s, double *force, double *e_pair, double *e_triplet);

/* val_reference, and when virial != NULL also the virial tensor of both terms,
 * W_ab = sum over pairs and triplets of sum_m P_m,a F_m,b with P_m the positions of the
 * interacting images relative to the lowest index (d_ij, d_ik), in the order xx yy zz xy xz
 * yz [epsilon]. For an open cluster this is sum_i r_i,a F_i,b; the pressure of a periodic
 * box is P = (2 K + W_xx + W_yy + W_zz) / (3 V). Summed per i in order (thread-independent). */
int val_reference_virial(const val_system *s, double *force, double *e_pair, double *e_triplet,
                         double *virial);

#endif
