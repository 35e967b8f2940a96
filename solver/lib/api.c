/* api.c — the C API of include/tribody.h over the engine (engine.h): argument checks, the
 * library's lock, and the messages of each call kept per thread for tribody_last_error(). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/tribody.h"
#include "common/check.h"
#include "solver/lib/engine.h"
#include "solver/physics/potential.h"

struct tribody {
    tb_engine e;
};

/* One call at a time in the whole library: the messages' sink, the config loader's scratch
 * and the error count are process-wide. */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local char g_msg[2048];
static int g_verbose = 0;
static tb_sink_fn g_prev; /* the sink before the call (another face's, e.g. MPI's) */

/* The first message of a call is the one kept (later ones follow from it). */
static void keep(const char *line)
{
    if (!g_msg[0]) {
        snprintf(g_msg, sizeof g_msg, "%s", line);
        g_msg[strcspn(g_msg, "\n")] = '\0';
    }
    if (g_verbose) {
        if (g_prev)
            g_prev(line);
        else
            fprintf(stderr, "tribody: %s", line);
    }
}

static void enter(void)
{
    pthread_mutex_lock(&g_lock);
    g_msg[0] = '\0';
    g_prev = tb_swap_sink(keep);
}

/* Leaves a call with its status: a failure without a message (none should be) gets one. */
static int leave(int rc)
{
    tb_swap_sink(g_prev);
    if (rc < 0)
        rc = TRIBODY_ERUNTIME;
    if (rc != 0 && !g_msg[0])
        snprintf(g_msg, sizeof g_msg, "tribody: the call failed (status %d)", rc);
    pthread_mutex_unlock(&g_lock);
    return rc;
}

/* An argument error of the caller, in the house's form. */
static int bad_arg(const char *fn, const char *what)
{
    tb_error(NULL, 0, "%s: %s", fn, what);
    return TRIBODY_EINPUT;
}

int tribody_api_version(void) { return TRIBODY_API_VERSION; }

const char *tribody_last_error(void) { return g_msg; }

void tribody_set_verbose(int on) { g_verbose = on != 0; }

/* box[9] and periodic[3] as a tb_box_d (periodic NULL: open everywhere). */
static tb_box_d box_of(const double *box, const int *periodic)
{
    const int none[3] = {0, 0, 0};
    const double zero[9] = {0};
    const double *b = box ? box : zero;
    return box_make_d(b, b[3], b[4], b[5], b + 6, periodic ? periodic : none);
}

/* The configuration of a new handle (path, or text when path is NULL); extra: one more
 * override of the library's own (system.particles for arrays), or NULL. */
static int open_config(tribody **out, const char *path, const char *text, int n_set,
                       const char *const *sets, const char *extra, tribody **t)
{
    if (!out)
        return bad_arg("tribody_create", "out is NULL");
    *out = NULL;
    if (!path && !text)
        return bad_arg("tribody_create", "neither a config path nor a config text");
    if (n_set < 0 || (n_set > 0 && !sets))
        return bad_arg("tribody_create", "n_set > 0 with sets NULL, or n_set < 0");
    char **all = calloc((size_t)n_set + 2, sizeof *all);
    *t = calloc(1, sizeof **t);
    if (!all || !*t) {
        free(all);
        free(*t);
        return tb_error(NULL, 0, "out of host memory"), TRIBODY_ERUNTIME;
    }
    for (int i = 0; i < n_set; i++) {
        if (!sets[i]) {
            free(all);
            return bad_arg("tribody_create", "a NULL entry in sets");
        }
        all[i] = (char *)sets[i]; /* cfg_load only reads them */
    }
    if (extra)
        all[n_set++] = (char *)extra;
    const int rc = engine_config(&(*t)->e, path ? path : "<config text>", path ? NULL : text,
                                 n_set, all);
    free(all);
    return rc;
}

