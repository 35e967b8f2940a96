/* output.c — output paths checked before a run, numbered backups of existing outputs, the
 * lock on a run's output set, and the thermo CSV (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/units.h"
#include "common/check.h"
#include "solver/finite.h"
#include "solver/io/output.h"

/* Splits path into its directory (with trailing slash, "" for the current one) and base. */
static void split_path(const char *path, char *dir, size_t dlen, const char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        dir[0] = '\0';
        *base = path;
        return;
    }
    snprintf(dir, dlen, "%.*s", (int)(slash - path + 1), path);
    *base = slash + 1;
}

/* The longest file name the directory dir takes (NAME_MAX where it cannot say). */
static long name_max(const char *dir)
{
    const long m = pathconf(*dir ? dir : ".", _PC_NAME_MAX);
    return m > 0 ? m : NAME_MAX;
}

/* Room a file name needs beside it: ".NAME.lock" (6 bytes more) and "NAME.~99999~" (8). */
#define OUT_NAME_ROOM 8

int out_check(const char *path, const char *cfg, const char *setting)
{
    struct stat st;
    char dir[4200];
    const char *base;
    const char *where = cfg ? cfg : path;
    const char *name = setting ? setting : "output";
    if (strcmp(path, "-") == 0)
        return 0;
    /* the lock file and the backups are made beside it: their paths must fit too */
    if (strlen(path) + OUT_NAME_ROOM + 2 >= sizeof dir || strlen(path) + OUT_NAME_ROOM >= PATH_MAX) {
        tb_error(where, 0, "%s: the path is %zu bytes long, more than the %d that leave room for "
                           "its lock file and backups (got \"%.40s...\")",
                 name, strlen(path), PATH_MAX - OUT_NAME_ROOM - 1, path);
        return TB_EXIT_USAGE;
    }
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            tb_error(where, 0, "%s = \"%s\" is a directory (expected a file name)", name, path);
            return TB_EXIT_USAGE;
        }
        if (!S_ISREG(st.st_mode)) {
            if (access(path, W_OK) != 0) {
                tb_error(where, 0, "%s = \"%s\": cannot write: %s", name, path, strerror(errno));
                return TB_EXIT_USAGE;
            }
            return 0; /* a device or FIFO is written as it is */
        }
    }
    split_path(path, dir, sizeof dir, &base);
    if (!*base) {
        tb_error(where, 0, "%s = \"%s\" ends with '/' (expected a file name)", name, path);
        return TB_EXIT_USAGE;
    }
    if (!*dir)
        snprintf(dir, sizeof dir, "./");
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        tb_error(where, 0, "%s = \"%s\": directory %s does not exist", name, path, dir);
        return TB_EXIT_USAGE;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        tb_error(where, 0, "%s = \"%s\": directory %s is not writable: %s", name, path, dir,
                 strerror(errno));
        return TB_EXIT_USAGE;
    }
    if ((long)strlen(base) + OUT_NAME_ROOM > name_max(dir)) {
        tb_error(where, 0, "%s = \"%s\": the file name is %zu bytes long; at most %ld leave room "
                           "in directory %s for its lock file .NAME.lock and backups NAME.~k~",
                 name, path, strlen(base), name_max(dir) - OUT_NAME_ROOM, dir);
        return TB_EXIT_USAGE;
    }
    return 0;
}

/* What kind of file st is, for a message. */
static const char *kind_of(const struct stat *st)
{
    if (S_ISDIR(st->st_mode))
        return "a directory";
    if (S_ISFIFO(st->st_mode))
        return "a FIFO";
    if (S_ISCHR(st->st_mode))
        return "a character device";
    if (S_ISBLK(st->st_mode))
        return "a block device";
    if (S_ISSOCK(st->st_mode))
        return "a socket";
    if (S_ISLNK(st->st_mode))
        return "a symbolic link";
    return "not a regular file";
}

