/* test_bench.c — the plumbing of `tribody bench` on the CPU: bad usage exits 2 with one
 * message, a tiny CPU run prints its table and writes a CSV with every repeat, the GPU-only
 * experiments say so and check the maps' blocks on the host, --plot writes its summaries
 * (and PNGs when gnuplot is installed). A benchmark is not a test: no timing is judged here.
 * Every run passes --cpu, so the test behaves the same on a machine with a GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "solver/gpu/gpu_bench.h"
#include "tests/tb_test.h"

static char top[4096]; /* a fresh temporary directory for this program */
static char root[4096]; /* the repository (the test's working directory) */

/* Runs `tribody bench ARGS` in dir, stdout to out.txt and stderr to err.txt; exit status. */
static int bench(const char *dir, const char *args)
{
    char env[4200], cmd[4200];
    snprintf(env, sizeof env, "TB_PLOT_BENCH='%s/scripts/plot-bench'", root);
    snprintf(cmd, sizeof cmd, "bench %s", args);
    return tb_test_tribody(dir, env, cmd, "err.txt");
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; s && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Lines of s that start with prefix. */
static int lines_starting(const char *s, const char *prefix)
{
    int n = 0;
    const size_t k = strlen(prefix);
    for (const char *p = s; p && *p;) {
        if (!strncmp(p, prefix, k))
            n++;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return n;
}

/* Bad usage: exit 2, one message on stderr naming the problem, nothing on stdout. */
static void test_bad_usage(void)
{
    static const struct {
        const char *args, *says;
    } cases[] = {
        {"--cpu --bogus", "unknown option"},
        {"--cpu --n", "missing value"},
        {"--cpu --n abc", "--n"},
        {"--cpu --n 2", "--n"},
        {"--cpu --n 1024:16:x2", "--n"},
        {"--cpu --n 8:64:x1", "--n"},
        {"--cpu --tile 0", "--tile"},
        {"--cpu --repeat 0", "--repeat"},
        {"--cpu --repeat 5x", "--repeat"},
        {"--cpu --kernel fast", "--kernel"},
        {"--cpu --maps nope", "unknown map"},
        {"--cpu --maps lambda2d", "unknown map"},
        {"--cpu --2d --maps lambda", "unknown 2D map"},
        {"--cpu --2d --maps lambda2d:cbrt", "unknown 2D map"},
        {"--cpu --precisions quad", "--precisions"},
        {"--cpu --2d --features 5", "--features"},
        {"--cpu --budget -1", "--budget"},
        {"--cpu a.cfg b.cfg", "one CONFIG"},
        {"--cpu missing.cfg", "missing.cfg"},
        {"--cpu --set solver.tile=0", "solver.tile"},
        {"--cpu --set no.such.setting=1", "no.such.setting"},
        {"--liquid --cpu --state gas", "--state"},
        {"--liquid --cpu --state", "--state"},
    };
    const char *dir = tb_test_fresh_dir(top, "usage");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int rc = bench(dir, cases[i].args);
        char *err = tb_test_read_file(dir, "err.txt", NULL);
        char *out = tb_test_read_file(dir, "out.txt", NULL);
        if (err && *err && err[strlen(err) - 1] == '\n')
            err[strlen(err) - 1] = '\0';
        gsl_test(rc != 2, "bench %s: exit status 2 (got %d)", cases[i].args, rc);
        gsl_test(!err || !strstr(err, cases[i].says), "bench %s: stderr names '%s' (%s)",
                 cases[i].args, cases[i].says, err ? err : "(none)");
        gsl_test(!out || out[0] != '\0', "bench %s: nothing on stdout", cases[i].args);
        free(err);
        free(out);
    }
    {
        char *out;
        gsl_test(bench(dir, "--help") != 0, "bench --help exits 0");
        out = tb_test_read_file(dir, "out.txt", NULL);
        gsl_test(!out || !strstr(out, "usage: tribody bench") || !strstr(out, "--kernel") ||
                     !strstr(out, "--2d") || !strstr(out, "--plot"),
                 "bench --help shows the usage with --kernel, --2d and --plot");
        free(out);
    }
}

/* The solver timing on the CPU (the old `tribody bench` CLI): table and CSV. */
static void test_cpu_solver(void)
{
    const char *dir = tb_test_fresh_dir(top, "solver");
    char *out, *csv;
    const int rc = bench(dir, "--cpu --n 24,40 --tile 4 --repeat 3 --csv runs.csv");
    gsl_test(rc != 0, "CPU solver bench exits 0 (got %d)", rc);
    out = tb_test_read_file(dir, "out.txt", NULL);
    csv = tb_test_read_file(dir, "runs.csv", NULL);
    gsl_test(!out || !strstr(out, "CPU backend"), "the output says it is the CPU backend");
    gsl_test(!out || !strstr(out, "triplets/s") || !strstr(out, "I=bb/map"),
             "the table has triplets/s and I = bb/map columns");
    /* one row per (n, map): 2 x 5 maps, each starting with the right-aligned n */
    gsl_test(lines_starting(out, "     24    4 ") != 5 || lines_starting(out, "     40    4 ") != 5,
             "one table row per n and map (5 maps, n = 24 and 40)");
    gsl_test(count_of(out, "failed") != 0, "no point failed");
    gsl_test(!csv || !strstr(csv, "\nkernel,map,n,nb,tile,precision,features,repeat,seconds,rate,"
                                  "rate_unit,blocks,useful,backend\n"),
             "the CSV has its header after the # lines");
    gsl_test(lines_starting(csv, "solver3d,") != 2 * 5 * 3,
             "the CSV has every repeat: 2 n x 5 maps x 3 repeats = 30 rows (got %d)",
             lines_starting(csv, "solver3d,"));
    gsl_test(lines_starting(csv, "solver3d,bb,40,10,4,mixed,0,2,") != 1,
             "a CSV row reads kernel,map,n,nb,tile,precision,features,repeat,...");
    free(out);
    free(csv);
}

/* CONFIG, --set, --maps and --precisions as the old command took them. */
static void test_config_file(void)
{
    const char *dir = tb_test_fresh_dir(top, "config");
    char *out;
    int rc;
    tb_test_write_file(dir, "sim.cfg",
                       "system = { particles = 40; seed = 3; };\n"
                       "potential = { atm = { nu = 0.0731; }; };\n"
                       "solver = { backend = \"cpu\"; tile = 8; };\n");
    rc = bench(dir, "sim.cfg --n 30 --maps lambda,bb --precisions double,single --repeat 2 "
                    "--set solver.tile=5");
    out = tb_test_read_file(dir, "out.txt", NULL);
    gsl_test(rc != 0, "bench CONFIG --maps --precisions --set exits 0 (got %d)", rc);
    gsl_test(!out || !strstr(out, "solver: one full force evaluation (ATM)"),
             "a config without LJ times ATM alone");
    gsl_test(lines_starting(out, "     30    5 double    ") != 2 ||
                 lines_starting(out, "     30    5 single    ") != 2,
             "--set solver.tile=5 and two precisions: 2 maps each");
    gsl_test(!out || !strstr(out, "     30    5 double    bb "),
             "bb is timed first, so every row has its I");
    free(out);
}

/* bench --liquid's two starts on the CPU: --state random is examples/liquid.cfg's (uniform,
 * 0.9 sigma apart, rho 0.8), whose ATM triplets within 4.5 sigma number ~7150 per particle
 * (scripts/count-triplets: 234,370,393 at N = 32768), as at N = 1000 within 3 %; the default,
 * 1000 of the 1372 sites of a 7^3 fcc lattice at the same density, has another count. */
static void test_liquid_states(void)
{
    const char *dir = tb_test_fresh_dir(top, "liquid");
    double tr[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        char *csv, *p;
        const int rc = bench(dir, k ? "--liquid --cpu --n 1000 --steps 1 --repeat 1 --csv l.csv "
                                      "--state random"
                                    : "--liquid --cpu --n 1000 --steps 1 --repeat 1 --csv l.csv");
        gsl_test(rc != 0, "bench --liquid --cpu --n 1000%s exits 0 (got %d)",
                 k ? " --state random" : "", rc);
        csv = tb_test_read_file(dir, "l.csv", NULL);
        p = csv ? strstr(csv, "\n1000,mixed,cpu,") : NULL;
        /* n,precision,backend,step_ms,us_per_atom_step,force_ms,triplets,... */
        if (p && sscanf(p, "\n1000,mixed,cpu,%*[^,],%*[^,],%*[^,],%lf,", &tr[k]) != 1)
            tr[k] = 0;
        free(csv);
    }
    gsl_test(!(tr[1] > 0.97 * 7150e3 && tr[1] < 1.03 * 7150e3),
             "bench --liquid --state random: %.0f ATM triplets per particle, the liquid's ~7150 "
             "within 3 %%", tr[1] / 1000);
    gsl_test(!(tr[0] > 0 && fabs(tr[0] - tr[1]) > 0.02 * tr[1]),
             "the fcc-sites start is another state (%.0f triplets per particle)", tr[0] / 1000);
}

/* The map-only kernel needs a GPU: skipped, with the blocks checked on the host. */
static void test_cpu_map_kernel(void)
{
    const char *dir = tb_test_fresh_dir(top, "map");
    char *out;
    const int rc = bench(dir, "--cpu --kernel map --n 64,100 --tile 4,8");
    gsl_test(rc != 0, "bench --kernel map on the CPU exits 0 (got %d)", rc);
    out = tb_test_read_file(dir, "out.txt", NULL);
    gsl_test(!out || !strstr(out, "needs a GPU"), "it says the dummy kernel needs a GPU");
    gsl_test(count_of(out, "host ok") != 2 * 2 * 6,
             "every map's blocks pass the host check (2 n x 2 tiles x 5 maps and lambda-once; "
             "got %d)", count_of(out, "host ok"));
    gsl_test(count_of(out, "FAIL") != 0, "no host check fails");
    gsl_test(!out || !strstr(out, "4,096"), "bb at nb = 16 launches 4,096 blocks");
    /* the decode-once row: lambda's plan (nb = 16 at n = 64, tile 4: Tet(16) = 816 blocks) */
    {
        const char *row = out ? strstr(out, "\n     64     16    4 lambda-once ") : NULL;
        const char *end = row ? strchr(row + 1, '\n') : NULL;
        const char *blk = row ? strstr(row, " 816 ") : NULL;
        gsl_test(lines_starting(out, "     64     16    4 lambda-once ") != 1 || !blk ||
                     (end && blk > end) || !strstr(out, "4 lambda ") ||
                     strstr(out, "4 lambda ") > row,
                 "a lambda-once row per point, after lambda, with lambda's 816 blocks");
    }
    free(out);
    /* --maps without lambda: no lambda-once row */
    dir = tb_test_fresh_dir(top, "map_no_lambda");
    gsl_test(bench(dir, "--cpu --kernel map --n 64 --tile 4 --maps rec") != 0,
             "bench --kernel map --maps rec exits 0");
    out = tb_test_read_file(dir, "out.txt", NULL);
    gsl_test(!out || lines_starting(out, "     64     16    4 lambda-once") != 0 ||
                 count_of(out, "host ok") != 1,
             "--maps rec: one row (rec), no lambda-once");
    free(out);
}

/* --2d on the CPU: the kernels are skipped, the pair term runs; --plot summaries. */
static void test_cpu_2d_and_plot(void)
{
    const char *dir = tb_test_fresh_dir(top, "two_d");
    char *out, *csv, *sum, png[8400];
    const int gnuplot = system("command -v gnuplot >/dev/null 2>&1") == 0;
    const int rc = bench(dir, "--cpu --2d --n 64,96 --tile 8 --repeat 2 --csv runs.csv --plot plots");
    gsl_test(rc != 0, "bench --2d on the CPU exits 0 (got %d)", rc);
    out = tb_test_read_file(dir, "out.txt", NULL);
    csv = tb_test_read_file(dir, "runs.csv", NULL);
    gsl_test(!out || !strstr(out, "needs a GPU"), "--2d: the dummy and EDM kernels need a GPU");
    gsl_test(count_of(out, "blocks/T2") != 3, "--2d: a blocks/T2 row per n (and the legend)");
    gsl_test(!out || !strstr(out, "l2d-newton") || !strstr(out, "rb2d") || !strstr(out, "utm2d"),
             "--2d: a column per 2D map, lambda2d once per root");
    gsl_test(lines_starting(out, "     64     8    8 mixed") != 1 ||
                 lines_starting(out, "     96    12    8 mixed") != 1,
             "--2d: one pair-term row per n");
    gsl_test(lines_starting(csv, "pair2d,") != 2 * 8 * 2,
             "--2d: the CSV has 2 n x 8 variants x 2 repeats of the pair term (got %d)",
             lines_starting(csv, "pair2d,"));
    gsl_test(lines_starting(csv, "pair2d,lambda2d:rsqrtf,96,12,8,") != 2,
             "--2d: lambda2d's roots are named lambda2d:ROOT in the CSV");
    sum = tb_test_read_file(dir, "plots/pair2d.csv", NULL);
    gsl_test(!sum || lines_starting(sum, "pair2d,") != 16,
             "--plot: plots/pair2d.csv has one row per point (16)");
    gsl_test(!sum || !strstr(sum, "kernel,map,n,nb,tile,precision,features,median_s,min_s,max_s,I,"),
             "--plot: the summary has its header");
    snprintf(png, sizeof png, "%s/plots/pair2d-tile8-mixed.png", dir);
    if (gnuplot)
        gsl_test(access(png, R_OK) != 0, "--plot: gnuplot made %s", png);
    else
        gsl_test(!out || !strstr(out, "gnuplot is not installed"),
                 "--plot: without gnuplot it says so and where the data is");
    free(out);
    free(csv);
    free(sum);
}

/* scripts/plot-bench alone: usage, and PNGs from a summary. */
static void test_plot_script(void)
{
    static const char edm_csv[] =
        "# made by hand\n"
        "kernel,map,n,nb,tile,precision,features,median_s,min_s,max_s,I,rate,rate_unit,"
        "blocks,useful,backend\n"
        "edm,bb2d,1024,64,16,single,2,2e-5,1.9e-5,2.1e-5,1,1,entries/s,4096,2080,gpu\n"
        "edm,bb2d,2048,128,16,single,2,7e-5,6.9e-5,7.1e-5,1,1,entries/s,16384,8256,gpu\n"
        "edm,rec2d,1024,64,16,single,2,1.8e-5,1.7e-5,1.9e-5,1.11,1,entries/s,2080,2080,gpu\n"
        "edm,rec2d,2048,128,16,single,2,6e-5,5.9e-5,6.1e-5,1.17,1,entries/s,8256,8256,gpu\n";
    const char *dir = tb_test_fresh_dir(top, "script");
    char cmd[12000], path[8400];
    int st;
    snprintf(cmd, sizeof cmd, "'%s/scripts/plot-bench' >/dev/null 2>&1", root);
    st = system(cmd);
    gsl_test(!WIFEXITED(st) || WEXITSTATUS(st) != 2, "plot-bench without arguments exits 2");
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return;
    tb_test_write_file(dir, "edm.csv", edm_csv);
    snprintf(cmd, sizeof cmd, "'%s/scripts/plot-bench' '%s' '%s/png' >/dev/null 2>&1", root, dir,
             dir);
    st = system(cmd);
    gsl_test(!WIFEXITED(st) || WEXITSTATUS(st) != 0, "plot-bench CSVDIR OUTDIR exits 0");
    snprintf(path, sizeof path, "%s/png/edm-tile16-f2.png", dir);
    gsl_test(access(path, R_OK) != 0, "plot-bench made %s", path);
    snprintf(path, sizeof path, "%s/png/edm-tile16-f2-time.png", dir);
    gsl_test(access(path, R_OK) != 0, "plot-bench made %s", path);
}

/* The verification signature (gpu_bench.h) the GPU checks its dummy kernels with: its closed
 * form against direct sums, exact mod 2^64 where the products wrap; one tile missing, doubled
 * or outside the domain changes it. */
static void test_signature(void)
{
    int bad = 0;
    for (unsigned long long T = 0; T <= 3000; T++) {
        bench_sig want, got = {0, 0, 0, 0};
        bench_sig_expect(&want, T);
        for (unsigned long long w = 0; w < T; w++)
            bench_sig_add(&got, w, 1);
        bad += !bench_sig_equal(&got, &want);
    }
    gsl_test(bad, "signature closed form equals the direct sums for T = 0..3000");
    {
        static const unsigned long long big[] = {4294967303ULL, 91655508672LL, 140744681016030LL,
                                                 1099511627779ULL, 3037000499ULL * 2 + 1};
        bad = 0;
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
            const unsigned __int128 T = big[i];
            bench_sig want;
            bench_sig_expect(&want, big[i]);
            bad += want.sum != (unsigned long long)(T * (T - 1) / 2) ||
                   want.sumsq != (unsigned long long)((T - 1) * T * (2 * T - 1) / 6);
        }
        gsl_test(bad, "signature closed form is exact mod 2^64 for T up to 1.4e14 (128-bit check)");
    }
    {
        const int nb = 7;
        bench_sig all = {0, 0, 0, 0}, want, miss, twice, out;
        bench_sig_expect(&want, (unsigned long long)map3d_tet(nb));
        for (int K = 0; K < nb; K++)
            for (int J = 0; J <= K; J++)
                for (int I = 0; I <= J; I++)
                    bench_sig_tile3(&all, I, J, K, nb);
        gsl_test(!bench_sig_equal(&all, &want), "every tile of D3(7) once gives the expected signature");
        miss = all;
        miss.tiles--, miss.sum -= 40, miss.sumsq -= 1600; /* drop idx 40 */
        twice = miss;
        bench_sig_tile3(&twice, 1, 2, 5, nb); /* and add another tile again */
        out = all;
        bench_sig_tile3(&out, 3, 2, 5, nb); /* I > J */
        gsl_test(bench_sig_equal(&miss, &want) || bench_sig_equal(&twice, &want) ||
                     bench_sig_equal(&out, &want) || out.bad != 1,
                 "a missing, a doubled or an outside tile changes the signature");
    }
}

int main(void)
{
    tb_test_init();
    if (!getcwd(root, sizeof root)) {
        gsl_test(1, "getcwd");
        return tb_test_done();
    }
    if (tb_test_temp_dir(top, sizeof top, "bench") != 0)
        return tb_test_done();
    test_signature();
    test_bad_usage();
    test_liquid_states();
    test_cpu_solver();
    test_config_file();
    test_cpu_map_kernel();
    test_cpu_2d_and_plot();
    test_plot_script();
    tb_test_remove_dir(top);
    return tb_test_done();
}
