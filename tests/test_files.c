/* test_files.c — initial states from other programs' files and the files tribody writes for
 * them: LAMMPS data files (system.init.type = "lammps": the values read, every bad input
 * refused with one line naming file, line and setting), and scripts/lammps-compare, tribody's
 * evaluation of the four LAMMPS cases of tests/lammps/ against LAMMPS's own numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/check.h"
#include "config/config.h"
#include "config/units.h"
#include "solver/io/checkpoint.h"
#include "solver/io/init.h"
#include "solver/io/xyz.h"
#include "solver/state.h"
#include "tests/tb_test.h"

#define PYTHON "/usr/bin/python3"
#define LMP "/usr/bin/lmp"

static char dir[TB_TEST_PATH_MAX]; /* scratch directory */
static char errbuf[8192];           /* stderr of the last captured call */

/* cfg_load and sim_init of dir/name.cfg (text cfg) with dir/name.data (text data; NULL: none
 * written), stderr captured in errbuf. Returns the first nonzero status, 0 with s filled. */
static int load(const char *name, const char *cfg, const char *data, sim_state *s)
{
    char cname[64], dname[64], path[TB_TEST_PATH_MAX];
    sim_config c;
    int rc;
    memset(s, 0, sizeof *s);
    snprintf(cname, sizeof cname, "%s.cfg", name);
    snprintf(dname, sizeof dname, "%s.data", name);
    if (data && !tb_test_write_file(dir, dname, data))
        return -99;
    if (!tb_test_write_file(dir, cname, cfg) || tb_test_path(path, sizeof path, dir, cname) != 0)
        return -99;
    tb_test_capture_begin();
    rc = cfg_load(&c, path, 0, NULL);
    if (rc == 0)
        rc = sim_init(s, &c);
    tb_test_capture_end(errbuf, sizeof errbuf);
    return rc;
}

/* ---- scripts/lammps-compare ----------------------------------------------------------------- */

/* The script on the four cases; one check per case: every measure (relative differences of
 * the LJ and ATM energies, the forces, the virial tensor) at most 1e-10 in double on the CPU
 * (measured: at most 1.6e-14). */
static void test_compare(void)
{
    static const char *const cases[] = {"mix_ortho", "tri_two", "slab_ppf", "argon_metal"};
    const char *bin = tb_test_bin();
    char cmd[TB_TEST_PATH_MAX], line[512];
    int seen[4] = {0, 0, 0, 0};
    FILE *p;
    if (access(PYTHON, X_OK) != 0) {
        printf("# notice: %s is missing: scripts/lammps-compare not run\n", PYTHON);
        return;
    }
    if (!bin)
        return;
    snprintf(cmd, sizeof cmd, "%s scripts/lammps-compare --tribody '%s' mix_ortho tri_two "
                              "slab_ppf argon_metal 2>&1", PYTHON, bin);
    if (!(p = popen(cmd, "r"))) {
        gsl_test(1, "lammps-compare: popen");
        return;
    }
    while (fgets(line, sizeof line, p)) {
        char name[32], verdict[16];
        double m[4];
        fputs(line, stdout);
        if (sscanf(line, "%31s %lf %lf %lf %lf %15s", name, &m[0], &m[1], &m[2], &m[3],
                   verdict) != 6)
            continue;
        for (int k = 0; k < 4; k++)
            if (!strcmp(name, cases[k])) {
                const double worst = fmax(fmax(m[0], m[1]), fmax(m[2], m[3]));
                seen[k] = 1;
                gsl_test(!(worst <= 1e-10) || strcmp(verdict, "PASS") != 0,
                         "lammps-compare %s: E_lj %.2e, E_atm %.2e, force %.2e, virial %.2e "
                         "against LAMMPS, all <= 1e-10", name, m[0], m[1], m[2], m[3]);
            }
    }
    gsl_test(pclose(p) != 0, "lammps-compare exits 0");
    for (int k = 0; k < 4; k++)
        gsl_test(!seen[k], "lammps-compare prints a row for %s", cases[k]);
}

/* ---- what a data file gives ------------------------------------------------------------------ */

