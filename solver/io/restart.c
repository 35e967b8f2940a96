/* restart.c — run ids, the physics settings a restart must keep, and which files a restart
 * may continue (see restart.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/check.h"
#include "solver/io/restart.h"

unsigned long long run_id_new(void)
{
    unsigned long long id = 0;
    const char *fixed = getenv("TRIBODY_RUN_ID");
    if (fixed && *fixed && (id = strtoull(fixed, NULL, 16)) != 0)
        return id; /* files that compare byte for byte across runs (the tests) */
    if (getrandom(&id, sizeof id, GRND_NONBLOCK) != (ssize_t)sizeof id || id == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        id = ((unsigned long long)ts.tv_sec * 1000000007ULL) ^ (unsigned long long)ts.tv_nsec ^
             ((unsigned long long)getpid() << 40);
    }
    return id;
}

void run_physics(const sim_config *c, char *buf, size_t size)
{
    if (cfg_physics_text(c, buf, size) != 0)
        buf[0] = '\0'; /* cannot happen with CKPT_PHYS_MAX: the list is about 800 bytes */
}

/* The value of `name` in a physics text (copied into val); 1 when found. */
static int phys_value(const char *text, const char *name, char *val, size_t size)
{
    const size_t len = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (!strncmp(p, name, len) && p[len] == '=') {
            snprintf(val, size, "%.*s", (int)strcspn(p + len + 1, "\n"), p + len + 1);
            return 1;
        }
    return 0;
}

/* Whether two values of the physics text are the same: the same text, or numbers that read
 * as the same double (a checkpoint of an older tribody wrote every float to 17 digits). */
static int same_value(const char *a, const char *b)
{
    char *ea, *eb;
    if (!strcmp(a, b))
        return 1;
    const double x = strtod(a, &ea), y = strtod(b, &eb);
    return ea != a && eb != b && !*ea && !*eb && x == y;
}

/* Whether the comma-separated list allow names `name` (or is "all"). */
static int allowed(const char *allow, const char *name)
{
    const size_t len = strlen(name);
    if (!allow)
        return 0;
    if (!strcmp(allow, "all"))
        return 1;
    for (const char *p = allow; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

/* Every name in allow is a physics setting: a misspelt one would allow nothing, silently. */
static int check_allow(const char *allow)
{
    char name[128];
    if (!allow || !strcmp(allow, "all"))
        return 0;
    for (const char *p = allow; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ","), p);
        if (!cfg_is_physics(name)) {
            tb_error(NULL, 0, "--allow-change: %s is not a physics setting (every other setting "
                              "may change on a restart; docs/config.md lists the physics ones)",
                     name);
            return TB_EXIT_USAGE;
        }
    }
    return 0;
}

int restart_check_physics(const char *ckpt, const char *stored, const sim_config *c,
                          const char *allow)
{
    char now[4096], name[128], old[256], cur[256], f_old[256], f_cur[256], missing[1024] = "";
    int bad = 0;
    if (check_allow(allow) != 0)
        return TB_EXIT_USAGE;
    run_physics(c, now, sizeof now);
    for (const char *p = now; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "="), p);
        if (!phys_value(now, name, cur, sizeof cur))
            continue;
        /* a checkpoint of an older tribody: a newer setting reads as its default then */
        if (!phys_value(stored, name, old, sizeof old) &&
            !cfg_physics_absent(name, stored, old, sizeof old)) {
            const size_t len = strlen(missing);
            snprintf(missing + len, sizeof missing - len, "%s%s", len ? ", " : "", name);
            continue;
        }
        if (same_value(old, cur))
            continue;
        if (allowed(allow, name)) {
            tb_notice("%s: %s changes from %s to %s at the restart (--allow-change)", ckpt, name,
                      old, cur);
            continue;
        }
        /* a default derived from a setting whose change is allowed follows it */
        const char *src = cfg_physics_follows(name);
        if (src && allowed(allow, src) && phys_value(stored, src, f_old, sizeof f_old) &&
            phys_value(now, src, f_cur, sizeof f_cur) && !same_value(f_old, f_cur)) {
            tb_notice("%s: %s changes from %s to %s with %s (--allow-change %s)", ckpt, name, old,
                      cur, src, src);
            continue;
        }
        tb_error(c->path, 0, "%s = %s, but the checkpoint %s was run with %s = %s; to continue "
                             "with the change, add --allow-change %s",
                 name, cur, ckpt, name, old, name);
        bad = 1;
    }
    if (!bad && missing[0])
        tb_notice("%s records no %s (written by an older tribody): those settings are not "
                  "compared", ckpt, missing);
    return bad ? TB_EXIT_USAGE : 0;
}

/* Bytes of a file's head that restart_check_file reads: the thermo file's first line, or a
 * trajectory's count line and first comment line (about 700 bytes as tribody writes them). */
#define HEAD_MAX 65536

int restart_check_file(const char *path, const char *setting, const char *cfg,
                       unsigned long long id, int traj)
{
    static char head[HEAD_MAX + 1];
    char want[64];
    char *line, *end = NULL;
    size_t got = 0;
    ssize_t k;
    int ok = 0, found = 0, fd;
    struct stat st;
    /* not blocking: a FIFO there would wait for a writer forever */
    if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
        return errno == ENOENT ? 0 : (tb_error(path, 0, "cannot read: %s", strerror(errno)),
                                      TB_EXIT_USAGE);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd); /* a device or FIFO is written as it is: there is nothing to continue */
        return 0;
    }
    /* only the head, whatever the file's size: a first line of 300 MB is not read whole */
    while (got < HEAD_MAX && (k = read(fd, head + got, HEAD_MAX - got)) > 0)
        got += (size_t)k;
    close(fd);
    head[got] = '\0';
    snprintf(want, sizeof want, "run_id=%016llx", id);
    /* the run id is on line 1 (thermo) or 2 (a trajectory frame's comment line) */
    line = head;
    if (traj)
        line = memchr(head, '\n', got) ? (char *)memchr(head, '\n', got) + 1 : NULL;
    if (line)
        end = memchr(line, '\n', got - (size_t)(line - head));
    if (line && (end || got < HEAD_MAX)) { /* a whole line (or the file's end) */
        if (end)
            *end = '\0'; /* (a NUL byte in the line ends it early: no id past it) */
        found = strstr(line, "run_id=") != NULL;
        ok = strstr(line, want) != NULL;
    }
    if (ok)
        return 0;
    tb_error(cfg, 0, "%s = \"%s\" %s, not to the run of this checkpoint (%s): refusing to "
                     "extend it; move it away (the restart then starts it anew) or set %s to "
                     "another file",
             setting, path,
             found ? "belongs to another run"
             : line && !end && got == HEAD_MAX
                 ? "carries no run id (its first lines are longer than 65536 bytes)"
                 : "carries no run id",
             want, setting);
    return TB_EXIT_USAGE;
}
