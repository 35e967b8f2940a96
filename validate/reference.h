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
 *    lowest index). Pairs use mic(r_j - r_i).
 *
 * General form (several species, a general box; every field below zero/NULL = the form
 * above, bit for bit; docs/validate.md, "The general reference"):
 *  - cell != NULL replaces box: LAMMPS's restricted triclinic cell with edge vectors
 *    a = (lx, 0, 0), b = (xy, ly, 0), c = (xz, yz, lz) and per-axis periodicity (an open axis
 *    is never wrapped; the origin does not enter energies, forces or the virial).
 *  - n_types > 0: particle m has species type[m] in 0..n_types-1; LJ uses the symmetric
 *    n_types x n_types tables lj_eps, lj_sigma, lj_rc (rc <= 0: no LJ for that pair; the
 *    shift, when lj_shift, is each pair's value at its own rc) in place of eps, sigma,
 *    lj_cutoff, and ATM uses the n_types^3 table nu_t (every permutation the same value; a
 *    triplet with nu 0 is skipped, LAMMPS's pair_style atm) in place of nu. atm_cutoff and
 *    atm_cutoff_triple stay global, as in LAMMPS.
 *  Cutoffs must not exceed half the smallest perpendicular width of the cell along a
 *  periodic axis (LAMMPS's requirement): the minimum image is then exact (reference.c). */
#ifndef TB_REFERENCE_H
#define TB_REFERENCE_H

/* Stillinger-Weber's parameters, as LAMMPS's .sw file gives them: for every ordered species
 * triplet (i, j, k) of n_types (1 with one species) the 11 numbers epsilon sigma a lambda
 * gamma costheta0 A B p q tol at p + 11 ((i n_types + j) n_types + k). Legs take entry
 * (i, j, j), the angle's lambda epsilon and costheta0 entry (i, j, k). */
typedef struct val_sw {
    int n_types;
    const double *p;
} val_sw;

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
    /* General form: see the opening comment. */
    const struct val_cell *cell; /* NULL: the cubic box above */
    int n_types;                 /* 0: the single-species coefficients above */
    const int *type;             /* [n] */
    const double *lj_eps, *lj_sigma, *lj_rc; /* [n_types * n_types], symmetric */
    const double *nu_t;                      /* [n_types^3], symmetric */
    /* Stillinger-Weber alone (val_reference_sw) in place of LJ and ATM when not NULL: its
     * energies are then e_pair (phi2) and e_triplet (phi3) of val_reference(_virial). */
    const val_sw *sw;
} val_system;

/* LAMMPS's restricted triclinic cell (orthorhombic with xy = xz = yz = 0). */
typedef struct val_cell {
    double lx, ly, lz, xy, xz, yz;
    int periodic[3]; /* per axis x, y, z: 1 = periodic, 0 = open */
} val_cell;

/* Fills the LJ cross pairs I != J with given[I * nt + J] == 0 (both orders) from the pure
 * pairs by LAMMPS's mixing rule: eps = sqrt(eps_I eps_J) either way; sigma and rc
 * sqrt(x_I x_J) (geometric, LAMMPS's default) or (x_I + x_J) / 2 (arithmetic != 0). */
void val_lj_mix(int nt, const unsigned char *given, int arithmetic, double *eps, double *sigma,
                double *rc);

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



/* Stillinger-Weber alone for s's particles, types (s->type, NULL: one species) and cell or
 * box (s's other coefficients unused): the pair energy (phi2 over i < j), the three-body
 * energy (phi3 over every centre i and unordered pair of its neighbours), forces when force !=
 * NULL, the virial (as val_reference_virial) when virial != NULL. 0, or -1 (memory).
 * (reference_sw.c) */
int val_reference_sw(const val_system *s, const val_sw *sw, double *force, double *e_pair,
                     double *e_triplet, double *virial);

#endif
