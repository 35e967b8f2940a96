/* tb_test.h — the small harness every test program uses, on top of GSL's gsl_test.
 *
 * Every check prints one line, "PASS: description" or "FAIL: description (details)"
 * (gsl_test's verbose format); scripts/run-tests counts them. A test program ends with
 * `return tb_test_done();`: exit status 0 when every check passed, else 1. Tolerances sit
 * next to each check with their reason. */
#ifndef TB_TEST_H
#define TB_TEST_H

#include <gsl/gsl_test.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void tb_test_init(void)
{
    gsl_test_verbose(1);
    setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline int tb_test_done(void)
{
    return gsl_test_summary() ? 1 : 0;
}

/* The tribody binary under test (CLI tests), as an absolute path: $TB_BIN, else
 * build/tribody. NULL (with a FAIL line) when it does not exist. */
static inline const char *tb_test_bin(void)
{
    static char path[4096];
    char cwd[2048];
    const char *b = getenv("TB_BIN");
    FILE *f;
    if (path[0])
        return path;
    b = b && *b ? b : "build/tribody";
    if (b[0] == '/')
        snprintf(path, sizeof path, "%s", b);
    else
        snprintf(path, sizeof path, "%s/%s", getcwd(cwd, sizeof cwd) ? cwd : ".", b);
    if (!(f = fopen(path, "rb"))) {
        gsl_test(1, "the tribody binary %s exists (set TB_BIN)", path);
        path[0] = '\0';
        return NULL;
    }
    fclose(f);
    return path;
}

#endif