int out_check_checkpoint(const char *path, const char *cfg, const char *setting)
{
    struct stat st;
    char tmp[4200];
    const char *where = cfg ? cfg : path;
    int rc;
    if (strcmp(path, "-") == 0) {
        tb_error(where, 0, "%s = \"-\": a checkpoint is a binary file, not standard output "
                           "(expected a file name)", setting);
        return TB_EXIT_USAGE;
    }
    if ((rc = out_check(path, cfg, setting)) != 0)
        return rc;
    /* A checkpoint is written to NAME.tmp and renamed over NAME: a device or FIFO there would
     * be replaced by a regular file (as root, even /dev/null). */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        tb_error(where, 0, "%s = \"%s\" is %s, not a regular file (a checkpoint is written to "
                           "%s.tmp and renamed over it)", setting, path, kind_of(&st), path);
        return TB_EXIT_USAGE;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (lstat(tmp, &st) == 0 && !S_ISREG(st.st_mode)) {
        tb_error(where, 0, "%s = \"%s\": %s, where the checkpoint is written first, is %s "
                           "(move it away)", setting, path, tmp, kind_of(&st));
        return TB_EXIT_USAGE;
    }
    return 0;
}

int out_same_path(const char *a, const char *b)
{
    struct stat sa, sb;
    char da[4200], db[4200];
    const char *ba, *bb;
    if (!strcmp(a, "-") || !strcmp(b, "-"))
        return 0; /* standard output: no file, no lock */
    if (!strcmp(a, b))
        return 1;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
    /* not both there yet: the same name in the same directory ("x.csv", "./x.csv") */
    split_path(a, da, sizeof da, &ba);
    split_path(b, db, sizeof db, &bb);
    return !strcmp(ba, bb) && stat(*da ? da : ".", &sa) == 0 && stat(*db ? db : ".", &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Renames path to its first free backup path.~k~ (left in bak). 0, or -1 reported. */
static int move_to_backup(const char *path, char *bak, size_t size)
{
    struct stat st;
    for (int k = 1; k < 100000; k++) {
        snprintf(bak, size, "%s.~%d~", path, k);
        if (lstat(bak, &st) != 0 && errno == ENOENT) {
            if (rename(path, bak) != 0)
                return tb_error(path, 0, "cannot back up existing output to %s: %s", bak,
                                strerror(errno));
            return 0;
        }
    }
    return tb_error(path, 0, "too many backups of this output exist; remove some");
}

int out_backup(const char *path)
{
    struct stat st;
    char bak[4200];
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode))
        return tb_error(path, 0, "is a directory (expected a file name)");
    if (!S_ISREG(st.st_mode))
        return 0; /* a character device, FIFO or socket is written as it is, never moved */
    if (move_to_backup(path, bak, sizeof bak) != 0)
        return -1;
    tb_notice("%s exists: kept as %s", path, bak);
    return 0;
}

int out_cut_back(const char *path, long long bytes)
{
    struct stat st;
    char bak[4200], buf[1 << 16];
    int in, out;
    long long left = bytes;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (long long)st.st_size <= bytes)
        return 0;
    /* The whole file moves to the backup (its own inode, untouched); the part up to the
     * checkpoint is copied back under the name. */
    if (move_to_backup(path, bak, sizeof bak) != 0)
        return -1;
    if ((in = open(bak, O_RDONLY | O_CLOEXEC)) < 0)
        return tb_error(bak, 0, "cannot read the backup: %s", strerror(errno));
    if ((out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, st.st_mode & 07777)) < 0) {
        close(in);
        return tb_error(path, 0, "cannot create output file: %s", strerror(errno));
    }
    while (left > 0) {
        const ssize_t got = read(in, buf, left < (long long)sizeof buf ? (size_t)left : sizeof buf);
        if (got <= 0 || out_write_fd(out, buf, (size_t)got) != 0) {
            const int e = got == 0 ? EIO : errno;
            close(in);
            close(out);
            return tb_error(path, 0, "cannot copy the first %lld bytes back from %s: %s", bytes,
                            bak, strerror(e));
        }
        left -= got;
    }
    close(in);
    if (close(out) != 0)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    tb_notice("%s runs past the checkpoint (%lld bytes, %lld at the checkpoint): the whole file "
              "is kept as %s, and %s is continued from the checkpoint",
              path, (long long)st.st_size, bytes, bak, path);
    return 0;
}

FILE *out_create(const char *path)
{
    FILE *f;
    if (strcmp(path, "-") == 0)
        return stdout;
    if (out_backup(path) != 0)
        return NULL;
    f = fopen(path, "w");
    if (!f)
        tb_error(path, 0, "cannot create output file: %s", strerror(errno));
    return f;
}

