/* tb_config.h — what the config tests share (test_config.c, test_config_species.c): loading a
 * config written into a temporary directory with stderr captured, the exact-message and
 * silent-success expectations, and the set-up and clean-up of that directory. */
#ifndef TB_CONFIG_TEST_H
#define TB_CONFIG_TEST_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "maps3d/map2d.h"
#include "maps3d/map3d.h"
#include "tests/tb_test.h"

#define TB_CFG_UNUSED __attribute__((unused))

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static char root[4096];   /* the directory the test started in (the repository root) */
static char err[16384] TB_CFG_UNUSED;   /* what the last load printed on stderr */
static char maps[512];    /* map3d_names() */
static char maps2[512];   /* map2d_names() */
static const char *map0 TB_CFG_UNUSED;  /* the first registered map3d name */
static const char *map20 TB_CFG_UNUSED; /* the first registered map2d name */

#define MIN_CFG "system = { particles = 10; };\n"

/* Writes text to `name`, relative to the temporary directory (the current directory). */
static inline void put(const char *name, const char *text)
{
    if (!tb_test_write_file(".", name, text))
        exit(2);
}

/* Loads `path` with stderr captured into err[]; returns cfg_load's status. */
static inline int load_path(sim_config *c, const char *path, int n_set, char *const sets[])
{
    int rc;
    tb_test_capture_begin();
    rc = cfg_load(c, path, n_set, sets);
    tb_test_capture_end(err, sizeof err);
    return rc;
}

/* Writes text as sim.cfg and loads it. */
static inline int load(sim_config *c, const char *text, int n_set, char *const sets[])
{
    put("sim.cfg", text);
    return load_path(c, "sim.cfg", n_set, sets);
}

/* s with its newlines shown as " | ", so a check's description stays on one line. */
static inline const char *one_line(const char *s)
{
    static char buf[2048];
    size_t n = 0;
    for (; *s && n + 4 < sizeof buf; s++) {
        if (*s == '\n') {
            memcpy(buf + n, " | ", 3);
            n += 3;
        } else
            buf[n++] = *s;
    }
    buf[n] = '\0';
    return buf;
}

/* Loading `text` (with overrides) must fail with status 2 and print exactly `want` + newline. */
static inline void expect_error(const char *what, const char *text, int n_set, char *const sets[],
                         const char *want)
{
    sim_config c;
    char line[2048];
    int rc = load(&c, text, n_set, sets);
    snprintf(line, sizeof line, "%s\n", want);
    gsl_test(rc != TB_EXIT_USAGE, "%s: status 2 (got %d)", what, rc);
    gsl_test(strcmp(err, line) != 0, "%s: message '%s'", what, one_line(want));
    if (strcmp(err, line) != 0)
        printf("    got: %s", err);
}

/* Loading `text` must succeed silently. */
static inline int expect_ok(const char *what, sim_config *c, const char *text, int n_set,
                     char *const sets[])
{
    int rc = load(c, text, n_set, sets);
    gsl_test(rc != 0 || err[0], "%s: loads with status 0 and no message", what);
    if (rc != 0 || err[0])
        printf("    got status %d: %s", rc, err);
    return rc;
}

static inline int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Entries in the current directory (to check that loading writes nothing). */
static inline int count_entries(void)
{
    DIR *d = opendir(".");
    int n = 0;
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

/* Removes what put() wrote, then the directory. */
static inline void cleanup(const char *dir)
{
    if (chdir(root) != 0)
        fprintf(stderr, "test_config: could not remove %s\n", dir);
    else
        tb_test_remove_dir(dir);
}

/* The test's set-up: remembers the repository root, makes the temporary directory the current
 * one and looks up the maps' names. Returns 0, or 2 (reported) when it cannot. */
static inline int tb_config_begin(char *dir, const char *what)
{
    tb_test_init();
    tb_test_bin(); /* its path, from the repository root, before the chdir below */
    if (!getcwd(root, sizeof root) || !mkdtemp(dir) || chdir(dir) != 0) {
        perror(what);
        return 2;
    }
    map3d_names(maps, sizeof maps);
    map2d_names(maps2, sizeof maps2);
    map0 = map3d_all[0]->name;
    map20 = map2d_all[0]->name;
    return 0;
}

#endif
