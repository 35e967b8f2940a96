/* input.c — the config file checked before libconfig reads it (see input.h): libconfig 1.5
 * reads whatever it is given until memory runs out (/dev/zero), and its scanner exit()s on
 * some inputs (an @include of a directory), so what it gets is bounded first. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "config/config.h"
#include "config/input.h"
#include "common/check.h"

int cfg_check_input_file(const char *path, const char *dir, const char *from, int from_line,
                         int depth)
{
    struct stat st;
    FILE *f;
    char *text = NULL;
    size_t cap = 0;
    int line = 0, rc = 0;
    errno = 0;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    if (errno || !(f = fopen(path, "r"))) {
        if (from)
            tb_error(from, from_line, "@include \"%s\": cannot read: %s", path,
                     errno == EINVAL ? "not a regular file" : strerror(errno));
        else
            tb_error(path, 0, "cannot read config file: %s",
                     errno == EINVAL ? "not a regular file" : strerror(errno));
        return -1;
    }
    if (st.st_size > CFG_FILE_MAX) {
        fclose(f);
        return tb_error(path, 0, "config file of %lld bytes (at most %d)", (long long)st.st_size,
                        CFG_FILE_MAX);
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
                snprintf(inc, sizeof inc, "%s%.*s", dir, (int)(e - q - 1), q + 1);
            rc = cfg_check_input_file(inc, dir, path, line, depth + 1);
        }
    }
    free(text);
    fclose(f);
    return rc;
}