/* The lock files this process holds (out_lock), removed by out_unlock_all. */
#define OUT_LOCKS_MAX 8
static struct {
    char path[8500];
    int fd;
} held[OUT_LOCKS_MAX];
static int n_held;

int out_lock(const char *path)
{
    char dir[4200], lock[8500], pid[32];
    const char *base;
    struct stat st, now;
    int fd;
    ssize_t got;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
        return 0;
    if (n_held == OUT_LOCKS_MAX)
        return tb_error(path, 0, "too many outputs locked at once (%d)", OUT_LOCKS_MAX);
    split_path(path, dir, sizeof dir, &base);
    snprintf(lock, sizeof lock, "%s.%s.lock", dir, base);
    for (;;) {
        fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            tb_error(lock, 0, "cannot create the lock file of %s: %s", path, strerror(errno));
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            const int e = errno;
            got = read(fd, pid, sizeof pid - 1);
            pid[got > 0 ? got : 0] = '\0';
            pid[strcspn(pid, "\n")] = '\0';
            close(fd);
            if (e == EWOULDBLOCK) {
                tb_error(path, 0, "in use by another tribody run (pid %s, lock %s): wait for it "
                                  "to finish or choose other output paths", *pid ? pid : "?", lock);
                return TB_EXIT_USAGE;
            }
            tb_error(lock, 0, "cannot lock: %s", strerror(e));
            return -1;
        }
        /* A run that held the lock removes the file when it ends (out_unlock_all): if it did
         * so between our open and our flock, we hold a lock on a name no longer there, and
         * a third run could lock a new file of that name. Only a lock on the file the name
         * still points to counts. */
        if (fstat(fd, &st) == 0 && stat(lock, &now) == 0 && st.st_dev == now.st_dev &&
            st.st_ino == now.st_ino)
            break;
        close(fd);
    }
    snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || write(fd, pid, strlen(pid)) < 0) {
        /* the pid is only a courtesy for the message of a second run */
    }
    snprintf(held[n_held].path, sizeof held[n_held].path, "%s", lock);
    held[n_held++].fd = fd; /* fd stays open: the lock lasts until out_unlock_all or exit */
    return 0;
}

void out_unlock_all(void)
{
    /* Removed while still held, then released: a run waiting on the old file sees, after
     * its flock, that the name no longer points to it (out_lock), and tries again. */
    for (int i = 0; i < n_held; i++) {
        unlink(held[i].path);
        close(held[i].fd);
    }
    n_held = 0;
}

int out_write_fd(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        const ssize_t put = write(fd, p, len);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0) {
            if (put == 0)
                errno = ENOSPC;
            return -1;
        }
        p += put;
        len -= (size_t)put;
    }
    return 0;
}

void out_rec_begin(out_rec *w, FILE *f)
{
    struct stat st;
    w->f = f;
    w->len = 0;
    w->err = 0;
    w->start = -1;
    w->fd = fileno(f);
    if (fflush(f) != 0 || ferror(f)) {
        w->err = errno ? errno : EIO;
        return;
    }
    if (w->fd >= 0 && fstat(w->fd, &st) == 0 && S_ISREG(st.st_mode))
        w->start = st.st_size; /* outputs are written at their end */
}

/* Writes what the record's buffer holds. */
static void rec_flush(out_rec *w)
{
    if (!w->err && w->len > 0) {
        errno = 0;
        if (w->fd >= 0 ? out_write_fd(w->fd, w->buf, w->len) != 0
                       : fwrite(w->buf, 1, w->len, w->f) != w->len) /* a memory stream */
            w->err = errno ? errno : EIO;
    }
    w->len = 0;
}

static void rec_put(out_rec *w, const void *p, size_t len)
{
    if (w->err)
        return;
    if (w->len + len > sizeof w->buf)
        rec_flush(w);
    if (len > sizeof w->buf) { /* a large piece goes out as it is */
        errno = 0;
        if (w->fd >= 0 ? out_write_fd(w->fd, p, len) != 0 : fwrite(p, 1, len, w->f) != len)
            w->err = errno ? errno : EIO;
        return;
    }
    memcpy(w->buf + w->len, p, len);
    w->len += len;
}

void out_rec_put(out_rec *w, const void *p, size_t len)
{
    rec_put(w, p, len);
}

