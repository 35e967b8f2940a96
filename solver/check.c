/* check.c — the one place host code reports errors and notices (see check.h). */
#include <stdarg.h>
#include <stdio.h>

#include "check.h"

int tb_error(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fputs("tribody: ", stderr);
    if (file) {
        if (line > 0)
            fprintf(stderr, "%s:%d: ", file, line);
        else
            fprintf(stderr, "%s: ", file);
    }
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

void tb_notice(const char *fmt, ...)
{
    va_list ap;
    fputs("tribody: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
