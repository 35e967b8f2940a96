/* test_xyz.c — XYZ reading and writing: bitwise round trips, ASE and OVITO variants, and
 * every input error, each reported at its file line with TB_EXIT_USAGE. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check.h"
#include "solver/state.h"
#include "config/config.h"
#include "solver/io/xyz.h"
#include "tests/tb_test.h"

static char dir[64];
static char errbuf[8192]; /* stderr of the last captured call */

/* The captured stderr as one line, for messages. */
static const char *errline(void)
{
    return tb_test_first_line(errbuf);
}

/* A configuration of n particles (0: the file's count) of the one species of mass m, or,
 * with names (a space-separated list), of those species, each of mass m. */
static sim_config make_cfg(int n, double m, const char *names)
{
    sim_config c;
    memset(&c, 0, sizeof c);
    c.system.particles = n;
    c.system.mass = m;
    cfg_single_species(&c);
    if (names) {
        char buf[128], *save = NULL;
        snprintf(buf, sizeof buf, "%s", names);
        c.system.n_species = 0;
        c.system.species_given = 1;
        for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            snprintf(c.system.species[c.system.n_species].name, TB_SPECIES_MAX, "%s", t);
            c.system.species[c.system.n_species++].mass = m;
        }
    }
    return c;
}

/* Reads text as a file under c into s (allocated by xyz_read); returns xyz_read's status,
 * with its stderr in errbuf. */
static int read_cfg(const char *text, const sim_config *c, sim_state *s, int *has_vel)
{
    const char *path = tb_test_write_file(dir, "in.xyz", text);
    int rc;
    if (!path)
        exit(2); /* the scratch directory is unusable: nothing below could be checked */
    tb_test_capture_begin();
    rc = xyz_read(path, "system.init.file", c, s, has_vel, NULL);
    tb_test_capture_end(errbuf, sizeof errbuf);
    return rc;
}

/* read_cfg of n atoms of one species of mass m. */
static int read_text(const char *text, int n, double m, sim_state *s, int *has_vel)
{
    const sim_config c = make_cfg(n, m, NULL);
    return read_cfg(text, &c, s, has_vel);
}

/* read_cfg of n atoms of the species names, each of mass m. */
static int read_named(const char *text, int n, double m, const char *names, sim_state *s,
                      int *has_vel)
{
    const sim_config c = make_cfg(n, m, names);
    return read_cfg(text, &c, s, has_vel);
}

/* One bad input: expects TB_EXIT_USAGE and a single message line at "in.xyz:LINE: "
 * (line 0: no line number) containing every word of want. */
static void check_error(const char *what, const char *text, int n, int line, const char *want)
{
    sim_state s;
    int has_vel = -1, rc = read_text(text, n, 1.0, &s, &has_vel);
    char where[160];
    int one_line;
    if (line > 0)
        snprintf(where, sizeof where, "tribody: %s/in.xyz:%d: ", dir, line);
    else
        snprintf(where, sizeof where, "tribody: %s/in.xyz: ", dir);
    one_line = strchr(errbuf, '\n') == errbuf + strlen(errbuf) - 1;
    gsl_test(rc != TB_EXIT_USAGE, "error: %s returns TB_EXIT_USAGE (got %d)", what, rc);
    gsl_test(strncmp(errbuf, where, strlen(where)) != 0 || !strstr(errbuf, want) || !one_line,
             "error: %s: one line at line %d containing \"%s\" (got \"%.*s\")", what, line, want,
             (int)strcspn(errbuf, "\n"), errbuf);
    gsl_test(has_vel != 0, "error: %s leaves has_vel = 0", what);
    sim_state_free(&s);
}

/* A state of n particles with high-entropy values over many magnitudes. */
#define ROUND_TRIP_NAMES "Ar Kr Xe1234 H2O_abc"