void out_rec_printf(out_rec *w, const char *fmt, ...)
{
    char piece[1024];
    va_list ap;
    int n;
    if (w->err)
        return;
    va_start(ap, fmt);
    n = vsnprintf(piece, sizeof piece, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof piece) {
        w->err = EOVERFLOW; /* a piece is a line of numbers: this is a caller's bug */
        return;
    }
    rec_put(w, piece, (size_t)n);
}

int out_rec_end(out_rec *w)
{
    rec_flush(w);
    if (!w->err && w->fd < 0 && fflush(w->f) != 0)
        w->err = errno ? errno : EIO;
    if (!w->err)
        return 0;
    /* A full disk (or a file size limit) took part of it: cut the file back to where the
     * record began, so that the file ends on a whole row or frame. */
    if (w->start >= 0 && ftruncate(w->fd, w->start) == 0)
        lseek(w->fd, w->start, SEEK_SET);
    errno = w->err;
    return -1;
}

int out_write(FILE *f, const void *buf, size_t len)
{
    out_rec w;
    out_rec_begin(&w, f);
    rec_put(&w, buf, len);
    return out_rec_end(&w);
}

int out_close(FILE *f, const char *path)
{
    int bad;
    if (!f)
        return 0;
    bad = ferror(f);
    if (f == stdout)
        bad |= fflush(f) != 0;
    else
        bad |= fclose(f) != 0;
    if (bad)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}

int thermo_header(FILE *f, const char *path, unsigned long long run_id, int units)
{
    char buf[512];
    const tb_units *u = units_of(units);
    const int len = snprintf(buf, sizeof buf, "# tribody run_id=%016llx\n"
                             "# units=%s: time %s; kinetic, pair, triplet, total, virial, conserved "
                             "%s; temperature %s; pressure and p* %s; volume %s^3; lx .. yz %s; "
                             "density %s\n"
                             "step,time,kinetic,pair,triplet,total,drift,temperature,virial,"
                             "pressure,pxx,pyy,pzz,conserved,pxy,pxz,pyz,volume,lx,ly,lz,xy,xz,yz,"
                             "density\n",
                             run_id, u->name, u->time, u->energy, u->temperature, u->pressure,
                             u->length, u->length, units == CFG_UNITS_LJ ? "m/sigma^3" : "g/cm^3");
    if (out_write(f, buf, (size_t)len) != 0)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}

double sim_drift_k(const sim_state *s, double k)
{
    const double e = sim_conserved_k(s, k);
    return s->e0 != 0.0 ? (e - s->e0) / fabs(s->e0) : e - s->e0;
}

double sim_drift(const sim_state *s)
{
    return sim_drift_k(s, sim_kinetic(s));
}

int thermo_row(FILE *f, const char *path, const sim_state *s, const double kin[7])
{
    double own[7];
    if (!kin) { /* the host's serial sums (sim_kinetic, sim_kinetic_tensor: the same bits) */
        sim_kinetic_sums(s, own);
        kin = own;
    }
    const double ke = kin[0], epot = s->e_pair + s->e_triplet;
    double p[7];
    char press[128] = ",,,", shear[128] = ",,", box[256] = ",,,,,,,";
    char row[1024];
    int len;
    const tb_box_d *b = &s->box;
    if (sim_pressure_kin(s, kin + 1, p) == 0) {
        snprintf(press, sizeof press, "%.15g,%.15g,%.15g,%.15g", p[0], p[1], p[2], p[3]);
        snprintf(shear, sizeof shear, "%.15g,%.15g,%.15g", p[4], p[5], p[6]);
    }
    if (b->pbc)
        snprintf(box, sizeof box, "%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g,%.15g", sim_volume(s),
                 b->l[0], b->l[1], b->l[2], b->xy, b->xz, b->yz, sim_density(s));
    len = snprintf(row, sizeof row,
                   "%ld,%.10g,%.15g,%.15g,%.15g,%.15g,%.6e,%.10g,%.15g,%s,%.15g,%s,%s\n", s->step,
                   s->time, ke, s->e_pair, s->e_triplet, ke + epot, sim_drift_k(s, ke),
                   sim_temperature_k(s, ke), sim_virial_trace(s), press, sim_conserved_k(s, ke),
                   shear, box);
    /* one write per row, straight to the file: a run that dies loses no row written */
    if (len < 0 || (size_t)len >= sizeof row || out_write(f, row, (size_t)len) != 0)
        return tb_error(path, 0, "write error: %s", strerror(errno));
    return 0;
}