/* Either the new handle in *out and 0, or everything freed and the status. */
static int finish_create(tribody **out, tribody *t, int rc)
{
    if (rc == 0)
        rc = engine_start(&t->e);
    if (rc != 0) {
        if (t)
            engine_free(&t->e);
        free(t);
        return rc;
    }
    *out = t;
    return 0;
}

int tribody_create(tribody **out, const char *path, const char *text, int n_set,
                   const char *const *sets)
{
    tribody *t = NULL;
    enter();
    int rc = open_config(out, path, text, n_set, sets, NULL, &t);
    if (rc == 0)
        rc = engine_state_from_config(&t->e);
    return leave(out ? finish_create(out, t, rc) : rc);
}

int tribody_create_system(tribody **out, const char *path, const char *text, int n_set,
                          const char *const *sets, int n, const double *pos, const int *species,
                          const double *box, const int *periodic)
{
    tribody *t = NULL;
    char extra[64];
    enter();
    if (!pos || n < 1 || (periodic && !box)) {
        if (out)
            *out = NULL;
        return leave(bad_arg("tribody_create_system", !pos ? "pos is NULL"
                                                            : n < 1 ? "n must be >= 1"
                                                                    : "periodic axes need a box"));
    }
    snprintf(extra, sizeof extra, "system.particles=%d", n);
    int rc = open_config(out, path, text, n_set, sets, extra, &t);
    if (rc == 0) {
        const tb_box_d b = box_of(box, periodic);
        rc = engine_state_from_arrays(&t->e, n, pos, species, &b);
    }
    return leave(out ? finish_create(out, t, rc) : rc);
}

void tribody_destroy(tribody *t)
{
    if (!t)
        return;
    enter();
    engine_free(&t->e);
    free(t);
    leave(0);
}

/* The calls on a handle: t and the array must be there. */
#define HANDLE_CALL(fn, ptr, body)                                                         \
    do {                                                                                   \
        enter();                                                                           \
        if (!t || !(ptr))                                                                  \
            return leave(bad_arg(fn, !t ? "the handle is NULL" : "the array is NULL"));    \
        return leave(body);                                                                \
    } while (0)

int tribody_set_positions(tribody *t, const double *pos)
{
    HANDLE_CALL("tribody_set_positions", pos, engine_set_positions(&t->e, pos, NULL));
}

int tribody_set_positions_copy(tribody *t, const double *pos, double *copy)
{
    HANDLE_CALL("tribody_set_positions_copy", pos && copy, engine_set_positions(&t->e, pos, copy));
}

/* A moved state differs in its first coordinates: the head is compared alone first, and the
 * whole (threaded) only when the head is the same. */
#define CHANGED_HEAD 4096

static int positions_changed(tribody *t, const double *pos, double *copy, int *changed)
{
    const double t0 = engine_now();
    const size_t bytes = 3 * (size_t)t->e.s.n * sizeof *pos;
    const size_t head = bytes < CHANGED_HEAD ? bytes : CHANGED_HEAD;
    *changed = !(memcmp(pos, copy, head) == 0 &&
                 (head == bytes || sim_same_bytes(pos, copy, bytes)));
    t->e.tm[ENGINE_SET] += engine_now() - t0;
    return *changed ? engine_set_positions(&t->e, pos, copy) : 0;
}

int tribody_set_positions_changed(tribody *t, const double *pos, double *copy, int *changed)
{
    HANDLE_CALL("tribody_set_positions_changed", pos && copy && changed,
                positions_changed(t, pos, copy, changed));
}

int tribody_set_velocities(tribody *t, const double *vel)
{
    HANDLE_CALL("tribody_set_velocities", vel, engine_set_velocities(&t->e, vel));
}

static int set_box(tribody *t, const double *box, const int *periodic)
{
    int per[3];
    for (int a = 0; a < 3; a++)
        per[a] = periodic ? periodic[a] != 0 : t->e.s.box.pbc >> a & 1;
    const tb_box_d b = box_of(box, per);
    return engine_set_box(&t->e, &b);
}