static void fill_state(sim_state *s, int n, double box)
{
    sim_state_alloc(s, n);
    s->mass[0] = 2.385;
    s->box = box_cube_d(box);
    s->step = 12345;
    s->time = 61.725000000000001;
    s->e_pair = -3.1415926535897931;
    s->e_triplet = 0.0123456789012345678;
    for (int i = 0; i < 3 * n; i++) {
        const double u = sin(1.7 * i + 0.3);
        s->pos[i] = 7.123456789 * u + (i % 5 == 0 ? 1e-300 : 0.0);
        s->vel[i] = u * pow(10.0, (i % 13) - 6) / 3.0;
        s->force[i] = -u * 1e5 / 7.0;
    }
    s->vel[0] = -0.0;
    s->pos[1] = 4.9406564584124654e-324; /* subnormal */
    s->ntypes = 4; /* ROUND_TRIP_NAMES */
    snprintf(s->type_name[1], TB_SPECIES_MAX, "Kr");
    snprintf(s->type_name[2], TB_SPECIES_MAX, "Xe1234"); /* 6 + NUL of 8 */
    snprintf(s->type_name[3], TB_SPECIES_MAX, "H2O_abc"); /* 7, the longest allowed */
    for (int t = 1; t < 4; t++)
        s->mass[t] = s->mass[0];
    for (int i = 1; i < 4 && i < n; i++)
        s->type[i] = i;
}

