/* pot_params.h — the coefficients of the potentials, as the kernel bodies read them.
 *
 * pot_params holds every coefficient twice, once per arithmetic type, so a float kernel
 * never converts a double on its hot path. pot_params_init() (pot_table.c) fills it from
 * the configuration, each term of the registry its own part (potential.h); the kernels
 * receive it by value.
 *
 * One species (ntypes 1): the scalars of pot_coef are the whole potential, the values and the
 * code path of before the species (the tables hold the same values at index 0). Several: the
 * bodies read the tables; the scalars are then the envelopes a driver needs without a type:
 * nu the largest |nu| (0 iff no triplet runs), lj_rc2 the largest rc^2 (the lists' LJ radius),
 * lj_eps4, lj_sig2, lj_eshift those of pair (0, 0), read by no typed body. Cutoffs of ATM
 * (atm_rc2, atm_rct6) are global, as in LAMMPS's pair_style atm. */
#ifndef TB_POT_PARAMS_H
#define TB_POT_PARAMS_H

#include "common/tb.h"
#include "solver/box.h"

/* "No cutoff" is a squared distance no pair reaches (finite, so fast-math keeps it). */
#define TB_NO_CUTOFF2 1.0e30
/* "No product limit" for r_ij^2 r_jk^2 r_ki^2: finite in float too (FLT_MAX ~ 3.4e38). */
#define TB_NO_CUTOFF6 3.0e38

/* The per-species tables (several species): fixed strides of TB_TYPES_MAX, so an index is
 * shifts and ors of the types, whatever the number of species:
 *   lj[POT_PAIR(ti, tj)]       the LJ coefficients of the pair (symmetric: both orders filled),
 *   nu[POT_TRIPLET(ti, tj, tk)] ATM's nu of the triplet (every permutation filled; 0 = skipped),
 *   sw2[POT_PAIR(ti, tj)], sw3[POT_TRIPLET(ti, tj, tk)] Stillinger-Weber's legs and angles
 *   (ordered: the triplet is centred at ti; term_sw.c).
 * A pair beyond its cutoff has rc2 = 0 (no LJ between those species). */
#define POT_PAIR(ti, tj) ((ti) * TB_TYPES_MAX + (tj))
#define POT_TRIPLET(ti, tj, tk) (((ti) * TB_TYPES_MAX + (tj)) * TB_TYPES_MAX + (tk))

#define TB_DEFINE_POT_TAB(REAL, SUF)                                                       \
    typedef struct pot_lj_pair_##SUF {                                                     \
        REAL eps4, sig2, rc2, eshift; /* as pot_coef's lj_* for this pair */              \
    } pot_lj_pair_##SUF;                                                                   \
    typedef struct pot_sw_pair_##SUF { /* SW's leg (ti, tj), from entry (ti, tj, tj) */   \
        REAL cut, cutsq;      /* a sigma; the pair's cutoff^2 (less by tol, LAMMPS's) */    \
        REAL sigma, sigma_gamma, p, q;                                                     \
        REAL c1, c2, c3, c4, c5, c6; /* A eps (p B s^p, q s^q, B s^(p+1), s^(q+1), B s^p,   \
                                        s^q): LAMMPS's pair_sw setup_params */              \
    } pot_sw_pair_##SUF;                                                                   \
    typedef struct pot_sw_trip_##SUF { /* SW's angle (ti; tj, tk) from entry (ti, tj, tk) */ \
        REAL lambda_epsilon, costheta0;                                                    \
    } pot_sw_trip_##SUF;                                                                   \
    typedef struct pot_tab_##SUF {                                                         \
        pot_lj_pair_##SUF lj[TB_TYPES_MAX * TB_TYPES_MAX];                                 \
        REAL nu[TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX];                               \
        pot_sw_pair_##SUF sw2[TB_TYPES_MAX * TB_TYPES_MAX];     /* POT_PAIR(ti, tj) */      \
        pot_sw_trip_##SUF sw3[TB_TYPES_MAX * TB_TYPES_MAX * TB_TYPES_MAX]; /* POT_TRIPLET */ \
    } pot_tab_##SUF;
TB_DEFINE_POT_TAB(double, d)
TB_DEFINE_POT_TAB(float, f)
#undef TB_DEFINE_POT_TAB

#define TB_DEFINE_POT_COEF(REAL, SUF)                                                      \
    typedef struct pot_coef_##SUF {                                                        \
        REAL nu;        /* ATM coefficient [epsilon sigma^9] */                            \
        REAL atm_rc2;   /* ATM cutoff squared [sigma^2]; TB_NO_CUTOFF2 if none */          \
        REAL atm_rct6;  /* cutoff_triple^6 [sigma^6]: r_ij r_jk r_ki <= cutoff_triple^3;    \
                           TB_NO_CUTOFF6 if none */                                       \
        REAL lj_eps4;   /* 4 epsilon [epsilon] */                                          \
        REAL lj_sig2;   /* sigma^2 [sigma^2] */                                            \
        REAL lj_rc2;    /* LJ cutoff squared [sigma^2] */                                  \
        REAL lj_eshift; /* LJ energy at the cutoff, subtracted when shifting [epsilon] */   \
        tb_box_##SUF box; /* the box (box.h); no periodic axis = open boundaries */      \
        int ntypes;       /* species; 1: the scalars above are the whole potential and the  \
                             kernels take their one-species path (tab unused) */          \
        const pot_tab_##SUF *tab; /* ntypes > 1: the tables, in the memory of the code   \
                             that reads them (host; a GPU backend points at its copy) */  \
    } pot_coef_##SUF;
TB_DEFINE_POT_COEF(double, d)
TB_DEFINE_POT_COEF(float, f)
#undef TB_DEFINE_POT_COEF

typedef struct pot_params {
    int atm_on;   /* 1 when nu != 0: the triplet term runs */
    int lj_on;    /* 1 when the pair term runs */
    int sw_on;    /* 1 when Stillinger-Weber runs (alone: the tables' sw2, sw3, read with
                     one species too; the CPU's centred-triplet list path, sw_cpu.h) */
    int periodic; /* 1 when an axis of the box is periodic */
    pot_coef_d d;
    pot_coef_f f;
    pot_tab_d tab_d; /* the tables d.tab and f.tab point at (pot_params_point) */
    pot_tab_f tab_f;
} pot_params;

struct sim_config;

TB_BEGIN_DECLS
/* Fills p from the potential and system settings of c (pot_table.c). */
void pot_params_init(pot_params *p, const struct sim_config *c);
/* Sets the float copy of every coefficient to its double one, rounded (the last step of
 * pot_params_init). */
void pot_params_round(pot_params *p);
/* Points d.tab and f.tab at p's own tables (after pot_params is copied). */
void pot_params_point(pot_params *p);

/* The box the evaluations use: the state's (sim_state.box, which a file may have given), in
 * both types. pot_params_init starts from the config's (cfg_box); a backend then sets the
 * state's. */
/* The same for the box the state holds (a file's box, or a box that moves): the terms' tables
 * are built against it (the ATM cutoff's periodic default is a quarter of its smallest
 * periodic width). pot_params_init is this with the config's box, cfg_box(c). */
void pot_params_init_box(pot_params *p, const struct sim_config *c, const tb_box_d *box);
TB_END_DECLS

#endif