int tribody_set_box(tribody *t, const double *box, const int *periodic)
{
    HANDLE_CALL("tribody_set_box", box, set_box(t, box, periodic));
}

int tribody_compute(tribody *t)
{
    HANDLE_CALL("tribody_compute", t, engine_compute(&t->e, "the state"));
}

int tribody_run(tribody *t, long k)
{
    HANDLE_CALL("tribody_run", t, engine_run(&t->e, k));
}

int tribody_write_checkpoint(tribody *t, const char *path)
{
    HANDLE_CALL("tribody_write_checkpoint", path, engine_checkpoint(&t->e, path));
}

static int energy(tribody *t, int term, double *e)
{
    const int rc = engine_compute(&t->e, "the state");
    if (rc != 0)
        return rc;
    const sim_state *s = &t->e.s;
    switch (term) {
    case TRIBODY_TOTAL: *e = s->e_pair + s->e_triplet; return 0;
    case TRIBODY_PAIR: *e = s->e_pair; return 0;
    case TRIBODY_TRIPLET: *e = s->e_triplet; return 0;
    default: return bad_arg("tribody_energy", "term must be TRIBODY_TOTAL, _PAIR or _TRIPLET");
    }
}

int tribody_energy(tribody *t, int term, double *e)
{
    HANDLE_CALL("tribody_energy", e, energy(t, term, e));
}

static int forces(tribody *t, double *f)
{
    const int rc = engine_compute(&t->e, "the state");
    if (rc == 0) {
        const double t0 = engine_now();
        sim_copy_doubles(f, t->e.s.force, 3 * (size_t)t->e.s.n);
        t->e.tm[ENGINE_COPY] += engine_now() - t0;
    }
    return rc;
}

int tribody_forces(tribody *t, double *f)
{
    HANDLE_CALL("tribody_forces", f, forces(t, f));
}

/* The forces into f and, in the same pass, into f2 (a binding's results and the copy it hands
 * out: src read once), on the threads of the host passes (sim_host_threads). */
