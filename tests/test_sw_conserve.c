/* test_sw_conserve.c — energy conservation of Stillinger-Weber over 10^5 NVE steps (issue 24):
 * tests/lammps/sw_si (64 atoms of rattled diamond Si under Si.sw, 1000 K), velocity Verlet at
 * dt = 0.001 ps for 100 ps on the CPU backend in double, the total energy every 1000 steps,
 * against LAMMPS's run of the same system (tests/lammps/sw_si_conserve.in, its log kept as
 * sw_si_conserve.log: fix nve, thermo every 1000 steps).
 *
 * Checked: the largest excursion of E - E0 and its standard deviation over the 101 samples
 * within 1 % of LAMMPS's (the two trajectories agree to 1e-10 eV for 3 x 10^4 steps and part
 * slowly after, so their statistics agree far closer than 1 %); the excursion within 2.5e-5
 * of |E0| (LAMMPS 1.8e-5: the O(dt^2) wobble of the shadow energy of Verlet at 1 fs); the
 * least-squares drift over the run within 5e-6 of |E0| (LAMMPS 1.1e-6). A force that is not
 * the energy's gradient, a lost neighbour or a late list rebuild shows as drift. A few
 * seconds on one thread (64 atoms: more threads only wait on each other). */
#include <omp.h>

#include "tests/tb_test.h"

#include "config/config.h"
#include "solver/backend.h"
#include "solver/io/init.h"
#include "solver/state.h"

#define NS 101 /* samples: steps 0, 1000, ..., 100000 */

/* LAMMPS's total energies (the log's TotEng column, steps 0 .. 100000 by 1000); 0 or -1. */
static int read_log(const char *path, double *e)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int on = 0, k = 0;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f) && k < NS) {
        long step;
        double t, pe, ke, et;
        if (!strncmp(line, "Step", 4))
            on = 1;
        else if (on && sscanf(line, "%ld %lf %lf %lf %lf", &step, &t, &pe, &ke, &et) == 5 &&
                 step == 1000L * k)
            e[k++] = et;
    }
    fclose(f);
    return k == NS ? 0 : -1;
}

/* max |E - E0|, the standard deviation of E - E0, the least-squares slope times the run's
 * length (samples at equal intervals). */
static void stats(const double *e, double out[3])
{
    double mx = 0.0, m = 0.0, v = 0.0, sxy = 0.0, sxx = 0.0;
    for (int k = 0; k < NS; k++) {
        mx = fmax(mx, fabs(e[k] - e[0]));
        m += (e[k] - e[0]) / NS;
    }
    for (int k = 0; k < NS; k++) {
        const double d = e[k] - e[0] - m, x = k - 0.5 * (NS - 1);
        v += d * d / NS;
        sxy += x * d;
        sxx += x * x;
    }
    out[0] = mx;
    out[1] = sqrt(v);
    out[2] = sxy / sxx * (NS - 1);
}

static void test_conserve(void)
{
    static sim_config c;
    sim_state s = {0};
    backend *b = NULL;
    double el[NS], et[NS], sl[3], st[3];
    if (read_log("tests/lammps/sw_si_conserve.log", el) != 0 ||
        cfg_load(&c, "tests/lammps/sw_si.cfg", 0, NULL) != 0 || sim_init(&s, &c) != 0) {
        gsl_test(1, "sw_si_conserve: the case and LAMMPS's log load");
        return;
    }
    c.solver.precision = CFG_PREC_DOUBLE;
    int rc = cpu_backend_ops.create(&b, &c, &s) || cpu_backend_ops.compute(b);
    for (int k = 0; k < NS && rc == 0; k++) {
        double ke = 0.0;
        if (k > 0)
            rc = cpu_backend_ops.advance(b, 1000);
        rc = rc || cpu_backend_ops.kinetic(b, &ke) || cpu_backend_ops.fetch(b, &s);
        et[k] = ke + s.e_pair + s.e_triplet;
    }
    cpu_backend_ops.destroy(b);
    sim_state_free(&s);
    if (rc != 0) {
        gsl_test(1, "sw_si_conserve: 10^5 steps run");
        return;
    }
    stats(el, sl);
    stats(et, st);
    const double E0 = fabs(et[0]);
    gsl_test(!(fabs(et[0] - el[0]) <= 1e-10 * E0), "sw_si: E0 %.12f eV, LAMMPS's %.12f eV",
             et[0], el[0]);
    gsl_test(!(fabs(st[0] - sl[0]) <= 0.01 * sl[0] && fabs(st[1] - sl[1]) <= 0.01 * sl[1]),
             "sw_si, 10^5 NVE steps (dt 1 fs, CPU double): max |E - E0| %.4e eV, std %.4e eV; "
             "LAMMPS's %.4e, %.4e (within 1 %%)", st[0], st[1], sl[0], sl[1]);
    gsl_test(!(st[0] <= 2.5e-5 * E0 && fabs(st[2]) <= 5e-6 * E0),
             "sw_si, 10^5 NVE steps: max |E - E0| / |E0| = %.2e (<= 2.5e-5), least-squares drift "
             "over 100 ps %.2e eV = %.2e of |E0| (<= 5e-6; LAMMPS's %.2e eV)", st[0] / E0, st[2],
             st[2] / E0, sl[2]);
}

int main(void)
{
    tb_test_init();
    omp_set_num_threads(1);
    TB_TEST_RUN(test_conserve);
    return tb_test_done();
}
