/* pot_params.h — the coefficients of the potentials, as the kernel bodies read them.
 *
 * pot_params holds every coefficient twice, once per arithmetic type, so a float kernel
 * never converts a double on its hot path. pot_params_init() (pot_table.c) fills it from
 * the configuration; the kernels receive it by value. */
#ifndef TB_POT_PARAMS_H
#define TB_POT_PARAMS_H

#include "common/tb.h"
#include "solver/box.h"

/* "No cutoff" is a squared distance no pair reaches (finite, so fast-math keeps it). */
#define TB_NO_CUTOFF2 1.0e30
/* "No product limit" for r_ij^2 r_jk^2 r_ki^2: finite in float too (FLT_MAX ~ 3.4e38). */
#define TB_NO_CUTOFF6 3.0e38

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
    } pot_coef_##SUF;
TB_DEFINE_POT_COEF(double, d)
TB_DEFINE_POT_COEF(float, f)
#undef TB_DEFINE_POT_COEF

typedef struct pot_params {
    int atm_on;   /* 1 when nu != 0: the triplet term runs */
    int lj_on;    /* 1 when the pair term runs */
    int periodic; /* 1 for a periodic cubic box */
    pot_coef_d d;
    pot_coef_f f;
} pot_params;

struct sim_config;

TB_BEGIN_DECLS
/* Fills p from the potential and system settings of c (pot_table.c). */
void pot_params_init(pot_params *p, const struct sim_config *c);
/* Sets the float copy of every coefficient to its double one, rounded (the last step of
 * pot_params_init). */
void pot_params_round(pot_params *p);
TB_END_DECLS

#endif
