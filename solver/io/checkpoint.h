/* checkpoint.h — exact binary restart files.
 *
 * A checkpoint holds the whole dynamical state bit for bit (positions, velocities, forces,
 * energies, step, time, the drift reference E0) plus the sizes the thermo and trajectory
 * files had when it was written, so `tribody run CONFIG --restart FILE` truncates them back
 * to that point and continues them: the continued run equals an uninterrupted one. It also
 * records what a restart must not change silently: the run's id (written into the thermo and
 * trajectory files too, so a restart never extends another run's file) and the settings that
 * define the physics, as "name=value" lines (config.h's cfg_physics_text; restart.c compares
 * them with the configuration: a file of an older tribody holds fewer, still compared).
 *
 * Layout, version 2 (native little-endian x86-64; an endianness marker is checked): the
 * 8-byte magic "TBCKPT02", a fixed header (ckpt_header in checkpoint.c), names [n][8]
 * (each particle's species name, type_name[type[i]]: redundant beside SPEC, kept for the layout),
 * pos [3n], vel [3n], force [3n] as IEEE doubles, then tagged sections, each a 4-byte tag, a
 * 32-bit length and that many bytes, ended by the tag "END " with length 0; then a 64-bit
 * FNV-1a checksum of everything before it. A reader skips sections whose tag it does not
 * know, so a new kind of state (a thermostat's, say) is one more tag: add a field to
 * ckpt_extra, write it in ckpt_write's section list and read it in ckpt_read's switch.
 * Sections now: "RUNI" the run id (8 bytes), "PHYS" the physics settings (text), "THRM"
 * the thermostat's state (integrate.h), present only with a thermostat, "TORG" the time
 * origin (a step and a time, 16 bytes), "OBSV" the observables' accumulators (solver/io/obs.h),
 * present only with output.rdf or output.msd, "BARO" the barostat's state (physics/baro.h),
 * present only with a barostat (the box it moves is section "BOX ").
 * Version 1 files ("TBCKPT01") recorded neither and are refused with a message.
 * Written to FILE.tmp, flushed to disk and renamed over FILE, so a crash never leaves a
 * torn file; so FILE must be a regular file or absent (run.c refuses a device or FIFO
 * there before step 0, and a FILE.tmp that is not a regular file). */
#ifndef TB_CHECKPOINT_H
#define TB_CHECKPOINT_H

#include "solver/state.h"

TB_BEGIN_DECLS

#define CKPT_PHYS_MAX 4096 /* bytes of the physics text */

typedef struct ckpt_extra {
    long long thermo_bytes; /* size of the thermo file at the checkpoint (-1: none) */
    long long traj_bytes;   /* size of the trajectory file at the checkpoint (-1: none) */
    double dt;              /* time step the state was integrated with [tau] */
    /* The thermostat's state (section "THRM"): written when thermostat_len > 0; on reading,
     * malloc'd by ckpt_read (NULL and 0 when the file has none), freed by the caller. */
    unsigned char *thermostat;
    size_t thermostat_len;
    /* The barostat's state (section "BARO", physics/baro.h), likewise; absent in older files
     * and in runs without a barostat. */
    unsigned char *barostat;
    size_t barostat_len;
    unsigned long long run_id;  /* the run's id, also in its thermo and trajectory files */
    char phys[CKPT_PHYS_MAX];   /* "name=value\n" per setting that defines the physics */
    /* The time origin (section "TORG"): time = time_origin + (step - step_origin) dt. (0, 0)
     * unless a restart changed integrator.dt (--allow-change), which moves the origin to the
     * checkpoint's step and time so that time keeps running forward; absent in older files,
     * read as (0, 0). */
    long long step_origin;
    double time_origin;
    /* The observables' state (section "OBSV", obs_save): as thermostat. */
    unsigned char *observ;
    size_t observ_len;
} ckpt_extra;

/* Frees what ckpt_read allocated in x (thermostat, barostat, observ); NULLs them. */
void ckpt_extra_free(ckpt_extra *x);

/* Writes s atomically to path. 0 or -1 (reported). */
int ckpt_write(const char *path, const sim_state *s, const ckpt_extra *x);

/* Reads path into s (allocated here; free with sim_state_free). n_expected > 0: the particle
 * count the configuration cfg (a name for the message) sets, compared with the header's
 * before anything is allocated. Returns 0, or TB_EXIT_USAGE with a one-line message when
 * the file is missing, not a regular file (a FIFO is refused without waiting on it), not a
 * checkpoint, of an older version, of another particle count, truncated (checked against
 * the file size before anything is allocated), corrupt, or holds a field out of range (a
 * negative step, a non-finite energy, time, dt, mass or box). */
int ckpt_read(const char *path, int n_expected, const char *cfg, sim_state *s, ckpt_extra *x);

TB_END_DECLS

#endif
