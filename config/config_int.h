/* config_int.h — what config.c (the schema, reading, --set) and config_checks.c (the checks
 * across settings) share: the schema's row type, the state of one cfg_load and the reporting.
 * Not a public interface: config.h is. */
#ifndef TB_CONFIG_INT_H
#define TB_CONFIG_INT_H

#include <stddef.h>

#include <libconfig.h>

#include "config/config.h"

/* How a setting is read and where its value goes. */
enum cfg_kind {
    K_GROUP,  /* a group of settings, no value of its own */
    K_INT,    /* int field; libconfig int (or int64, then range-checked) */
    K_LONG,   /* long field; int or int64 */
    K_ULONG,  /* unsigned long field; int or int64, >= 0 by its range */
    K_FLOAT,  /* double field; float, or an integer converted */
    K_BOOL,   /* int field, 0 or 1 */
    K_STRING, /* char[] field: an output path ("" disables) */
    K_FILE,   /* char[] field: an input file, resolved against the config file's directory */
    K_CHOICE, /* int field: the index of the value in the row's choices[] */
    K_MAP3D,  /* char[] field: a name in the map3d registry */
    K_MAP2D,  /* char[] field: a name in the map2d registry */
    K_ROOT,   /* char[] field: a lambda2d root variant (map2d_root_find) */
    K_BOUNDARY, /* system.boundary: "open", "periodic" or per axis "ppf" (config_box.c) */
    K_BOX,      /* system.box: a number (a cube) or the group { lengths; tilt; origin; } */
    K_LIST    /* a list ( ... ) or array [ ... ]: only its type is checked as it is met; it is
                 read by config_species.c once every setting was (its entries name species) */
};

#define CF_REQUIRED 1u /* no default: the file (or a --set) must give it */
/* Defines the physics: a restart must keep it, unless --allow-change names it (config_physics.c,
 * solver/io/restart.c). Adding a setting that changes the dynamics means marking its row. */
#define CF_PHYSICS 2u
/* A physics row newer than the checkpoints' PHYS text: a checkpoint that lacks its line was
 * written before it existed, with the setting at its default (cfg_physics_absent). */
#define CF_ABSENT_DEFAULT 4u

/* One row of the schema. `def` is the default as a config file would write it (strings without
 * quotes; NULL: no default, the field stays 0). `range` is one of "> X", ">= X", "LO .. HI" for
 * numbers; for rows with a `check` hook it is only prose. Every field here is also printed by
 * cfg_schema_get() and documented in docs/config.md (tests/test_config.c compares the two). */
typedef struct cfg_row {
    const char *path;
    enum cfg_kind kind;
    const char *def;
    const char *range;
    const char *const *choices; /* K_CHOICE: NULL-terminated value names, in enum order */
    const char *unit;
    const char *doc;
    size_t off, size;           /* the field in sim_config; K_GROUP: 0, or an int field that
                                   says whether the group was given (potential.lj) */
    unsigned flags;
    int (*check)(long long v);  /* extra rule on an integer (1 = fine), replacing `range` */
    const char *follows;        /* a physics row whose default is derived from this setting
                                   (potential.atm.cutoff: L/4 of system.box): allowing a change
                                   of that setting on restart allows this one's too */
    /* K_LIST: the value as the physics text writes it (config_species.c) */
    void (*text)(const sim_config *c, char *buf, size_t size);
} cfg_row;

#define CFG_MAX_ROWS 128 /* at least the schema's rows (checked in config.c) */

/* The schema (config.c), cfg_n_rows rows in the order of docs/config.md. */
extern const cfg_row *const cfg_rows;
extern const int cfg_n_rows;

/* State of one cfg_load. */
typedef struct cfg_ctx {
    const char *path; /* the config file as given (cfg_load_text: the name given for the text) */
    const char *text; /* cfg_load_text: the configuration itself; NULL: read path */
    char dir[CFG_PATH_MAX]; /* its directory with a trailing slash, "" for the current one */
    sim_config *c;
    int n_err;
    const config_setting_t *src[CFG_MAX_ROWS]; /* where each setting was given; NULL: default */
    unsigned char bad[CFG_MAX_ROWS];           /* 1: given but rejected */
} cfg_ctx;