static void copy_twice(double *f, double *f2, const double *src, size_t count)
{
    const size_t bytes = count * sizeof *src, piece = 65536;
    const long pieces = (long)((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) num_threads(sim_host_threads()) if (pieces >= 4)
    for (long k = 0; k < pieces; k++) {
        const size_t at = (size_t)k * piece, m = bytes - at < piece ? bytes - at : piece;
        memcpy((char *)f + at, (const char *)src + at, m);
        memcpy((char *)f2 + at, (const char *)f + at, m); /* the piece just written: cached */
    }
}

static int evaluate(tribody *t, double *e, double *f, double *f2, double *w)
{
    const int rc = f && !f2 ? forces(t, f) : engine_compute(&t->e, "the state");
    if (rc != 0)
        return rc;
    if (f && f2) {
        const double t0 = engine_now();
        copy_twice(f, f2, t->e.s.force, 3 * (size_t)t->e.s.n);
        t->e.tm[ENGINE_COPY] += engine_now() - t0;
    }
    if (e)
        *e = t->e.s.e_pair + t->e.s.e_triplet;
    if (w)
        memcpy(w, t->e.s.virial, sizeof t->e.s.virial);
    return 0;
}

int tribody_evaluate(tribody *t, double *energy, double *forces, double *forces_copy,
                     double *virial)
{
    HANDLE_CALL("tribody_evaluate", t && (forces || !forces_copy),
                evaluate(t, energy, forces, forces_copy, virial));
}

static int virial(tribody *t, int term, double *w)
{
    if (term == TRIBODY_PAIR || term == TRIBODY_TRIPLET)
        return engine_term_virial(&t->e, term == TRIBODY_PAIR ? 0 : 1, w);
    if (term != TRIBODY_TOTAL)
        return bad_arg("tribody_virial", "term must be TRIBODY_TOTAL, _PAIR or _TRIPLET");
    const int rc = engine_compute(&t->e, "the state");
    if (rc == 0)
        memcpy(w, t->e.s.virial, sizeof t->e.s.virial);
    return rc;
}

int tribody_virial(tribody *t, int term, double *w)
{
    HANDLE_CALL("tribody_virial", w, virial(t, term, w));
}

static int pressure(tribody *t, double *p)
{
    const int rc = engine_compute(&t->e, "the state");
    if (rc == 0 && sim_pressure(&t->e.s, p) != 0)
        return bad_arg("tribody_pressure", "no periodic axis, so no volume and no pressure");
    return rc;
}

int tribody_pressure(tribody *t, double *p)
{
    HANDLE_CALL("tribody_pressure", p, pressure(t, p));
}

_Static_assert(ENGINE_PHASES == TRIBODY_TIMINGS, "tribody.h and engine.h disagree on the phases");

static int timings(tribody *t, double *sec, long long *evals)
{
    memcpy(sec, t->e.tm, sizeof t->e.tm);
    if (evals)
        *evals = t->e.n_eval;
    return 0;
}

int tribody_timings(tribody *t, double *sec, long long *evals)
{
    HANDLE_CALL("tribody_timings", sec, timings(t, sec, evals));
}

/* The views and facts: plain reads of the handle. */
const double *tribody_positions(const tribody *t) { return t ? t->e.s.pos : NULL; }
const double *tribody_velocities(const tribody *t) { return t ? t->e.s.vel : NULL; }
const double *tribody_forces_view(const tribody *t) { return t ? t->e.s.force : NULL; }
const int *tribody_species(const tribody *t) { return t ? t->e.s.type : NULL; }
int tribody_count(const tribody *t) { return t ? t->e.s.n : 0; }
long tribody_step(const tribody *t) { return t ? t->e.s.step : 0; }
double tribody_time(const tribody *t) { return t ? t->e.s.time : 0.0; }
const char *tribody_units(const tribody *t) { return t ? cfg_units_name(t->e.cfg.units) : ""; }
const char *tribody_backend(const tribody *t) { return t && t->e.ops ? t->e.ops->name : ""; }
int tribody_species_count(const tribody *t) { return t ? t->e.s.ntypes : 0; }

const char *tribody_precision(const tribody *t)
{
    return t ? cfg_precision_name(t->e.cfg.solver.precision) : "";
}

const char *tribody_species_name(const tribody *t, int i)
{
    return t && i >= 0 && i < t->e.s.ntypes ? t->e.s.type_name[i] : NULL;
}

double tribody_species_mass(const tribody *t, int i)
{
    return t && i >= 0 && i < t->e.cfg.system.n_species ? t->e.cfg.system.species[i].mass : 0.0;
}

int tribody_box(const tribody *t, double *box, int *periodic)
{
    if (!t || !box)
        return TRIBODY_EINPUT;
    const tb_box_d *b = &t->e.s.box;
    const double v[9] = {b->l[0], b->l[1], b->l[2], b->xy, b->xz, b->yz, b->lo[0], b->lo[1], b->lo[2]};
    memcpy(box, v, sizeof v);
    for (int a = 0; periodic && a < 3; a++)
        periodic[a] = b->pbc >> a & 1;
    return 0;
}

int tribody_same_bytes(const void *a, const void *b, size_t bytes)
{
    return a && b ? sim_same_bytes(a, b, bytes) : bytes == 0;
}

void tribody_copy_bytes(void *dst, const void *src, size_t bytes)
{
    if (dst && src)
        sim_copy_bytes(dst, src, bytes);
}

double tribody_cutoff(const tribody *t)
{
    int all_cut = 0;
    if (!t)
        return 0.0;
    const double r = pot_range(&t->e.cfg, &t->e.s.box, &all_cut);
    return all_cut ? r : 0.0;
}
