/* output.h — output files that never lose a user's data, and the thermo CSV.
 *
 * An output path that already exists is never overwritten: out_backup() renames it to
 * PATH.~1~ (or the next free PATH.~k~, GNU numbered-backup style) first and says so.
 * Only regular files are backed up: a character device (/dev/null), a FIFO or "-" (stdout)
 * is written as it is, and a directory is refused. A run checks all its output paths
 * (out_check) before it computes anything, and locks them (out_lock) before it writes; it
 * removes its lock files when it ends (out_unlock_all). Rows and frames are written whole,
 * straight to the file (out_rec, out_write): a run that dies loses nothing it wrote, and a full
 * disk leaves no torn row or frame.
 * Thermo CSV columns, in reduced LJ units:
 *   step, time [tau], kinetic, pair, triplet, total [epsilon], drift = (H - H0)/|H0| of the
 *   conserved quantity H (the total energy under nve), temperature [epsilon/k_B],
 *   virial = W_xx + W_yy + W_zz [epsilon], pressure, pxx, pyy, pzz [epsilon/sigma^3] (empty
 *   fields with open boundaries, which have no volume), conserved = H [epsilon], then pxy, pxz,
 *   pyz, and the box: volume, lx, ly, lz, xy, xz, yz (empty without a periodic axis). The units
 *   are those of the style (config/units.h), named in the second comment line. */
#ifndef TB_OUTPUT_H
#define TB_OUTPUT_H

#include <stdio.h>
#include "solver/state.h"

TB_BEGIN_DECLS

/* Checks, writing nothing, that path can be an output: "-", a writable device or FIFO, or
 * a file name (existing regular file or not) in an existing writable directory; not a
 * directory; a name short enough that its lock file and backups (.NAME.lock, NAME.~k~)
 * fit in the directory's NAME_MAX, and a path that fits in PATH_MAX with them. cfg and
 * setting name where the path came from, for the message ("tribody: CFG: SETTING =
 * "PATH": directory nodir/ does not exist"). Returns 0, or TB_EXIT_USAGE after one line. */
int out_check(const char *path, const char *cfg, const char *setting);

/* out_check for a checkpoint, which is written to PATH.tmp and renamed over PATH: also
 * refuses "-", an existing PATH that is not a regular file (a device or FIFO would be
 * replaced) and a PATH.tmp that is not one (a directory there would stop the run at its first
 * checkpoint). 0, or TB_EXIT_USAGE after one line. */
int out_check_checkpoint(const char *path, const char *cfg, const char *setting);

/* Whether output paths a and b name the same file (the same name, or the same existing
 * regular file, or the same name in the same directory); never for "-". */
int out_same_path(const char *a, const char *b);

/* Takes an exclusive flock on the hidden lock file DIR/.BASE.lock of output path (kept
 * until out_unlock_all or the process exits; nothing for "-" and devices), so that two runs
 * cannot write the same outputs. Returns 0; TB_EXIT_USAGE when another process holds it
 * (one line naming its pid); -1 when the lock file cannot be made. */
int out_lock(const char *path);

/* Removes the lock files this process holds (and only those) and releases them. */
void out_unlock_all(void);

/* If path is a regular file, renames it to the first free path.~k~ and prints a notice. A
 * device or FIFO is left alone; a directory is an error. 0 or -1. */
int out_backup(const char *path);

/* For a restart from a checkpoint that recorded path at `bytes` bytes: when path is a longer
 * regular file (rows written after the checkpoint), moves it whole to the next free
 * path.~k~ and copies its first `bytes` bytes back to path, with a notice naming the
 * backup. Nothing when path is missing, not a regular file, or no longer. 0 or -1. */
int out_cut_back(const char *path, long long bytes);

/* out_backup(path), then opens path for writing ("-" is stdout). NULL on failure, reported. */
FILE *out_create(const char *path);

/* Closes f (not stdout), reporting a write error on path. 0 or -1. */
int out_close(FILE *f, const char *path);

/* A record (a thermo row, a trajectory frame) written whole: out_rec_begin flushes f and
 * notes where its file ends; out_rec_printf formats pieces (each under 1 KiB) into a 64 KiB
 * buffer, written straight to the file descriptor as it fills; out_rec_end writes the rest.
 * When a write fails part way (a full disk) on a regular file, the file is cut back to where
 * the record began, so that no torn record is left. out_rec_end: 0, or -1 with errno set
 * (not reported). */
typedef struct out_rec {
    FILE *f;
    int fd;      /* f's descriptor (-1: a memory stream, written through stdio) */
    int err;     /* the first error (errno value), 0 while none */
    long long start; /* size of the regular file before the record (-1: not a regular file) */
    size_t len;  /* bytes in buf */
    char buf[1 << 16];
} out_rec;
void out_rec_begin(out_rec *w, FILE *f);
void out_rec_printf(out_rec *w, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int out_rec_end(out_rec *w);
/* len bytes already formatted (a frame's rows formatted in parallel, xyz.c) into the record. */
void out_rec_put(out_rec *w, const void *p, size_t len);

/* One record of len bytes (out_rec_begin, the bytes, out_rec_end). 0 or -1 with errno. */
int out_write(FILE *f, const void *buf, size_t len);

/* write(2) of all len bytes to fd. 0, or -1 with errno set. */
int out_write_fd(int fd, const void *buf, size_t len);

/* The run-id line and the CSV header line (one write); one row for the state s (one write),
 * its kinetic columns from kin[7] (finite.h's sim_kinetic_sums: the kinetic energy, then the
 * tensor sum m v_a v_b), or from s's velocities when kin is NULL. 0 or -1 (a write error,
 * reported). */
int thermo_header(FILE *f, const char *path, unsigned long long run_id, int units);
int thermo_row(FILE *f, const char *path, const sim_state *s, const double kin[7]);

/* Relative drift (H - H0)/|H0| of the conserved quantity H = sim_conserved(s), H0 = s->e0
 * (H - H0 when H0 = 0); under nve H is the total energy. sim_drift_k: H from the kinetic
 * energy k (sim_conserved_k). */
double sim_drift(const sim_state *s);
double sim_drift_k(const sim_state *s, double k);

TB_END_DECLS

#endif
