/* tb_test.h — the small harness every test program uses, on top of GSL's gsl_test.
 *
 * Every check prints one line, "PASS: description" or "FAIL: description (details)"
 * (gsl_test's verbose format); scripts/run-tests counts them. A test program ends with
 * `return tb_test_done();`: exit status 0 when every check passed, else 1. Tolerances sit
 * next to each check with their reason.
 *
 * Below the harness are the helpers several test programs share, all prefixed tb_test_:
 * scratch directories and whole files (tb_test_temp_dir, tb_test_fresh_dir, tb_test_write_file,
 * tb_test_read_file, tb_test_same_file, tb_test_file_has, ...), running the tribody binary in a
 * directory (tb_test_tribody), capturing stderr (tb_test_capture_begin/end) and timing a
 * battery of checks (TB_TEST_RUN). */
#ifndef TB_TEST_H
#define TB_TEST_H

#include <dirent.h>
#include <gsl/gsl_test.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
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

/* Monotonic wall time in seconds. */
static inline double tb_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs one battery f() and logs its wall time as "# f: 1.2 s" (not a check line). */
#define TB_TEST_RUN(f)                                                                     \
    do {                                                                                   \
        double t0_ = tb_test_now();                                                        \
        f();                                                                               \
        printf("# %s: %.1f s\n", #f, tb_test_now() - t0_);                                 \
    } while (0)

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

/* FNV-1a over n bytes: a position array's bits in one number, pinned by tests that must keep
 * them (the random placements). */
static inline unsigned long long tb_test_fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* ---- Files and scratch directories ------------------------------------------------------
 * The helpers below report a problem with the test's own scaffolding (a directory that cannot
 * be made, a file that cannot be written) as a FAIL line and carry on; they never print a
 * PASS line, so a program's count of checks is the same whether it uses them or not. */

/* The longest path the helpers build (a scratch directory plus a file name). */
#define TB_TEST_PATH_MAX 8192

/* Writes "dir/name" into buf (size bytes); 0, or -1 with a FAIL line when it does not fit. */
static inline int tb_test_path(char *buf, size_t size, const char *dir, const char *name)
{
    const int n = snprintf(buf, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        gsl_test(1, "path %s/%s fits in %zu bytes", dir, name, size);
        return -1;
    }
    return 0;
}

/* Runs a shell command given printf-style, in a buffer of its own size; system()'s status,
 * or -1 when the command cannot be built. */
static inline int tb_test_system(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int tb_test_system(const char *fmt, ...)
{
    va_list ap;
    char *cmd;
    int n, st;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !(cmd = malloc((size_t)n + 1)))
        return -1;
    va_start(ap, fmt);
    vsnprintf(cmd, (size_t)n + 1, fmt, ap);
    va_end(ap);
    st = system(cmd);
    free(cmd);
    return st;
}

/* Makes a new empty directory /tmp/tb_test_TAG_XXXXXX (mkdtemp) and leaves its path in
 * dir (size bytes): the scratch directory of one test program. 0, or -1 with a FAIL line. */
static inline int tb_test_temp_dir(char *dir, size_t size, const char *tag)
{
    const int n = snprintf(dir, size, "/tmp/tb_test_%s_XXXXXX", tag);
    if (n < 0 || (size_t)n >= size || !mkdtemp(dir)) {
        gsl_test(1, "mkdtemp");
        return -1;
    }
    return 0;
}

/* Removes dir and everything in it (rm -rf); a FAIL line when that fails. */
static inline void tb_test_remove_dir(const char *dir)
{
    if (tb_test_system("rm -rf '%s'", dir) != 0)
        gsl_test(1, "rm -rf %s", dir);
}

/* Makes top/name afresh (removing what an earlier case left there) and returns its path, in
 * static storage that the next call overwrites: copy it to keep two at once. On failure a
 * FAIL line; the path is returned all the same (later checks in it then fail too). */
static inline const char *tb_test_fresh_dir(const char *top, const char *name)
{
    static char path[TB_TEST_PATH_MAX];
    if (tb_test_path(path, sizeof path, top, name) != 0)
        return path;
    if (tb_test_system("rm -rf '%s' && mkdir -p '%s'", path, path) != 0)
        gsl_test(1, "mkdir %s", path);
    return path;
}

/* Writes text to dir/name (replacing it) and returns the path, in static storage that the
 * next call overwrites; NULL, with a FAIL line, when the file cannot be written. */
static inline const char *tb_test_write_file(const char *dir, const char *name, const char *text)
{
    static char path[TB_TEST_PATH_MAX];
    FILE *f;
    if (tb_test_path(path, sizeof path, dir, name) != 0)
        return NULL;
    if (!(f = fopen(path, "w"))) {
        gsl_test(1, "write %s", path);
        return NULL;
    }
    fputs(text, f);
    if (fclose(f) != 0) {
        gsl_test(1, "write %s", path);
        return NULL;
    }
    return path;
}

/* Reads the whole of the open stream f, from its start, into a NUL-terminated malloc'ed
 * string (the caller frees it); NULL when it cannot. When len is not NULL, *len is set to
 * the stream's size as soon as that is known. */
static inline char *tb_test_read_stream(FILE *f, long *len)
{
    char *buf;
    long n;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        return NULL;
    if (len)
        *len = n;
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* Reads the whole file dir/name into a NUL-terminated malloc'ed string (the caller frees
 * it); NULL if it is missing or unreadable, without a FAIL line (a missing file is often
 * what a check looks for). When len is not NULL, *len is set to the file's size, and left
 * as it was when the file cannot be opened. */
