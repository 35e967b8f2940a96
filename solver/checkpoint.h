/* checkpoint.h — exact binary restart files.
 *
 * A checkpoint holds the whole dynamical state bit for bit (positions, velocities, forces,
 * energies, step, time, the drift reference E0) plus the sizes the thermo and trajectory
 * files had when it was written, so `tribody run CONFIG --restart FILE` truncates them back
 * to that point and continues them: the continued run equals an uninterrupted one.
 *
 * Layout (native little-endian x86-64; an endianness marker is checked): the 8-byte magic
 * "TBCKPT01", a fixed header (ckpt_header), species [n][8], pos [3n], vel [3n], force [3n]
 * as IEEE doubles, then optional tagged sections, each a 4-character tag, a 64-bit length
 * and that many bytes (today "THRM": the thermostat state, integrate.h; a reader skips tags
 * it does not know), then a 64-bit FNV-1a checksum of everything before it. Written to
 * FILE.tmp, flushed to disk and renamed over FILE, so a crash never leaves a torn file. */
#ifndef TB_CHECKPOINT_H
#define TB_CHECKPOINT_H

#include "state.h"

TB_BEGIN_DECLS

typedef struct ckpt_extra {
    long long thermo_bytes; /* size of the thermo file at the checkpoint (-1: none) */
    long long traj_bytes;   /* size of the trajectory file at the checkpoint (-1: none) */
    double dt;              /* time step the state was integrated with [tau] */
    /* The thermostat's state (section "THRM"): written when thermostat_len > 0; on reading,
     * malloc'd by ckpt_read (NULL and 0 when the file has none), freed by the caller. */
    unsigned char *thermostat;
    size_t thermostat_len;
} ckpt_extra;

/* Writes s atomically to path. 0 or -1 (reported). */
int ckpt_write(const char *path, const sim_state *s, const ckpt_extra *x);

/* Reads path into s (allocated here; free with sim_state_free). Returns 0, or
 * TB_EXIT_USAGE with a one-line message when the file is missing, not a checkpoint,
 * truncated or corrupt. */
int ckpt_read(const char *path, sim_state *s, ckpt_extra *x);

TB_END_DECLS

#endif
