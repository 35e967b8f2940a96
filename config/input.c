/* input.c — the config file checked before libconfig reads it (see input.h): libconfig 1.5
 * reads whatever it is given until memory runs out (/dev/zero), and its scanner exit()s on
 * some inputs (an @include of a directory; a read error, "input in flex scanner failed"), so
 * what it gets is bounded first. Each file is checked once: the @include graph is walked
 * with the files on the current path (an include cycle is an error) and the files already
 * checked (skipped), so a file that includes another many times costs one read of each.
 * libconfig itself reads every @include again: the files it would read are counted along
 * (per file, once) and more than INPUT_READS_MAX is refused, a config of a few lines that
 * includes a file ten times, which includes another ten times, ... would be 10^10 reads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "config/config.h"
#include "config/input.h"
#include "common/check.h"

/* Distinct files checked at most (beyond it the rest are not pre-checked: libconfig's own
 * depth limit of 10 still holds). */
#define INPUT_FILES_MAX 256
/* File reads the @includes may expand to (libconfig opens an included file at every @include). */
#define INPUT_READS_MAX 10000

typedef struct input_walk {
    const char *dir; /* the config's directory, with its slash ("" for the current one) */
    struct { dev_t dev; ino_t ino; int open; double reads; } file[INPUT_FILES_MAX];
    int n;
} input_walk;

/* The index of the file (dev, ino) among those met, or -1. */
static int seen(const input_walk *w, const struct stat *st)
{
    for (int i = 0; i < w->n; i++)
        if (w->file[i].dev == st->st_dev && w->file[i].ino == st->st_ino)
            return i;
    return -1;
}

/* Reports that path (included from from:from_line, or the config itself) cannot be read. */
static int cannot_read(const char *path, const char *from, int from_line, const char *why)
{
    if (from)
        return tb_error(from, from_line, "@include \"%s\": cannot read: %s", path, why);
    return tb_error(path, 0, "cannot read config file: %s", why);
}

/* Checks path and what it includes; *reads: the files libconfig would read for it (itself
 * and its includes, expanded). */
static int check_file(input_walk *w, const char *path, const char *from, int from_line,
                      int depth, double *reads)
{
    struct stat st;
    FILE *f;
    char *text = NULL;
    size_t cap = 0;
    int line = 0, rc = 0, me;
    *reads = 1;
    errno = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    if (errno || !(f = fopen(path, "r")))
        return cannot_read(path, from, from_line,
                           errno == EINVAL ? "not a regular file" : strerror(errno));
    if ((me = seen(w, &st)) >= 0) {
        fclose(f);
        *reads = w->file[me].reads;
        if (!w->file[me].open)
            return 0; /* checked already, by another @include of it */
        return tb_error(from, from_line, "@include \"%s\": an include cycle (that file is "
                                         "already open: it includes itself, directly or through "
                                         "others)", path);
    }
    if (st.st_size > CFG_FILE_MAX) {
        fclose(f);
        return tb_error(path, 0, "config file of %lld bytes (at most %d)", (long long)st.st_size,
                        CFG_FILE_MAX);
    }
    if (w->n < INPUT_FILES_MAX) {
        me = w->n++;
        w->file[me].dev = st.st_dev;
        w->file[me].ino = st.st_ino;
        w->file[me].open = 1;
        w->file[me].reads = 1;
    }
    ssize_t got;
    while (rc == 0 && (got = getline(&text, &cap, f)) >= 0) {
        const char *p = text;
        line++;
        if ((size_t)got != strlen(text)) { /* libconfig's scanner would stop at it, or exit */
            rc = tb_error(path, line, "NUL byte in the line (not a text file)");
            break;
        }
        if (line == 1 && (unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb &&
            (unsigned char)p[2] == 0xbf) {
            rc = tb_error(path, 1, "the file starts with a UTF-8 byte-order mark, which libconfig "
                                   "cannot read: save it without one");
            break;
        }
        p += strspn(p, " \t");
        if (strncmp(p, "@include", 8) == 0 && depth < CFG_INCLUDE_DEPTH) {
            const char *q = strchr(p, '"'), *e = q ? strchr(q + 1, '"') : NULL;
            char inc[CFG_PATH_MAX + 8];
            if (!q || !e)
                continue; /* libconfig reports the syntax */
            if (q[1] == '/')
                snprintf(inc, sizeof inc, "%.*s", (int)(e - q - 1), q + 1);
            else
                snprintf(inc, sizeof inc, "%s%.*s", w->dir, (int)(e - q - 1), q + 1);
            double sub = 0;
            rc = check_file(w, inc, path, line, depth + 1, &sub);
            *reads += sub;
            if (rc == 0 && *reads > INPUT_READS_MAX)
                rc = tb_error(path, line, "@include \"%s\": the includes expand to more than %d "
                                          "file reads (a file included many times, at many "
                                          "levels)", inc, INPUT_READS_MAX);
        }
    }
    /* a read error (EIO from /proc/self/mem, say) would end libconfig's scanner with exit() */
    if (rc == 0 && ferror(f))
        rc = cannot_read(path, from, from_line, strerror(errno ? errno : EIO));
    free(text);
    fclose(f);
    if (me >= 0 && me < w->n) {
        w->file[me].open = 0;
        w->file[me].reads = *reads;
    }
    return rc;
}

int cfg_check_input_file(const char *path, const char *dir)
{
    static input_walk w; /* 4 KB; one load at a time */
    w.dir = dir;
    w.n = 0;
    double reads = 0;
    return check_file(&w, path, NULL, 0, 0, &reads);
}