static inline char *tb_test_read_file(const char *dir, const char *name, long *len)
{
    char path[TB_TEST_PATH_MAX];
    FILE *f;
    char *buf;
    if (tb_test_path(path, sizeof path, dir, name) != 0 || !(f = fopen(path, "rb")))
        return NULL;
    buf = tb_test_read_stream(f, len);
    fclose(f);
    return buf;
}

/* Whether dir1/name and dir2/name both exist and hold the same bytes. */
static inline int tb_test_same_file(const char *dir1, const char *dir2, const char *name)
{
    long l1 = -1, l2 = -2;
    char *a = tb_test_read_file(dir1, name, &l1), *b = tb_test_read_file(dir2, name, &l2);
    int same = a && b && l1 == l2 && memcmp(a, b, (size_t)l1) == 0;
    free(a);
    free(b);
    return same;
}

/* Whether dir/name (say a run's out.txt or err.txt) contains needle; prints the file, as
 * "  (name: ...)", when it does not, so that the FAIL line that follows can be read. */
static inline int tb_test_file_has(const char *dir, const char *name, const char *needle)
{
    char *s = tb_test_read_file(dir, name, NULL);
    int has = s && strstr(s, needle) != NULL;
    if (!has)
        printf("  (%s: %s)\n", name, s ? s : "(missing)");
    free(s);
    return has;
}

/* Whether dir/out.txt (the stdout and stderr of tb_test_tribody) contains needle. */
static inline int tb_test_output_has(const char *dir, const char *needle)
{
    return tb_test_file_has(dir, "out.txt", needle);
}

/* Whether dir/name exists (of any kind; a link is not followed). */
static inline int tb_test_exists(const char *dir, const char *name)
{
    char p[TB_TEST_PATH_MAX];
    struct stat st;
    return tb_test_path(p, sizeof p, dir, name) == 0 && lstat(p, &st) == 0;
}

static inline void tb_test_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Entries in directory dir, not counting those whose name starts with '.'; -1 when it cannot
 * be read. Comparing the count before and after a command shows whether it wrote a file. */
static inline int tb_test_count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return -1;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* ---- Running the tribody binary -------------------------------------------------------- */

/* Runs `ENV OMP_NUM_THREADS=2 tribody ARGS` through the shell in directory dir, stdout to
 * dir/out.txt and stderr to dir/ERR_FILE, or to out.txt as well when err_file is NULL.
 * env: NULL, or shell assignments ("NAME=value ...") put before the command; args go to the
 * shell as they are (quote what needs it). Every run gets two OpenMP threads.
 * Returns tribody's exit status; -1 when it did not exit normally or the binary is missing
 * (tb_test_bin() then prints the FAIL line). */
static inline int tb_test_tribody(const char *dir, const char *env, const char *args,
                                  const char *err_file)
{
    const char *bin = tb_test_bin();
    int st;
    if (!bin)
        return -1;
    st = tb_test_system("cd '%s' && %s OMP_NUM_THREADS=2 '%s' %s >out.txt 2>%s", dir,
                        env ? env : "", bin, args, err_file ? err_file : "&1");
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ---- Capturing stderr --------------------------------------------------------------------
 * For the library's messages: tb_test_capture_begin() sends file descriptor 2 (stderr, and
 * whatever a callee writes there) to a temporary file; tb_test_capture_end() puts it back and
 * leaves what was written in the caller's buffer. One capture at a time (they do not nest). */

typedef struct {
    FILE *file; /* where stderr goes meanwhile */
    int saved;  /* a duplicate of the real stderr, to put back */
} tb_test_capture_state;

/* The capture in progress (one per program). */
static inline tb_test_capture_state *tb_test_capture_current(void)
{
    static tb_test_capture_state cap = {NULL, -1};
    return &cap;
}

/* Sends stderr to a temporary file until tb_test_capture_end(). Exits with status 2 when no
 * temporary file can be made: every later message check would be meaningless. */
static inline void tb_test_capture_begin(void)
{
    tb_test_capture_state *cap = tb_test_capture_current();
    fflush(stderr);
    if (!(cap->file = tmpfile())) {
        perror("tmpfile");
        exit(2);
    }
    cap->saved = dup(STDERR_FILENO);
    dup2(fileno(cap->file), STDERR_FILENO);
}

/* Puts stderr back and copies what was written to it since tb_test_capture_begin() into buf
 * (size bytes, NUL-terminated; the excess is cut). Returns buf. */
static inline char *tb_test_capture_end(char *buf, size_t size)
{
    tb_test_capture_state *cap = tb_test_capture_current();
    size_t len;
    fflush(stderr);
    dup2(cap->saved, STDERR_FILENO);
    close(cap->saved);
    cap->saved = -1;
    rewind(cap->file);
    len = fread(buf, 1, size - 1, cap->file);
    buf[len] = '\0';
    fclose(cap->file);
    cap->file = NULL;
    return buf;
}

/* The first line of s (without its newline), in static storage that the next call
 * overwrites: a captured message fit for a check's one-line description. */
static inline const char *tb_test_first_line(const char *s)
{
    static char line[16384];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(s, "\n"), s);
    return line;
}

/* max_i |f_i - r_i| / max_i |r_i| over n particles (3n interleaved components). */
static inline double tb_force_error(const double *f, const double *r, int n)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < n; i++) {
        double d2 = 0.0, r2 = 0.0;
        for (int x = 0; x < 3; x++) {
            d2 += (f[3 * i + x] - r[3 * i + x]) * (f[3 * i + x] - r[3 * i + x]);
            r2 += r[3 * i + x] * r[3 * i + x];
        }
        num = fmax(num, sqrt(d2));
        den = fmax(den, sqrt(r2));
    }
    return num / den;
}

#endif