static void test_round_trip(double box, int with_forces)
{
    const int n = 11;
    sim_state a, b;
    char path[128], *text, *comment;
    FILE *f;
    int rc, has_vel = -1, same_species = 1;
    const char *kind = box > 0 ? "periodic" : "open";

    fill_state(&a, n, box);
    snprintf(path, sizeof path, "%s/rt.xyz", dir);
    f = fopen(path, "w+");
    rc = xyz_write_frame(f, &a, with_forces, "kinetic=1.25 note=\"two words\"");
    gsl_test(rc != 0, "round trip (%s, forces %d): xyz_write_frame returns 0", kind, with_forces);
    text = tb_test_read_stream(f, NULL);
    fclose(f);

    comment = strchr(text, '\n') + 1;
    *strchr(comment, '\n') = '\0';
    gsl_test(strncmp(text, "11\n", 3) != 0, "round trip (%s): line 1 is the count", kind);
    gsl_test(!strstr(comment, with_forces ? "Properties=species:S:1:pos:R:3:vel:R:3:forces:R:3 "
                                          : "Properties=species:S:1:pos:R:3:vel:R:3 "),
             "round trip (%s, forces %d): Properties lists the columns", kind, with_forces);
    gsl_test(!strstr(comment, "Time=61.725000000000001 step=12345 "),
             "round trip (%s): Time and step in the comment", kind);
    {
        char want[64];
        snprintf(want, sizeof want, "energy=%.17g ", a.e_pair + a.e_triplet);
        gsl_test(!strstr(comment, want), "round trip (%s): energy = e_pair + e_triplet", kind);
    }
    gsl_test(!strstr(comment, " kinetic=1.25 note=\"two words\""),
             "round trip (%s): extra appended to the comment line", kind);
    if (box > 0) {
        char want[128];
        snprintf(want, sizeof want, "Lattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" ", box, box, box);
        gsl_test(!strstr(comment, want), "round trip (periodic): %s", want);
        gsl_test(!strstr(comment, "pbc=\"T T T\""), "round trip (periodic): pbc=\"T T T\"");
    } else {
        gsl_test(strstr(comment, "Lattice") != NULL, "round trip (open): no Lattice");
        gsl_test(!strstr(comment, "pbc=\"F F F\""), "round trip (open): pbc=\"F F F\"");
    }
    free(text);

    {
        const sim_config c = make_cfg(n, a.mass[0], ROUND_TRIP_NAMES);
        rc = xyz_read(path, "system.init.file", &c, &b, &has_vel, NULL);
    }
    gsl_test(rc != 0 || has_vel != 1, "round trip (%s, forces %d): xyz_read returns 0, has_vel 1",
             kind, with_forces);
    /* %.17g and strtod: the same doubles bit for bit, -0.0 and subnormals included. */
    gsl_test(memcmp(a.pos, b.pos, 3 * n * sizeof *a.pos) != 0,
             "round trip (%s, forces %d): positions identical bit for bit", kind, with_forces);
    gsl_test(memcmp(a.vel, b.vel, 3 * n * sizeof *a.vel) != 0,
             "round trip (%s, forces %d): velocities identical bit for bit", kind, with_forces);
    for (int i = 0; i < n; i++)
        same_species &= a.type[i] == b.type[i];
    gsl_test(!same_species, "round trip (%s): species identical (types by name)", kind);
    sim_state_free(&a);
    sim_state_free(&b);
}

static void test_write_error(void)
{
    sim_state a;
    FILE *f = fopen("/dev/full", "w");
    int rc;
    if (!f) {
        gsl_test(0, "write error: /dev/full not available, skipped");
        return;
    }
    fill_state(&a, 50, 0.0);
    tb_test_capture_begin();
    rc = xyz_write_frame(f, &a, 1, NULL);
    tb_test_capture_end(errbuf, sizeof errbuf);
    fclose(f);
    gsl_test(rc != -1, "write error: a full disk gives -1 (got %d)", rc);
    gsl_test(!strstr(errbuf, "tribody: cannot write an XYZ frame: No space left on device"),
             "write error: the message names the cause (got \"%.*s\")",
             (int)strcspn(errbuf, "\n"), errbuf);
    sim_state_free(&a);
}

static void test_ase_momenta(void)
{
    /* As ASE writes it: Lattice first, momenta instead of velocities. */
    const char *text =
        "3\n"
        "Lattice=\"12.5 0.0 0.0 0.0 12.5 0.0 0.0 0.0 12.5\" "
        "Properties=species:S:1:pos:R:3:momenta:R:3:masses:R:1 energy=-1.5 pbc=\"T T T\"\n"
        "Ar   0.10000000   0.20000000   0.30000000   2.38500000  -1.00000000   0.75000000  2.5\n"
        "Ar   1.50000000   1.60000000   1.70000000  -0.50000000   0.00000000   3.14159265  2.5\n"
        "Kr  -2.00000000   3.00000000   4.00000000   1.00000000   1.00000000  -1.00000000  2.5\n";
    const double m = 2.5, p[9] = {2.385, -1.0, 0.75, -0.5, 0.0, 3.14159265, 1.0, 1.0, -1.0};
    const double r[9] = {0.1, 0.2, 0.3, 1.5, 1.6, 1.7, -2.0, 3.0, 4.0};
    sim_state s;
    int has_vel = -1, ok = 1, rc = read_named(text, 3, m, "Ar Kr", &s, &has_vel);
    gsl_test(rc != 0 || has_vel != 1, "ASE momenta: read, has_vel = 1 (rc %d, %s)", rc, errline());
    for (int i = 0; i < 9; i++)
        ok &= s.vel[i] == p[i] / m && s.pos[i] == r[i];
    gsl_test(!ok, "ASE momenta: velocities = momenta / mass, positions exact");
    gsl_test(s.type[2] != 1 || s.type[1] != 0, "ASE momenta: species read (Kr is type 2)");
    sim_state_free(&s);
}

static void test_velo_column(void)
{
    /* OVITO-style names, a property between pos and velo, quoted Properties value,
     * CRLF line ends and no newline after the last line. */
    const char *text =
        "2\r\n"
        "Time=1.5 Properties=\"species:S:1:pos:R:3:id:I:1:velo:R:3\" pbc=\"F F F\"\r\n"
        "Ar 1.25 -2.5 3.75 7 0.5 -0.25 0.125\r\n"
        "Ar 0 1e-3 -4E2 8 -1 2 3";
    sim_state s;
    int has_vel = -1, rc = read_text(text, 2, 1.7, &s, &has_vel);
    const double r[6] = {1.25, -2.5, 3.75, 0.0, 1e-3, -4e2}, v[6] = {0.5, -0.25, 0.125, -1, 2, 3};
    int ok = 1;
    gsl_test(rc != 0 || has_vel != 1, "velo column: read, has_vel = 1 (rc %d, %s)", rc, errline());
    for (int i = 0; i < 6; i++)
        ok &= s.pos[i] == r[i] && s.vel[i] == v[i];
    gsl_test(!ok, "velo column: positions and velocities past a skipped I column");
    sim_state_free(&s);

    /* "velocities" and "vel" are the other names; vel wins over momenta. */
    rc = read_text("1\nProperties=species:S:1:velocities:R:3:pos:R:3\nNe 1 2 3 4 5 6\n", 1, 2.0, &s,
                   &has_vel);
    gsl_test(rc != 0 || has_vel != 1 || s.vel[0] != 1 || s.pos[2] != 6,
             "velocities column before pos");
    sim_state_free(&s);
    rc = read_text("1\nProperties=pos:R:3:momenta:R:3:vel:R:3\n1 2 3 4 5 6 7 8 9\n", 1, 2.0, &s,
                   &has_vel);
    gsl_test(rc != 0 || s.vel[0] != 7 || strcmp(s.type_name[s.type[0]], "Ar") != 0,
             "vel preferred to momenta; no species column keeps the default");
    sim_state_free(&s);
}

static void test_plain(void)
{
    const char *text = "3\n"
                       "plain comment: E = -1.5, \"unbalanced quote, properties of argon\n"
                       "  Ar  0.5 1.5 2.5 extra columns 9 9\n"
                       "He\t-1\t-2\t-3\n"
                       "Ne 1e1 2e-1 .5\n"
                       "this line and what follows are not read\n"
                       "2\n";
    const double r[9] = {0.5, 1.5, 2.5, -1, -2, -3, 10, 0.2, 0.5};
    sim_state s;
    int has_vel = -1, ok = 1, rc = read_named(text, 3, 1.0, "Ne He Ar", &s, &has_vel);
    gsl_test(rc != 0 || has_vel != 0, "plain XYZ: read, has_vel = 0 (rc %d, %s)", rc, errline());
    for (int i = 0; i < 9; i++)
        ok &= s.pos[i] == r[i] && s.vel[i] == 0;
    gsl_test(!ok, "plain XYZ: positions read, extra columns ignored, velocities untouched");
    gsl_test(s.type[0] != 2 || s.type[1] != 1 || s.type[2] != 0,
             "plain XYZ: species read, each the type of its name in system.species");
    sim_state_free(&s);

    /* Lattice without Properties: ASE's default columns, species x y z. */
    rc = read_text("1\nLattice=\"5 0 0 0 5 0 0 0 5\" pbc=\"T T T\"\nAr 1 2 3\n", 1, 1.0, &s,
                   &has_vel);
    gsl_test(rc != 0 || has_vel != 0 || s.pos[2] != 3, "extended XYZ without Properties");
    sim_state_free(&s);
}

static void test_errors(void)
{
    sim_state s;
    char want[256];
    int rc;

    /* The file is missing: the message names the path and the setting, no line. */
    const sim_config c3 = make_cfg(3, 1.0, NULL);
    snprintf(want, sizeof want, "%s/missing.xyz", dir);
    tb_test_capture_begin();
    rc = xyz_read(want, "system.init.file", &c3, &s, NULL, NULL);
    tb_test_capture_end(errbuf, sizeof errbuf);
    snprintf(want, sizeof want,
             "tribody: %s/missing.xyz: cannot open system.init.file: No such file or directory\n",
             dir);
    gsl_test(rc != TB_EXIT_USAGE || strcmp(errbuf, want) != 0,
             "error: missing file (got \"%.*s\")", (int)strcspn(errbuf, "\n"), errbuf);
    sim_state_free(&s);

    check_error("empty file", "", 3, 1, "empty file");
    check_error("count not a number", "three\ncomment\n", 3, 1, "atom count");
    check_error("count zero", "0\ncomment\n", 3, 1, "an integer 1 .. 100000000");
    check_error("count negative", "-3\n", 3, 1, "an integer 1 .. 100000000");
    check_error("count with trailing text", "3 atoms\n", 3, 1, "\"3 atoms\"");
    check_error("count mismatch", "100\ncomment\n", 128, 1,
                "system.init.file has 100 atoms but system.particles = 128");
    check_error("no comment line", "3\n", 3, 1,
                "file ends at line 1, expected a comment line and 3 atom lines");
    check_error("too few atom lines", "3\ncomment\nAr 0 0 0\nAr 1 0 0\n", 3, 4,
                "file ends at line 4, expected 3 atom lines (lines 3-5)");
    check_error("malformed number", "3\nc\nAr 0 0 0\nAr 1 x 0\nAr 2 0 0\n", 3, 4,
                "column 3 (y): malformed number \"x\"");
    check_error("number with trailing junk", "3\nc\nAr 0 0 0\nAr 1 0 0\nAr 2 0 1.5.2\n", 3, 5,
                "column 4 (z): malformed number \"1.5.2\"");
    check_error("too few columns", "3\nc\nAr 0 0 0\nAr 1 0 0\nAr 2 0\n", 3, 5,
                "3 columns, expected 4 (species x y z)");
    check_error("blank atom line", "3\nc\nAr 0 0 0\n\nAr 2 0 0\n", 3, 4, "0 columns, expected 4");
    check_error("nan", "3\nc\nAr nan 0 0\nAr 1 0 0\nAr 2 0 0\n", 3, 3,
                "column 2 (x): non-finite value \"nan\"");
    check_error("inf", "3\nc\nAr 0 0 0\nAr 1 0 0\nAr 2 0 -inf\n", 3, 5,
                "non-finite value \"-inf\"");
    check_error("overflow", "3\nc\nAr 0 0 0\nAr 1 1e400 0\nAr 2 0 0\n", 3, 4,
                "column 3 (y): non-finite value \"1e400\"");
    check_error("species too long", "3\nc\nAr 0 0 0\nAr 1 0 0\nArgonium 2 0 0\n", 3, 5,
                "species \"Argonium\" is longer than 7 characters");
    check_error("no pos", "3\nProperties=species:S:1:vel:R:3\nAr 0 0 0\n", 3, 2,
                "no pos property");
    check_error("Properties not triplets", "3\nProperties=species:S:1:pos:R\nAr 0 0 0\n", 3, 2,
                "name:type:columns triplets");
    check_error("Properties bad type", "3\nProperties=species:S:1:pos:X:3\nAr 0 0 0\n", 3, 2,
                "pos has type \"X\"");
    check_error("Properties bad count", "3\nProperties=species:S:1:pos:R:0\nAr 0 0 0\n", 3, 2,
                "pos has column count \"0\"");
    check_error("pos not 3 columns", "3\nProperties=species:S:1:pos:R:2\nAr 0 0\n", 3, 2,
                "pos must be R:3 (got R:2)");
    check_error("vel not real", "3\nProperties=species:S:1:pos:R:3:vel:S:3\nAr 0 0 0\n", 3, 2,
                "vel must be R:3 (got S:3)");
    check_error("extended too few columns",
                "2\nProperties=species:S:1:pos:R:3:vel:R:3\nAr 0 0 0 1 2 3\nAr 0 0 0 1 2\n", 2, 4,
                "6 columns, expected 7 (from Properties)");
    check_error("extended malformed velocity",
                "2\nProperties=species:S:1:pos:R:3:velo:R:3\nAr 0 0 0 1 2 3\nAr 0 0 0 1 2 3,\n",
                2, 4, "column 7 (velo z): malformed number \"3,\"");
    check_error("extended malformed momentum",
                "2\nProperties=species:S:1:pos:R:3:momenta:R:3\nAr 0 0 0 1 2 3\nAr 0 0 0 q 2 3\n",
                2, 4, "column 5 (momenta x)");
    check_error("extended malformed position",
                "2\nProperties=species:S:1:pos:R:3\nAr 0 0 0\nAr 0 0 0x\n", 2, 4,
                "column 4 (pos z): malformed number \"0x\"");
}

int main(void)
{
    tb_test_init();
    snprintf(dir, sizeof dir, "/tmp/tb_test_xyz_XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_round_trip(0.0, 0);
    test_round_trip(0.98765432109876, 1);
    test_round_trip(0.0, 1);
    test_write_error();
    test_ase_momenta();
    test_velo_column();
    test_plain();
    test_errors();
    {
        char path[128];
        static const char *const names[] = {"in.xyz", "rt.xyz"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            unlink(path);
        }
        rmdir(dir);
    }
    return tb_test_done();
}