/* Index of the schema row named path, or -1; cfg_row_of: the row, which must exist. */
int cfg_row_find(const char *path);
int cfg_row_of(const char *path);
/* The allowed range of row r in words ("> 0 tau", "between 1 and 16 thermostats") into buf,
 * its unit named in the style `units` (enum cfg_units: "> 0 ps" in metal). */
void cfg_range_phrase(const cfg_row *r, int units, char *buf, size_t len);
/* v as a config file would write it, into buf. */
const char *cfg_fmt_num(double v, char buf[32]);
/* Reports a problem with setting `path`, located where s was given (s NULL: the file itself). */
void cfg_problem(cfg_ctx *x, const config_setting_t *s, const char *path, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* The rest of the reporting (config_report.c). */
const char *cfg_kind_phrase(enum cfg_kind k);
const char *cfg_type_phrase(int t);
void cfg_problem_set(cfg_ctx *x, const char *set, const char *path, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void cfg_source_path(const cfg_ctx *x, const config_setting_t *s, char *buf, size_t len);
void cfg_unknown_setting(cfg_ctx *x, const config_setting_t *s, const char *set, const char *path);

/* Integer literals as written in a file (config.c), and the --set overrides merged into the
 * parsed tree before any check (config_set.c). */
void cfg_merge_set(cfg_ctx *x, config_t *cf, char *set);
const char *cfg_int_literal(const char *p, long long *v);
int cfg_literal_overflows(const char *p);
int cfg_truncated_to(long long v, int low);
/* The integer value of s as written (a literal libconfig 1.5 cut to 32 bits is reread from
 * the setting's source line, when s has a name there). */
long long cfg_int_value(const cfg_ctx *x, const config_setting_t *s);
/* Whether the literal of setting s, as written on its source line, overflows 64 bits; copies
 * it into lit (config_literal.c). */
int cfg_source_literal_overflows(const cfg_ctx *x, const config_setting_t *s, char *lit,
                                 size_t size);

/* system.boundary and system.box (config_box.c): read setting s of row r, 0 or -1 (reported). */
int cfg_take_boundary(cfg_ctx *x, const cfg_row *r, const config_setting_t *s);
int cfg_take_box(cfg_ctx *x, const cfg_row *r, const config_setting_t *s);

/* Every check that involves more than one setting, after all were read (config_checks.c). */
void cfg_cross_check(cfg_ctx *x);
/* output.rdf and output.msd: their groups' presence, r_max against the box (config_output.c). */
void cfg_check_output(cfg_ctx *x);

/* The species and what refers to them (config_species.c): system.species first, then
 * system.init.composition, potential.lj.pairs and potential.atm.triplets, read from where
 * they were given and checked across settings. cfg_cross_check calls it. */
void cfg_read_species(cfg_ctx *x);
/* potential.sw: its file read into c->potential.sw.p and checked (config_sw.c); the physics
 * text of potential.sw.file (the parameters in effect). */
void cfg_read_sw(cfg_ctx *x);
void cfg_sw_text(const sim_config *c, char *buf, size_t size);
/* Reports a problem located at line of another file (a potential file) than the config. */
void cfg_problem_at(cfg_ctx *x, const char *file, int line, const char *path, const char *fmt,
                    ...)
#ifdef __GNUC__
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* The K_LIST rows' physics text (cfg_row.text). */
void cfg_species_text(const sim_config *c, char *buf, size_t size);
void cfg_pairs_text(const sim_config *c, char *buf, size_t size);
void cfg_triplets_text(const sim_config *c, char *buf, size_t size);
/* Shared by the readers (config_checks.c): the setting where path was given and accepted,
 * else NULL; whether it was given and rejected; where to point a message about path (where it
 * was given, else its nearest given group, else the file). */
const config_setting_t *cfg_given(const cfg_ctx *x, const char *path);
int cfg_rejected(const cfg_ctx *x, const char *path);
const config_setting_t *cfg_near_src(const cfg_ctx *x, const char *path);

#endif
