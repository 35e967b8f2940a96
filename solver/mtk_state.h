/* mtk_state.h — the plain numbers of an MTK step (physics/baro.h) with its Nose-Hoover chain
 * (physics/integrate.h), or of C-rescale's rescales, that a backend may hold during a run
 * (backend.h's `mtk`: the GPU keeps them on the device, so a step needs no host round trip for
 * its pressure and its chain), and the parameters of one call. The arithmetic over them:
 * physics/mtk_body.h, physics/crescale_body.h. */
#ifndef TB_MTK_STATE_H
#define TB_MTK_STATE_H

#include "common/tb.h"
#include "solver/box.h"

#define MTK_NH_MAX 16 /* the longest chain (integrate.c's NH_MAX) */

/* What moves during the run; the host's copies (baro.c, integrate.c) are brought up to date
 * from it where the run looks at them (integ_sync: thermo, checkpoint, the end). */
typedef struct mtk_state {
    double om[6];      /* the strain rates (baro.c's om: iso om[0]; aniso xx yy zz; tri + xy xz yz) */
    double w_mass;     /* their mass W at the last kick */
    double p_last;     /* the target pressure of the last kick */
    double w_prev[6];  /* the virial of the last evaluation (the next step's "before") */
    double eta[MTK_NH_MAX], veta[MTK_NH_MAX]; /* the chain */
    double e_bath;     /* the chain's energy after its last half step */
    double scale;      /* the chain's last velocity factor */
    double vm[6];      /* the velocities' map of the half step (iso: vm[0..2] the factor) */
    double map[6];     /* the box map exp(h Omega) of the half step (box_deform_d) */
    double K;          /* the kinetic energy the last pressure took */
    /* The box, when the backend moves it (MTK_BEGIN answered 1: MTK_MOVE deforms it by map,
     * mtk_box_move), and the first fault of a moved box (mtk_box_fault), read late. */
    tb_box_d box;
    int box_dev;       /* 1: box is the backend's (brought back by MTK_PULL) */
    int fault;         /* 0, or mtk_box_fault's code of the first bad box */
    long fault_step;   /* its step */
    tb_box_d fault_box; /* and that box */
    /* C-rescale (physics/crescale_body.h; the CRS phases): the stretch mu is map[0..2], 1/mu
     * vm[0..2]; the work W of baro.h and the virial the rescale's pressure came from. */
    double work;
    double w_old[6];
} mtk_state;

/* One call's parameters (by value to the device). */
typedef struct mtk_par {
    int coupling;      /* CFG_COUPLE_* */
    int n, dof, m;     /* particles, N_f, chain length */
    double nktv2p, period_p, period_t; /* pressure unit factor, tau_P, tau_T */
    double kT, h;      /* the step's target kT [energy] and half step [time] */
    double p0;         /* the step's target pressure */
    double vol;        /* the box's volume at the kick (box_dev: the state's box's) */
    double v0, range;  /* the box's first volume and the widest cutoff (mtk_box_fault) */
    long step;         /* the step (a box's fault names it) */
    double cr_f;       /* C-rescale: beta dt_P / tau_P (kT < 0: the kinetic temperature) */
    double xi[3];      /* C-rescale: the rescale's standard normals, drawn by the host */
} mtk_par;

/* backend.h's mtk phases (CRS_*: C-rescale's, integrate.c's crs_step_dev). */
enum { MTK_PUSH = 0, MTK_BEGIN = 1, MTK_END = 2, MTK_PULL = 3, MTK_MOVE = 4, CRS_PUSH = 5,
       CRS_BEGIN = 6, CRS_EVAL = 7, CRS_KEEP = 8, CRS_NHC_BEGIN = 9, CRS_NHC_END = 10,
       CRS_FORCES = 11 };

#endif
