/* config_literal.c — integer literals as the user wrote them. libconfig 1.5 reads a literal
 * beyond 32 bits without an L suffix cut to 32 bits, and one beyond 64 bits as -1 or LLONG_MAX,
 * silently; the loader rereads such a setting's literal from its source line (or its --set
 * text) so that the value checked is the value written, and an overflow is reported. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

#include "config/config.h"
#include "config/config_int.h"

/* Reads an integer literal as libconfig writes one (decimal, or hex after 0x, optional sign)
 * at p. Returns the end of the literal, or NULL when p does not start with one, when more of a
 * number follows (a float, or an L suffix: not a 32-bit literal), or on overflow. */
const char *cfg_int_literal(const char *p, long long *v)
{
    int neg = *p == '-', hex;
    char *end;
    if (*p == '-' || *p == '+')
        p++;
    hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (!(hex ? isxdigit((unsigned char)p[2]) : isdigit((unsigned char)p[0])))
        return NULL;
    errno = 0;
    unsigned long long u = strtoull(p, &end, hex ? 16 : 10);
    if (errno || u > (unsigned long long)LLONG_MAX || (*end && strchr(".eEL", *end)))
        return NULL;
    *v = neg ? -(long long)u : (long long)u;
    return end;
}

/* Whether v does not fit an int but its low 32 bits read as one are `low`: what libconfig 1.5
 * makes of a literal that is too long for an int and lacks the L suffix. */
int cfg_truncated_to(long long v, int low)
{
    return (v > INT_MAX || v < INT_MIN) && (int)(unsigned)(unsigned long long)v == low;
}

/* Line `line` (from 1) of file, malloc'ed (the caller frees it); NULL when it cannot be read. */
static char *source_line(const char *file, int line)
{
    FILE *f = fopen(file, "r");
    char *text = NULL;
    size_t cap = 0;
    int i = 0;
    if (!f)
        return NULL;
    while (i < line && getline(&text, &cap, f) >= 0)
        i++;
    fclose(f);
    if (i < line) {
        free(text);
        return NULL;
    }
    return text;
}

/* The literal of the next "name = LITERAL" (or ':') in text, name a whole word, searching from
 * *from on; NULL when there is none. Moves *from past that name for the next call. */
static const char *next_literal(const char *text, const char *name, const char **from)
{
    const size_t len = strlen(name);
    for (const char *p = strstr(*from, name); p; p = strstr(p + 1, name)) {
        const char *q = p + len;
        if (p > text && (isalnum((unsigned char)p[-1]) || strchr("_-*", p[-1])))
            continue;
        q += strspn(q, " \t");
        if (*q != '=' && *q != ':')
            continue;
        *from = p + 1;
        return q + 1 + strspn(q + 1, " \t");
    }
    return NULL;
}

/* Finds, on line `line` of `file`, "name = LITERAL" (or ':') whose literal libconfig truncated
 * to `low`; stores the literal's value in *v. Returns 1 when found. */
static int find_literal(const char *file, int line, const char *name, int low, long long *v)
{
    char *text = source_line(file, line);
    const char *from = text, *q;
    int found = 0;
    while (text && !found && (q = next_literal(text, name, &from)))
        found = cfg_int_literal(q, v) && cfg_truncated_to(*v, low);
    free(text);
    return found;
}

/* The integer value of s. libconfig 1.5 reads a literal that does not fit 32 bits and lacks
 * the L suffix (steps = 5000000000) as its low 32 bits (705032704), silently; this rereads
 * such a literal from the setting's source line, so the range check sees what was written. */
static long long int_value(const cfg_ctx *x, const config_setting_t *s)
{
    long long v;
    char file[CFG_PATH_MAX];
    if (config_setting_type(s) != CONFIG_TYPE_INT || !config_setting_source_file(s) ||
        !config_setting_name(s))
        return config_setting_get_int64(s);
    cfg_source_path(x, s, file, sizeof file);
    if (find_literal(file, (int)config_setting_source_line(s), config_setting_name(s),
                     config_setting_get_int(s), &v))
        return v;
    return config_setting_get_int64(s);
}

long long cfg_int_value(const cfg_ctx *x, const config_setting_t *s)
{
    return int_value(x, s);
}

/* Whether the integer literal at p (sign, decimal or 0x hex digits, optional L or LL suffix)
 * overflows 64 bits, which libconfig 1.5 reads silently as -1 or LLONG_MAX. */
int cfg_literal_overflows(const char *p)
{
    int neg, hex;
    char *end;
    p += strspn(p, " \t");
    neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (!(hex ? isxdigit((unsigned char)p[2]) : isdigit((unsigned char)p[0])))
        return 0;
    errno = 0;
    unsigned long long u = strtoull(p, &end, hex ? 16 : 10);
    if (*end && strchr(".eE", *end))
        return 0; /* a float */
    return errno == ERANGE || u > (unsigned long long)LLONG_MAX + (unsigned long long)neg;
}

/* Whether the literal of setting s, as written on its source line ("name = LITERAL"),
 * overflows 64 bits (see cfg_literal_overflows); copies it into lit. */
int cfg_source_literal_overflows(const cfg_ctx *x, const config_setting_t *s, char *lit,
                                 size_t size)
{
    char file[CFG_PATH_MAX];
    const char *name = config_setting_name(s), *from, *q;
    char *text;
    int over = 0;
    if (!config_setting_source_file(s) || !name || config_setting_get_hook(s))
        return 0;
    cfg_source_path(x, s, file, sizeof file);
    text = source_line(file, (int)config_setting_source_line(s));
    from = text;
    while (text && !over && (q = next_literal(text, name, &from)))
        if ((over = cfg_literal_overflows(q)))
            snprintf(lit, size, "%.*s", (int)strcspn(q, " \t;,)]}\r\n"), q);
    free(text);
    return over;
}