/* tests/lammps/tri_two: the triclinic box, the species, an atom by id. */
static void test_read_tri(void)
{
    sim_config c;
    sim_state s;
    int rc;
    tb_test_capture_begin();
    rc = cfg_load(&c, "tests/lammps/tri_two.cfg", 0, NULL);
    if (rc == 0)
        rc = sim_init(&s, &c);
    tb_test_capture_end(errbuf, sizeof errbuf);
    gsl_test(rc != 0, "tri_two.cfg loads without system.particles and system.box (%s)",
             tb_test_first_line(errbuf));
    if (rc != 0)
        return;
    gsl_test(s.n != 125 || s.ntypes != 2 || strcmp(s.type_name[1], "B") != 0 || s.mass[1] != 1.7,
             "tri_two: 125 atoms of 2 species, type 2 is B of mass 1.7 (got %d, %d, %s, %g)",
             s.n, s.ntypes, s.type_name[1], s.mass[1]);
    gsl_test(s.box.l[0] != 7.0 || s.box.l[1] != 6.1 - -0.5 || s.box.l[2] != 6.8 ||
                 s.box.xy != 1.3 || s.box.xz != -0.9 || s.box.yz != 0.7 ||
                 s.box.lo[0] != 0.2 || s.box.lo[1] != -0.5 || s.box.lo[2] != 0.0 ||
                 s.box.pbc != TB_BOX_PERIODIC_ALL,
             "tri_two: the box is the file's: l (%.17g %.17g %.17g), tilts (%g %g %g), lo (%g %g "
             "%g), periodic (boundary not given: LAMMPS's p p p)", s.box.l[0], s.box.l[1],
             s.box.l[2], s.box.xy, s.box.xz, s.box.yz, s.box.lo[0], s.box.lo[1], s.box.lo[2]);
    /* "1 1 1.0937946046301932 0.38530407082827084 0.8080902434974564": inside the box, kept
     * bit for bit; "6 2 ...": the 6th by id is of species B */
    gsl_test(s.pos[0] != 1.0937946046301932 || s.pos[1] != 0.38530407082827084 ||
                 s.pos[2] != 0.8080902434974564 || s.type[0] != 0 || s.type[5] != 1 ||
                 s.type[1] != 0,
             "tri_two: atom 1 at its file position bit for bit, atom 6 of type B");
    gsl_test(sim_temperature(&s) != 0.0, "tri_two: no Velocities and temperature 0: at rest");
    sim_state_free(&s);
}

/* A metal data file with Velocities and ids out of order: sorted by id, velocities in A/ps
 * taken as they are, the masses internal (39.948 * mvv2e). */
static void test_read_metal(void)
{
    static const char cfg[] =
        "units = \"metal\";\n"
        "system = { species = ( { name = \"Ar\"; mass = 39.948; }, { name = \"Kr\"; mass = "
        "83.798; } ); init = { type = \"lammps\"; file = \"metal.data\"; }; };\n"
        "potential = { lj = { epsilon = 0.0104; sigma = 3.4; cutoff = 4.0; }; };\n"
        "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n";
    static const char data[] =
        "metal test\n\n3 atoms\n2 atom types\n0 10 xlo xhi\n0 11 ylo yhi\n0 12 zlo zhi\n\n"
        "Masses\n\n1 39.948 # Ar\n2 83.798 # Kr\n\n"
        "Atoms # atomic\n\n7 2 5 5 5 0 0 0\n2 1 1 1 1\n3 1 12.5 2 3 1 0 0\n\n"
        "Velocities\n\n3 0.3 0.2 0.1\n7 -1 -2 -3\n2 1.5 -0.5 0.25\n";
    const tb_units *u = units_of(CFG_UNITS_METAL);
    sim_state s;
    int rc = load("metal", cfg, data, &s);
    gsl_test(rc != 0, "metal.data: loads (%s)", tb_test_first_line(errbuf));
    if (rc != 0)
        return;
    /* by id: 2 (Ar, 1 1 1), 3 (Ar, x 12.5 wrapped to 2.5), 7 (Kr, 5 5 5) */
    gsl_test(s.n != 3 || s.type[0] != 0 || s.type[1] != 0 || s.type[2] != 1 ||
                 s.pos[0] != 1.0 || s.pos[3] != 2.5 || s.pos[6] != 5.0,
             "metal.data: atoms sorted by id (2, 3, 7), types Ar Ar Kr, x of id 3 wrapped "
             "12.5 -> 2.5 (got %g)", s.pos[3]);
    gsl_test(s.vel[0] != 1.5 || s.vel[1] != -0.5 || s.vel[2] != 0.25 || s.vel[6] != -1.0 ||
                 s.vel[8] != -3.0,
             "metal.data: Velocities by id, in A/ps as written, not redrawn");
    gsl_test(s.mass[1] != units_mass_internal(u, 83.798),
             "metal.data: Kr's internal mass 83.798 * mvv2e (got %.17g)", s.mass[1]);
    sim_state_free(&s);
}

