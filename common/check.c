/* check.c — the one place host code reports errors and notices (see check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/check.h"

static void (*g_sink)(const char *line) = NULL;
static long g_errors = 0;

long tb_error_count(void)
{
    return g_errors;
}

void tb_set_sink(void (*sink)(const char *line))
{
    g_sink = sink;
}

tb_sink_fn tb_swap_sink(tb_sink_fn sink)
{
    const tb_sink_fn old = g_sink;
    g_sink = sink;
    return old;
}

int tb_error(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    char buf[2048];
    size_t used = 0;
    g_errors++;
    if (file)
        used = (size_t)(line > 0 ? snprintf(buf, sizeof buf, "%s:%d: ", file, line)
                                 : snprintf(buf, sizeof buf, "%s: ", file));
    if (used >= sizeof buf)
        used = sizeof buf - 1;
    va_start(ap, fmt);
    vsnprintf(buf + used, sizeof buf - used - 1, fmt, ap);
    va_end(ap);
    used = strlen(buf);
    buf[used] = '\n';
    buf[used + 1] = '\0';
    if (g_sink)
        g_sink(buf);
    else
        fprintf(stderr, "tribody: %s", buf);
    return -1;
}

void tb_notice(const char *fmt, ...)
{
    va_list ap;
    if (g_sink)
        return; /* notices come from rank 0 alone */
    fputs("tribody: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
