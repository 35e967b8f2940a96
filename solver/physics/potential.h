/* potential.h — the potential as a unit: its terms (the registry terms.def), each owning what
 * its settings mean, whether it runs, its interaction range and its coefficient tables; and the
 * questions the rest of the solver asks of the whole potential instead of reading the raw
 * configuration: the list radius and whether every term has a cutoff (nbr_list.c), the
 * shortest range (integrate.c's first-step check), the widest term (cli/step_cost.c), the ATM
 * cutoff in effect and its periodic default (validate, the GPU's all-triplets limit).
 *
 * A term's body (the energy and derivatives of one pair or triplet: pot_lj.h, pot_atm.h) is
 * shared by both backends and both precisions through pot.h; the host side here runs once,
 * at a backend's creation (pot_params_init, pot_table.c, calls each term's build). The
 * backends' drivers run the terms by body (pair or triplet), the maps place the blocks: a new
 * term of an existing body touches neither. docs/architecture.md, "The potential". */
#ifndef TB_POTENTIAL_H
#define TB_POTENTIAL_H

#include "config/config.h"
#include "solver/box.h"
#include "solver/physics/pot_params.h"

TB_BEGIN_DECLS

/* What a term's body takes: two particles (the pair driver), three (the triplet driver), or a
 * centre with all its neighbours (Stillinger-Weber: pairs and angles at the centre). */
enum pot_body { POT_BODY_PAIR = 2, POT_BODY_TRIPLET = 3, POT_BODY_CENTRED = 4 };

/* The terms' indices in registry order: POT_TERM_lj, POT_TERM_atm, ..., POT_NTERMS. */
enum pot_term_id {
#define POT_TERM(name, body, summary) POT_TERM_##name,
#include "solver/physics/terms.def"
#undef POT_TERM
    POT_NTERMS
};

typedef struct pot_term {
    const char *name;           /* "lj": the settings group potential.<name> */
    int body;                   /* enum pot_body */
    const char *summary;        /* one line */
    /* 1 when the term runs for c (a group present, a coefficient not zero) */
    int (*on)(const sim_config *c);
    /* The smallest and largest cutoff over its species pairs or triplets for c in box
     * [sigma]; both 0 when it has none (it reaches every particle). *setting: the setting a
     * message about that range names ("potential.lj.cutoff"). Asked only when on. */
    void (*cutoffs)(const sim_config *c, const tb_box_d *box, double *lo, double *hi,
                    const char **setting);
    /* Fills its part of p in double (p zeroed, p->d.box and p->d.ntypes set): its on flag,
     * its scalars and its per-species tables; pot_params_round makes the float copy. */
    void (*build)(pot_params *p, const sim_config *c);
} pot_term;

/* The registry: POT_NTERMS terms in the order of terms.def, then NULL. */
extern const pot_term *const pot_terms[];

/* What each term's file (term_<name>.c) defines, the three functions of its pot_term. */
#define POT_TERM(name, body, summary)                                                      \
    int pot_##name##_on(const sim_config *c);                                              \
    void pot_##name##_cutoffs(const sim_config *c, const tb_box_d *box, double *lo,        \
                              double *hi, const char **setting);                           \
    void pot_##name##_build(pot_params *p, const sim_config *c);
#include "solver/physics/terms.def"
#undef POT_TERM

/* The term called name, or NULL. */
const pot_term *pot_term_find(const char *name);

/* The largest cutoff over the terms that run [sigma] (the neighbour lists' radius less the
 * skin); *all_cut = 1 when some term runs and every one that runs has a cutoff. */
double pot_range(const sim_config *c, const tb_box_d *box, int *all_cut);

/* The smallest cutoff over the terms that run [sigma] and the setting it comes from; 0 (and
 * *setting NULL) when none of them has a cutoff. */
double pot_range_min(const sim_config *c, const tb_box_d *box, const char **setting);

/* The term that runs with the largest cutoff (the one that sets the list radius) and that
 * cutoff in *range; NULL when no term runs. */
const pot_term *pot_widest(const sim_config *c, const tb_box_d *box, double *range);

/* ATM's cutoff in effect [sigma]: potential.atm.cutoff when given (> 0), else the periodic
 * default pot_atm_cutoff_default(box), else 0 (none: an open cluster). */
double pot_atm_cutoff(const sim_config *c, const tb_box_d *box);

/* A quarter of the smallest periodic width of box (L/4 of a cube; 0 when no axis is
 * periodic): the default ATM cutoff of a periodic box and the largest the all-triplets paths
 * take there. Up to it the image triangle of a triplet is the same seen from each of its
 * corners (docs/physics.md), so the triangle anchored at the lowest index is the LAMMPS one.
 * The config's default (config_checks.c, which cannot include solver/) is the same L/4. */
double pot_atm_cutoff_default(const tb_box_d *box);

/* The LJ coefficients of every ordered species pair of c (nt = n_species, TB_TYPES_MAX
 * stride: x[POT_PAIR(ti, tj)]), each from cfg_lj_coeffs (config.h), the one rule of what a pair
 * gets: the pairs given, the shorthand, LAMMPS's mixing (pair_lj_cut init_one; geometric or
 * arithmetic). The config owns the rule because its own checks (a cutoff against the box)
 * need it before any solver exists. Returns nt. (term_lj.c) */
int pot_lj_pairs(const sim_config *c, double *eps, double *sigma, double *rc);

TB_END_DECLS

#endif
