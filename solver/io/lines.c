/* lines.c — a text file read line by line with bounded memory (see lines.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "common/check.h"
#include "solver/io/lines.h"

int io_lines_open(io_lines *r, const char *path, const char *setting)
{
    struct stat st;
    memset(r, 0, sizeof *r);
    r->path = path;
    if (!(r->f = fopen(path, "r")))
        return tb_error(path, 0, "cannot open %s: %s", setting, strerror(errno));
    if (fstat(fileno(r->f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(r->f);
        r->f = NULL;
        return tb_error(path, 0, "%s is not a regular file (a device, FIFO or directory cannot "
                                 "hold an initial state)", setting);
    }
    r->size = (long long)st.st_size;
    return 0;
}

char *io_getline(io_lines *r)
{
    size_t len = 0;
    int ch, any = 0;
    if (r->bad)
        return NULL;
    while ((ch = getc(r->f)) != EOF) {
        any = 1;
        if (ch == '\n')
            break;
        if (ch == '\0') {
            tb_error(r->path, r->line + 1, "NUL byte in the line (not a text file)");
            r->bad = 1;
            return NULL;
        }
        if (len + 2 > r->cap) {
            size_t cap = r->cap ? 2 * r->cap : 256;
            char *b;
            if (len >= IO_LINE_MAX) {
                tb_error(r->path, r->line + 1, "line longer than %d bytes", IO_LINE_MAX);
                r->bad = 1;
                return NULL;
            }
            if (cap > IO_LINE_MAX + 2)
                cap = IO_LINE_MAX + 2;
            if (!(b = realloc(r->buf, cap))) {
                tb_error(r->path, r->line + 1, "out of host memory for a line");
                r->bad = 1;
                return NULL;
            }
            r->buf = b;
            r->cap = cap;
        }
        r->buf[len++] = (char)ch;
    }
    if (!any)
        return NULL;
    r->line++;
    while (len > 0 && r->buf[len - 1] == '\r')
        len--;
    if (!r->buf) { /* an empty last line: nothing was allocated */
        if (!(r->buf = malloc(1)))
            return NULL;
        r->cap = 1;
    }
    r->buf[len] = '\0';
    return r->buf;
}

void io_lines_close(io_lines *r)
{
    if (r->f)
        fclose(r->f);
    free(r->buf);
    r->f = NULL;
    r->buf = NULL;
    r->cap = 0;
}