/* ---- bad input: one line naming the file, its line and the setting; status 2 ------------------- */

static const char head2[] = /* two species A, B in lj units, LJ cutoff 2.5 */
    "system = { species = ( { name = \"A\"; mass = 1.0; }, { name = \"B\"; mass = 2.0; } );\n"
    "  init = { type = \"lammps\"; file = \"bad.data\"; }; %s };\n"
    "potential = { lj = { cutoff = 2.5; }; %s };\n"
    "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n";

/* A data file of 3 atoms in a 10 x 10 x 10 box, with `header` after the counts, `masses` as
 * the Masses section (NULL: none) and `types` for the three atoms. */
static void data_text(char *buf, size_t size, const char *ntypes, const char *header,
                      const char *masses, const char *types)
{
    int t[3];
    sscanf(types, "%d %d %d", &t[0], &t[1], &t[2]);
    snprintf(buf, size,
             "bad\n\n3 atoms\n%s atom types\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n%s\n"
             "%s%s%s"
             "Atoms # atomic\n\n1 %d 1 1 1\n2 %d 2 2 2\n3 %d 3 3 3\n",
             ntypes, header, masses ? "Masses\n\n" : "", masses ? masses : "",
             masses ? "\n" : "", t[0], t[1], t[2]);
}

/* One bad input: the load fails with status 2 and its first line holds every needle. */
static void bad(const char *what, const char *cfg_extra, const char *pot_extra, const char *ntypes,
                const char *header, const char *masses, const char *types, const char *n1,
                const char *n2)
{
    char cfg[2048], data[2048];
    sim_state s;
    int rc;
    snprintf(cfg, sizeof cfg, head2, cfg_extra, pot_extra);
    data_text(data, sizeof data, ntypes, header, masses, types);
    rc = load("bad", cfg, data, &s);
    const char *l = tb_test_first_line(errbuf);
    gsl_test(rc != TB_EXIT_USAGE || !strstr(l, n1) || (n2 && !strstr(l, n2)) ||
                 strchr(errbuf, '\n') != errbuf + strlen(errbuf) - 1,
             "bad input, %s: exit 2, one line with \"%s\"%s%s%s (got %d: %s)", what, n1,
             n2 ? " and \"" : "", n2 ? n2 : "", n2 ? "\"" : "", rc, l);
    if (rc == 0)
        sim_state_free(&s);
}

static void test_bad(void)
{
    /* the good file first, so that every failure below is the one change's */
    {
        char cfg[2048], data[2048];
        sim_state s;
        snprintf(cfg, sizeof cfg, head2, "", "");
        data_text(data, sizeof data, "2", "", "1 1\n2 2\n", "1 2 1");
        const int rc = load("bad", cfg, data, &s);
        gsl_test(rc != 0 || s.n != 3 || s.type[1] != 1,
                 "bad input's control: the unchanged file loads (%s)", tb_test_first_line(errbuf));
        if (rc == 0)
            sim_state_free(&s);
    }
    bad("a type beyond system.species", "", "", "3", "", NULL, "1 2 3",
        "bad.data:4: system.init.file: 3 atom types, but system.species has 2 (A, B)", NULL);
    bad("an atom's type beyond the header's", "", "", "1", "", NULL, "1 2 1",
        "bad.data:12: system.init.file: Atoms: type \"2\" is not one of the 1 atom types", NULL);
    bad("a count other than system.particles", "particles = 4;", "", "2", "", NULL, "1 1 1",
        "bad.data:3: system.init.file: 3 atoms, but system.particles = 4", NULL);
    bad("system.box given with a data file", "box = 10.0;", "", "2", "", NULL, "1 1 1",
        "system.box", "the data file gives the box");
    bad("a tilt beyond LAMMPS's limit", "", "", "2", "6 0 0 xy xz yz\n", NULL, "1 1 1",
        "bad.data:8: system.init.file: xy = 6 is beyond LAMMPS's limit |xy| <= lx/2 = 5", NULL);
    bad("a tilt along an open axis", "boundary = \"ppf\";", "", "2", "0 1 0 xy xz yz\n", NULL,
        "1 1 1", "bad.data:8: system.init.file: xz = 1 tilts along the open axis z", NULL);
    bad("a cutoff above half the file box's width", "", "atm = { nu = 0.1; cutoff = 6.0; };", "2",
        "", NULL, "1 1 1", "bad.data: system.init.file: potential.atm.cutoff 6 exceeds half the "
        "smallest periodic width of the file's box (5)", NULL);
    bad("a missing mass", "", "", "2", "", "1 1\n", "1 1 1",
        "bad.data:9: system.init.file: Masses gives no mass for type 2 (B)", NULL);
    bad("a mass other than the species'", "", "", "2", "", "1 1\n2 2.5\n", "1 1 1",
        "bad.data:12: system.init.file: Masses: type 2 has mass 2.5, but its species B has 2",
        NULL);
    bad("a Masses label of another species", "", "", "2", "", "1 1 # B\n2 2\n", "1 1 1",
        "bad.data:11: system.init.file: Masses: type 1 is labelled B", NULL);
    bad("a molecular count", "", "", "2", "2 bonds\n", NULL, "1 1 1",
        "bad.data:8: system.init.file: \"2 bonds\": tribody reads atom_style atomic only", NULL);
    bad("an atom outside an open axis", "boundary = \"ppf\";", "", "2", "0 2.5 zlo zhi\n", NULL,
        "1 1 1",
        "system.init.file: Atoms: atom 3 lies outside zlo zhi", NULL);
}

/* An unknown section, a repeated id and a full style: their own data files. */
static void test_bad_sections(void)
{
    static const char cfg[] =
        "system = { init = { type = \"lammps\"; file = \"sec.data\"; }; };\n"
        "potential = { lj = { cutoff = 2.5; }; };\n"
        "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"\"; };\n";
    static const char *const cases[][3] = {
        {"Bonds", "x\n\n3 atoms\n1 atom types\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\n"
                  "Atoms\n\n1 1 1 1 1\n2 1 2 2 2\n3 1 3 3 3\n\nBonds\n\n1 1 1 2\n",
         "sec.data:15: system.init.file: section \"Bonds\" is not read"},
        {"id twice", "x\n\n3 atoms\n1 atom types\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo zhi\n\n"
                     "Atoms\n\n1 1 1 1 1\n2 1 2 2 2\n1 1 3 3 3\n",
         "sec.data:13: system.init.file: Atoms: id 1 is given twice"},
        {"Atoms # full", "x\n\n3 atoms\n1 atom types\n0 10 xlo xhi\n0 10 ylo yhi\n0 10 zlo "
                         "zhi\n\nAtoms # full\n\n1 1 1 0 1 1 1\n",
         "sec.data:9: system.init.file: Atoms # full: tribody reads atom_style atomic only"},
        {"short file", "x\n\n3 atoms\n1 atom types\n\nAtoms\n\n1 1 0 0 0\n",
         "sec.data:8: system.init.file: Atoms: the file ends after 1 of its 3 lines"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sim_state s;
        const int rc = load("sec", cfg, cases[k][1], &s);
        gsl_test(rc != TB_EXIT_USAGE || !strstr(errbuf, cases[k][2]),
                 "bad input, %s: exit 2 with \"%s\" (got %d: %s)", cases[k][0], cases[k][2], rc,
                 tb_test_first_line(errbuf));
        if (rc == 0)
            sim_state_free(&s);
    }
}

/* ---- output.data ------------------------------------------------------------------------------ */

/* The potential and species lines of tests/lammps/CASE.cfg: everything but init and output. */
static const char *const out_cases[][3] = {
    {"tri_two", "species = ( { name = \"A\"; mass = 1.0; }, { name = \"B\"; mass = 1.7; } );",
     "lj = { shift = true; mix = \"geometric\"; pairs = ( { species = [\"A\", \"A\"]; "
     "epsilon = 1.0; sigma = 1.0; cutoff = 2.5; }, { species = [\"B\", \"B\"]; epsilon = 1.3; "
     "sigma = 0.92; cutoff = 2.9; } ); }; atm = { cutoff = 3.1; cutoff_triple = 2.7; triplets = "
     "( { species = [\"A\", \"A\", \"A\"]; nu = 0.072; } ); };"},
    {"slab_ppf", "species = ( { name = \"A\"; mass = 1.0; }, { name = \"B\"; mass = 3.0; } ); "
                 "boundary = \"ppf\";",
     "lj = { shift = true; mix = \"arithmetic\"; pairs = ( { species = [\"A\", \"A\"]; "
     "epsilon = 1.0; sigma = 1.0; cutoff = 2.5; }, { species = [\"B\", \"B\"]; epsilon = 0.7; "
     "sigma = 1.2; cutoff = 3.0; } ); }; atm = { cutoff = 3.2; triplets = ( { species = "
     "[\"A\", \"A\", \"A\"]; nu = 0.072; } ); };"},
};

/* A run from tests/lammps/CASE.data writes output.data and a checkpoint at its end: the data
 * file read back (system.init.type = "lammps", its Velocities) is the checkpoint's state bit
 * for bit; and LAMMPS's read_data + run 0 reads it (Debian's lmp, when installed). */
static void test_data_out(void)
{
    for (size_t k = 0; k < sizeof out_cases / sizeof out_cases[0]; k++) {
        const char *name = out_cases[k][0];
        char src[64], cfg[4096], path[TB_TEST_PATH_MAX];
        long len;
        char *data;
        sim_state a, b;
        ckpt_extra x;
        int rc;
        snprintf(src, sizeof src, "%s.data", name);
        if (!(data = tb_test_read_file("tests/lammps", src, &len)))
            continue;
        tb_test_write_file(dir, "start.data", data);
        free(data);
        snprintf(cfg, sizeof cfg,
                 "system = { %s init = { type = \"lammps\"; file = \"start.data\"; temperature = "
                 "0.5; }; };\npotential = { %s };\nintegrator = { steps = 10; dt = 0.002; };\n"
                 "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"end.tbck\"; data = "
                 "\"final.data\"; };\n", out_cases[k][1], out_cases[k][2]);
        tb_test_write_file(dir, "run.cfg", cfg);
        remove(strcat(strcpy(path, dir), "/final.data"));
        remove(strcat(strcpy(path, dir), "/end.tbck"));
        rc = tb_test_tribody(dir, NULL, "run run.cfg", NULL);
        gsl_test(rc != 0 || !tb_test_exists(dir, "final.data"),
                 "output.data, %s: a run of 10 steps writes final.data (exit %d)", name, rc);
        if (rc != 0)
            continue;
        snprintf(cfg, sizeof cfg,
                 "system = { %s init = { type = \"lammps\"; file = \"final.data\"; }; };\n"
                 "potential = { %s };\noutput = { thermo = \"\"; trajectory = \"\"; "
                 "checkpoint = \"\"; };\n", out_cases[k][1], out_cases[k][2]);
        rc = load("back", cfg, NULL, &b);
        tb_test_capture_begin();
        const int rca = ckpt_read(strcat(strcpy(path, dir), "/end.tbck"), 0, NULL, &a, &x);
        tb_test_capture_end(errbuf, sizeof errbuf);
        gsl_test(rc != 0 || rca != 0, "output.data, %s: final.data and end.tbck read (%d, %d)",
                 name, rc, rca);
        if (rc != 0 || rca != 0)
            continue;
        free(x.thermostat);
        gsl_test(a.n != b.n || memcmp(a.pos, b.pos, 3 * sizeof *a.pos * (size_t)a.n) ||
                     memcmp(a.vel, b.vel, 3 * sizeof *a.vel * (size_t)a.n) ||
                     memcmp(a.type, b.type, sizeof *a.type * (size_t)a.n) ||
                     memcmp(a.box.l, b.box.l, sizeof a.box.l) ||
                     memcmp(a.box.lo, b.box.lo, sizeof a.box.lo) || a.box.xy != b.box.xy ||
                     a.box.xz != b.box.xz || a.box.yz != b.box.yz || a.box.pbc != b.box.pbc ||
                     a.mass[1] != b.mass[1],
                 "output.data, %s: read back, the final state bit for bit (positions, "
                 "velocities, types, box; step %ld)", name, a.step);
        sim_state_free(&a);
        sim_state_free(&b);
        if (access(LMP, X_OK) != 0) {
            printf("# notice: %s is missing: LAMMPS's read_data not tried\n", LMP);
            continue;
        }
        snprintf(cfg, sizeof cfg, "units lj\natom_style atomic\nboundary p p %c\n"
                                  "read_data final.data\npair_style lj/cut 2.5\n"
                                  "pair_coeff * * 1 1\nrun 0\n", k == 1 ? 'f' : 'p');
        tb_test_write_file(dir, "in.lmp", cfg);
        rc = tb_test_system("cd '%s' && %s -in in.lmp -log none -screen lmp.txt >/dev/null 2>&1",
                            dir, LMP);
        char *log = tb_test_read_file(dir, "lmp.txt", &len);
        gsl_test(rc != 0 || !log || !strstr(log, k == 0 ? "125 atoms" : "75 atoms") ||
                     !strstr(log, "velocities") || strstr(log, "ERROR"),
                 "output.data, %s: LAMMPS reads it (read_data: every atom and velocity, run 0; "
                 "exit %d)", name, rc);
        free(log);
    }
}

/* output.data is a path like output.checkpoint: /dev/null (it would be replaced) and a path
 * that another output uses are refused before step 0. */
static void test_data_paths(void)
{
    static const char *const bad_data[][2] = {
        {"/dev/null", "output.data"},
        {"end.tbck", "the same path"},
    };
    char data[1024];
    data_text(data, sizeof data, "1", "", NULL, "1 1 1");
    tb_test_write_file(dir, "p.data", data);
    for (size_t k = 0; k < 2; k++) {
        char cfg[1024];
        snprintf(cfg, sizeof cfg,
                 "system = { init = { type = \"lammps\"; file = \"p.data\"; }; };\n"
                 "potential = { lj = { cutoff = 2.5; }; };\nintegrator = { steps = 2; };\n"
                 "output = { thermo = \"\"; trajectory = \"\"; checkpoint = \"end.tbck\"; "
                 "data = \"%s\"; };\n", bad_data[k][0]);
        tb_test_write_file(dir, "p.cfg", cfg);
        const int rc = tb_test_tribody(dir, NULL, "run p.cfg", NULL);
        gsl_test(rc != 2 || !tb_test_output_has(dir, bad_data[k][1]),
                 "output.data = \"%s\": refused before step 0, exit 2 (got %d)", bad_data[k][0],
                 rc);
    }
}

/* ---- extended XYZ and ASE -------------------------------------------------------------------- */

/* ASE's side of the round trip (Debian's python3-ase): "read PATH" prints what ASE reads of a
 * frame tribody wrote; "write PATH CASE" writes Ar, Ar, Kr as ASE does (CASE 0: an orthorhombic
 * slab, pbc T T F; 1: a rotated triclinic cell, pbc T T T), velocities in ASE's units. */
static const char ase_py[] =
    "import sys, numpy as np, ase, ase.io\n"
    "if sys.argv[1] == 'read':\n"
    "    a = ase.io.read(sys.argv[2], format='extxyz')\n"
    "    f = lambda v: ' '.join('%.17g' % x for x in np.ravel(v))\n"
    "    print('cell', f(a.cell[:]))\n"
    "    print('pbc', ' '.join('T' if p else 'F' for p in a.pbc))\n"
    "    print('symbols', ' '.join(a.get_chemical_symbols()))\n"
    "    print('pos', f(a.positions))\n"
    "    print('vel', f(a.get_velocities()))\n"
    "else:\n"
    "    r = [[1.0, 1.5, 2.0], [4.0, 2.5, 1.0], [2.5, 4.0, 3.0]]\n"
    "    cell = [[10, 0, 0], [0, 11, 0], [0, 0, 12]]\n"
    "    if sys.argv[3] == '1':\n"
    "        c, s = np.cos(0.3), np.sin(0.3)\n"
    "        R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ np.array([[1, 0, 0], [0, c, s], [0, -s, c]])\n"
    "        cell = (np.array([[10, 0, 0], [2, 11, 0], [1, -3, 12]]) @ R.T).tolist()\n"
    "        r = (np.array(r) @ R.T).tolist()\n"
    "    a = ase.Atoms('Ar2Kr', positions=r, cell=cell, pbc=[True, True, sys.argv[3] == '1'])\n"
    "    a.set_velocities([[0.01, -0.02, 0.03], [0.0, 0.005, -0.001], [-0.004, 0.0, 0.002]])\n"
    "    ase.io.write(sys.argv[2], a, format='extxyz')\n";

/* Runs ase_side.py (not ase.py: it would hide the package) with args in dir; its stdout
 * into out (size bytes). 0 or -1. */
static int run_ase(const char *args, char *out, size_t size)
{
    char cmd[TB_TEST_PATH_MAX + 256];
    FILE *p;
    size_t len;
    snprintf(cmd, sizeof cmd, "cd '%s' && %s ase_side.py %s 2>&1", dir, PYTHON, args);
    if (!(p = popen(cmd, "r")))
        return -1;
    len = fread(out, 1, size - 1, p);
    out[len] = '\0';
    return pclose(p) == 0 ? 0 : -1;
}

/* The numbers after "key " on its line of out into x (at most n); their count. */
static int ase_numbers(const char *out, const char *key, double *x, int n)
{
    char pat[32];
    const char *p;
    int k = 0;
    snprintf(pat, sizeof pat, "%s ", key);
    if (!(p = strstr(out, pat)))
        return 0;
    p += strlen(pat);
    while (k < n && *p && *p != '\n') {
        char *end;
        x[k] = strtod(p, &end);
        if (end == p)
            break;
        k++;
        p = end;
    }
    return k;
}

/* tribody writes a metal frame (a tilted cell with an origin, pbc T T F, Ar Ar Kr, velocities
 * in A/ps): ASE reads the cell, pbc, symbols and positions exactly, and its velocities
 * (momenta / masses) are tribody's divided by 1000 ase.units.fs = 98.22694788464063 (1e-14);
 * ASE writes two frames (a slab; a rotated triclinic cell): tribody reads the species by name,
 * the velocities times that factor, and the rotated cell as LAMMPS's restricted form (lengths,
 * volume, the fractional positions and the speeds unchanged to ASE's 8 printed decimals). */
static void test_ase(void)
{
    const double fs1000 = 98.22694788464063;
    char out[8192], path[TB_TEST_PATH_MAX];
    if (access(PYTHON, X_OK) != 0 || tb_test_system("%s -c 'import ase' 2>/dev/null", PYTHON)) {
        printf("# notice: %s with ase is missing: the ASE round trip not run\n", PYTHON);
        return;
    }
    tb_test_write_file(dir, "ase_side.py", ase_py);
    { /* tribody -> ASE */
        sim_state a;
        const double l[3] = {10, 11, 12}, lo[3] = {-1, 0.5, 2};
        const int per[3] = {1, 1, 0};
        double x[16];
        sim_state_alloc(&a, 3);
        a.units = CFG_UNITS_METAL;
        a.ntypes = 2;
        snprintf(a.type_name[0], TB_SPECIES_MAX, "Ar");
        snprintf(a.type_name[1], TB_SPECIES_MAX, "Kr");
        a.mass[0] = units_mass_internal(units_of(CFG_UNITS_METAL), 39.948);
        a.mass[1] = units_mass_internal(units_of(CFG_UNITS_METAL), 83.798);
        a.type[2] = 1;
        a.box = box_make_d(l, 2.5, 0.0, 0.0, lo, per);
        for (int i = 0; i < 9; i++) {
            a.pos[i] = 1.0 + 0.7 * i + 1e-3 * sin(i);
            a.vel[i] = 3.0 * cos(1.3 * i);
        }
        FILE *f = fopen(strcat(strcpy(path, dir), "/t.xyz"), "w");
        const int rc = !f || xyz_write_frame(f, &a, 0, NULL) != 0;
        if (f)
            fclose(f);
        gsl_test(rc || run_ase("read t.xyz", out, sizeof out) != 0, "ASE reads tribody's frame (%s)",
                 tb_test_first_line(out));
        const double cell[9] = {10, 0, 0, 2.5, 11, 0, 0, 0, 12};
        int ok = ase_numbers(out, "cell", x, 9) == 9;
        for (int k = 0; ok && k < 9; k++)
            ok = x[k] == cell[k];
        gsl_test(!ok || !strstr(out, "pbc T T F") || !strstr(out, "symbols Ar Ar Kr"),
                 "ASE reads tribody's cell (a, b, c rows), pbc T T F and symbols Ar Ar Kr");
        ok = ase_numbers(out, "pos", x, 9) == 9;
        for (int k = 0; ok && k < 9; k++)
            ok = x[k] == a.pos[k];
        gsl_test(!ok, "ASE reads tribody's positions bit for bit");
        double err = ase_numbers(out, "vel", x, 9) == 9 ? 0.0 : 1.0;
        for (int k = 0; k < 9; k++)
            err = fmax(err, fabs(x[k] * fs1000 - a.vel[k]) / fabs(a.vel[k]));
        gsl_test(!(err < 1e-14), "ASE's velocities are tribody's A/ps / 98.22694788464063 "
                                 "(relative %.1e)", err);
        sim_state_free(&a);
    }
    for (int k = 0; k < 2; k++) { /* ASE -> tribody */
        char args[64];
        sim_state s;
        int has_vel = 0, has_cell = 0;
        sim_config c;
        memset(&c, 0, sizeof c);
        c.units = CFG_UNITS_METAL;
        c.system.species_given = 1;
        c.system.n_species = 2;
        snprintf(c.system.species[0].name, TB_SPECIES_MAX, "Kr");
        snprintf(c.system.species[1].name, TB_SPECIES_MAX, "Ar");
        c.system.species[0].mass = 83.798;
        c.system.species[1].mass = 39.948;
        snprintf(args, sizeof args, "write a%d.xyz %d", k, k);
        gsl_test(run_ase(args, out, sizeof out) != 0, "ASE writes frame %d (%s)", k,
                 tb_test_first_line(out));
        tb_test_capture_begin();
        const int rc = xyz_read(strcat(strcpy(path, dir), k ? "/a1.xyz" : "/a0.xyz"),
                                "system.init.file", &c, &s, &has_vel, &has_cell);
        tb_test_capture_end(errbuf, sizeof errbuf);
        gsl_test(rc != 0 || !has_vel || !has_cell || s.n != 3 || s.type[0] != 1 || s.type[2] != 0,
                 "tribody reads ASE's frame %d: species by name (Ar type 2, Kr type 1), velocities "
                 "and the cell (%s)", k, tb_test_first_line(errbuf));
        if (rc != 0)
            continue;
        const double va[9] = {0.01, -0.02, 0.03, 0.0, 0.005, -0.001, -0.004, 0.0, 0.002};
        double err = 0.0;
        if (k == 0) {
            for (int i = 0; i < 9; i++)
                err = fmax(err, fabs(s.vel[i] - va[i] * fs1000) / 0.03 / fs1000);
            gsl_test(!(err < 1e-14) || s.box.pbc != 3 || s.box.l[0] != 10 || s.box.l[1] != 11 ||
                         s.box.l[2] != 12 || s.pos[3] != 4.0,
                     "ASE slab: pbc T T F, cell 10 x 11 x 12, positions exact, velocities x "
                     "98.22694788464063 in A/ps (relative %.1e)", err);
        } else {
            /* the rotation keeps lengths, the volume and fractional coordinates */
            const double r0[3] = {1.0, 1.5, 2.0}, r1[3] = {4.0, 2.5, 1.0};
            double d2 = 0.0, e2 = 0.0, vn = 0.0, wn = 0.0, f[3];
            for (int a = 0; a < 3; a++) {
                d2 += (s.pos[3 + a] - s.pos[a]) * (s.pos[3 + a] - s.pos[a]);
                e2 += (r1[a] - r0[a]) * (r1[a] - r0[a]);
                vn += s.vel[a] * s.vel[a];
                wn += va[a] * va[a] * fs1000 * fs1000;
            }
            box_fraction_d(&s.box, s.pos + 6, f);
            /* (2.5, 4, 3) in the cell rows (10,0,0), (2,11,0), (1,-3,12): w = 1/4,
             * v = (4 + 3/4) / 11, u = (2.5 - 2 v - 1/4) / 10 */
            const double fv = 4.75 / 11.0, fu = (2.25 - 2.0 * fv) / 10.0;
            err = fmax(fabs(sqrt(d2) - sqrt(e2)), fabs(s.box.l[0] * s.box.l[1] * s.box.l[2] - 1320.0) / 1320.0);
            err = fmax(err, fmax(fabs(f[2] - 0.25), fmax(fabs(f[1] - fv), fabs(f[0] - fu))));
            err = fmax(err, fabs(sqrt(vn) - sqrt(wn)) / sqrt(wn));
            /* ASE writes 8 decimals (%16.8f): the rotated numbers are rounded at 1e-8 */
            gsl_test(!(err < 1e-7) || s.box.pbc != 7 || !s.box.tilted,
                     "ASE rotated cell: restricted triclinic, lengths, volume 1320, fractional "
                     "positions and speeds kept to ASE's 8 decimals (worst %.1e)", err);
        }
        sim_state_free(&s);
    }
}

int main(void)
{
    tb_test_init();
    if (tb_test_temp_dir(dir, sizeof dir, "files") != 0)
        return tb_test_done();
    TB_TEST_RUN(test_read_tri);
    TB_TEST_RUN(test_read_metal);
    TB_TEST_RUN(test_bad);
    TB_TEST_RUN(test_bad_sections);
    TB_TEST_RUN(test_data_out);
    TB_TEST_RUN(test_data_paths);
    TB_TEST_RUN(test_ase);
    TB_TEST_RUN(test_compare);
    tb_test_remove_dir(dir);
    return tb_test_done();
}
