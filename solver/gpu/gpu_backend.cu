/* gpu_backend.cu — the GPU backend: state on the device, forces through the maps, velocity
 * Verlet in the small kernels of gpu_motion.cu; the host sees the state only when fetch()
 * copies it back.
 *
 * One CUDA stream. A force evaluation: zero the accumulators, the triplet kernels (one per
 * launch of the map's plan), the pair kernels, then one kernel that turns the accumulators
 * into forces (gpu_step.cu). A step: kick-drift kernel (which also rounds positions to float
 * for the float kernels, and zeroes the accumulators), a force evaluation, kick (done by the
 * evaluation's last kernel; TB_STEP_FUSE=1 or 0: the kernels apart, as before). Every runtime call goes through CUDA_CHECK and
 * every launch through TB_LAUNCH_CHECK; advance() synchronizes once at its end so that an
 * asynchronous fault is reported by the call that caused it (except in a run that reads its
 * checks late: docs/gpu.md, "A step's waits"). The lists' skin test is speculated: the forces
 * run on the current lists, and the next operation reads the test and rolls back a stale
 * evaluation (gpu_spec.cu).
 *
 * Species: the positions carry each particle's type in their fourth lane (gpu_internal.h),
 * uploaded at create and kept by every kernel that writes positions; with several species the
 * coefficient tables (pot_params.h) are copied to the device once and the kernels' copies of
 * the coefficients point there. The device itself (how many, which one per rank, the build):
 * gpu_device.cu. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps3d/dispatch.h"
#include "solver/backend.h"
#include "common/check.h"
#include "solver/gpu/gpu.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/gpu/gpu_backend_int.h"
#include "solver/par/mpi.h"
#include "solver/physics/nbr_list.h"
#include "solver/physics/pot.h"
#include "solver/par/split.h"

int gpu_wait_count; /* gpu_internal.h's waits, counted (TB_WAITS=1) */
long long gpu_syncs, gpu_event_waits, gpu_event_blocking;

/* ---- setup ------------------------------------------------------------------------- */

static void gpu_destroy(backend *b)
{
    if (!b)
        return;
    gpu_spec_report(b);
    cudaFree(b->d_vel_spec);
    cudaFree(b->d_table);
    cudaFree(b->d_pos);
    cudaFree(b->d_vel);
    cudaFree(b->d_force);
    cudaFree(b->d_posf);
    cudaFree(b->d_tab_d);
    cudaFree(b->d_tab_f);
    cudaFree(b->d_acc);
    cudaFree(b->d_acc_f);
    cudaFree(b->d_fix);
    cudaFree(b->d_energy);
    cudaFree(b->d_efix);
    gpu_nbr_destroy(b->nb);
    cudaFree(b->d_virial);
    cudaFree(b->d_xi);
    cudaFree(b->d_ke);
    gpu_rdf_free(b->rdfw);
    cudaFree(b->d_ke3);
    gpu_mtk_free(b);
    cudaFree(b->d_vfix);
    cudaFree(b->d_finite);
    if (b->h_finite)
        cudaFreeHost(b->h_finite);
    if (b->h_res)
        cudaFreeHost(b->h_res);
    for (int e = 0; e < 2; e++)
        if (b->ev_fin[e])
            cudaEventDestroy(b->ev_fin[e]);
    cudaFree(b->d_h3);
    if (b->stage_pinned)
        cudaFreeHost(b->h_stage);
    else
        free(b->h_stage);
    for (int k = 0; k < GPU_TSLOTS; k++)
        for (int e = 0; e < 8; e++)
            if (b->ev[k][e])
                cudaEventDestroy(b->ev[k][e]);
    if (b->st)
        cudaStreamDestroy(b->st);
    map3d_plan_free(&b->p3);
    free(b);
}

/* Device bytes the backend will allocate for n particles. */
static size_t gpu_bytes(const backend *b)
{
    size_t per = 3 * sizeof(tb_double4) + sizeof(float4) + 3 * sizeof(double); /* + d_h3 */
    per += b->args.mode == ACC_FIXED ? 8 * sizeof(unsigned long long)
           : b->args.mode == ACC_FLOAT ? 4 * sizeof(float)
                                       : 4 * sizeof(double);
    size_t lists = 0;
    if (b->cull) { /* keys, order, offsets, reference positions, the velocities a rollback
                    * restores (gpu_spec.cu); rows of ~ (2 pi/3) rho R^3 */
        const double R = b->nbr_radius, rho = box_periodic_d(&b->pp.d.box) ? b->n / box_volume_d(&b->pp.d.box) : 1.0;
        const double row = fmin((double)b->n, 2.1 * rho * R * R * R + 8.0);
        lists = (size_t)b->n * (6 * sizeof(int) + 2 * sizeof(tb_double4)) +
                (size_t)(2.5 * row * (double)b->n) * 2 * sizeof(int);
    }
    return per * (size_t)b->n + (size_t)b->p3.table_len * sizeof(long long) + lists + 4096 +
           (b->ntypes > 1 ? sizeof(pot_tab_d) + sizeof(pot_tab_f) : 0);
}

/* Checks the configuration against what the GPU kernels support; TB_EXIT_USAGE if not. */
static int gpu_check_config(const backend *b, const sim_config *c)
{
    if (b->pp.sw_on && !b->cull) { /* the centred body runs on the full lists (gpu_sw.cu) */
        tb_error(c->path, 0, "solver.cull: Stillinger-Weber (potential.sw) runs on the "
                             "neighbour lists only (got false)");
        return TB_EXIT_USAGE;
    }
    if (!b->cull && b->pp.atm_on && b->rho != 8 && b->rho != 16 && b->rho != 32) {
        tb_error(c->path, 0, "solver.tile = %d: the GPU triplet kernel takes tiles of 8, 16 or "
                             "32 particles", b->rho);
        return TB_EXIT_USAGE;
    }
    /* the box's own widths (tilted or not, some axes open): the state's, which a file may give */
    const double quarter = 0.5 * box_half_width_d(&b->pp.d.box);
    const double rc = b->pp.d.atm_rc2 < TB_NO_CUTOFF2 ? sqrt(b->pp.d.atm_rc2) : HUGE_VAL;
    if (!b->cull && b->pp.atm_on && b->pp.periodic && rc > quarter * (1 + 1e-12)) {
        tb_error(c->path, 0, "potential.atm.cutoff = %g: in a periodic box the GPU's "
                             "all-triplets path needs a cutoff <= a quarter of the smallest "
                             "periodic width (L/4) = %g (its pair tables use one minimum image "
                             "per pair); use solver.cull = true (the neighbour-list path takes "
                             "up to half), lower it, or enlarge system.box",
                 rc, quarter);
        return TB_EXIT_USAGE;
    }
    return 0;
}

static int gpu_plans(backend *b, const sim_config *c)
{
    char err[256];
    const int nb = map3d_nb(b->n, b->rho);
    map3d_opts o3 = {0, 0, 0};
    map2d_opts o2 = {0};
    cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, b->dev));
    b->m3 = map3d_find(c->solver.map);
    b->m2 = map2d_find(c->solver.map2d);
    if (b->cull)
        return 0; /* the neighbour-list path uses no map plan */
    if (b->pp.atm_on) {
        const int fl = (b->cut ? GPU_ATM_CUT : 0) | GPU_ATM_TYPES(b->ntypes);
        const int per_sm = b->dbl ? gpu_atm_occupancy_d(b->rho, fl) : gpu_atm_occupancy_f(b->rho, fl);
        o3.persistent_blocks = prop.multiProcessorCount * (per_sm > 0 ? per_sm : 1);
        o3.w_begin = b->args.w_lo; /* this rank's share (split.h) */
        o3.w_end = b->args.w_hi;
        if (b->args.w_lo < b->args.w_hi &&
            map3d_plan_make(b->m3, nb, &o3, &b->p3, err, sizeof err) != 0) {
            tb_error(c->path, 0, "solver.map: %s (n = %d, solver.tile = %d)", err, b->n, b->rho);
            return TB_EXIT_USAGE;
        }
    }
    o2.root = map2d_root_find(c->solver.root);
    if (b->pp.lj_on && map2d_plan_make(b->m2, nb, &o2, &b->p2, err, sizeof err) != 0) {
        tb_error(c->path, 0, "solver.map2d: %s (n = %d, solver.tile = %d)", err, b->n, b->rho);
        return TB_EXIT_USAGE;
    }
    return 0;
}

/* Sums this rank's accumulators over the ranks (NCCL, on the backend's stream), before the
 * forces are formed from them. Deterministic mode sums the fixed-point words as integers. */
static int gpu_reduce(backend *b, int stats)
{
    const size_t n = (size_t)b->n;
    int rc = 0;
    if (b->nranks == 1)
        return 0;
    if (gpu_comm_begin() != 0)
        return -1;
    switch (b->args.mode) {
    case ACC_DOUBLE:
        rc |= gpu_comm_sum(b->d_acc, 4 * n, 0, b->st);
        break;
    case ACC_FLOAT:
        rc |= gpu_comm_sum(b->d_acc_f, 4 * n, 1, b->st);
        break;
    default:
        rc |= gpu_comm_sum(b->d_fix, 8 * n, 2, b->st);
    }
    if (b->args.mode == ACC_FIXED) {
        rc |= gpu_comm_sum(b->d_efix, 4, 2, b->st);
        rc |= gpu_comm_sum(b->d_vfix, 12, 2, b->st);
    } else {
        rc |= gpu_comm_sum(b->d_energy, 2, 0, b->st);
        rc |= gpu_comm_sum(b->d_virial, 6, 0, b->st);
    }
    if (b->cull && stats)
        rc |= gpu_comm_sum(gpu_nbr_counters(b->nb), 2, 2, b->st);
    if (gpu_comm_end() != 0 || rc != 0)
        return -1;
    return 0;
}

/* Every particle's species index within the potential's species, as cpu_create checks it. */
static int gpu_check_types(const backend *b, const sim_config *c, const sim_state *s)
{
    const int nt = b->ntypes;
    if (nt < 1 || nt > TB_TYPES_MAX) {
        tb_error(c->path, 0, "system.species: %d species (1 .. %d)", nt, TB_TYPES_MAX);
        return TB_EXIT_USAGE;
    }
    for (int i = 0; s->type && i < s->n; i++)
        if (s->type[i] < 0 || s->type[i] >= nt) {
            tb_error(c->path, 0, "particle %d is of species %d, but system.species has %d "
                                 "(0 .. %d)", i, s->type[i], nt, nt - 1);
            return TB_EXIT_USAGE;
        }
    return 0;
}

/* The species tables on the device (args.kd.tab, kf.tab). */
static int gpu_upload_tables(backend *b)
{
    CUDA_CHECK(cudaMalloc(&b->d_tab_d, sizeof(pot_tab_d)));
    CUDA_CHECK(cudaMalloc(&b->d_tab_f, sizeof(pot_tab_f)));
    CUDA_CHECK(cudaMemcpy(b->d_tab_d, &b->pp.tab_d, sizeof(pot_tab_d), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(b->d_tab_f, &b->pp.tab_f, sizeof(pot_tab_f), cudaMemcpyHostToDevice));
    b->args.kd.tab = b->d_tab_d;
    b->args.kf.tab = b->d_tab_f;
    return 0;
}

/* Several species: each position's type lane (gpu_internal.h: the index as the lane's bits) and
 * the coefficient tables, whose device copies the kernels' coefficients then point at. */
static int gpu_upload_types(backend *b, const sim_state *s)
{
    if (b->ntypes < 2 && !b->pp.sw_on)
        return 0; /* the lane stays +0.0 (gpu_alloc): type 0 */
    if (b->ntypes < 2) /* SW reads its tables with one species too */
        return gpu_upload_tables(b);
    long long *lane = (long long *)malloc((size_t)b->n * sizeof *lane + 1);
    if (!lane)
        return tb_error(NULL, 0, "out of host memory");
    for (int i = 0; i < b->n; i++)
        lane[i] = s->type ? s->type[i] : 0;
    const cudaError_t e = cudaMemcpy2D((char *)b->d_pos + 3 * sizeof(double), sizeof(tb_double4),
                                       lane, sizeof *lane, sizeof *lane, (size_t)b->n,
                                       cudaMemcpyHostToDevice);
    free(lane);
    CUDA_CHECK(e);
    return gpu_upload_tables(b);
}

static int gpu_alloc(backend *b)
{
    const size_t n = (size_t)b->n;
    CUDA_CHECK(cudaStreamCreate(&b->st));
    CUDA_CHECK(cudaMalloc(&b->d_pos, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMalloc(&b->d_vel, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMalloc(&b->d_force, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMalloc(&b->d_posf, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&b->d_energy, 2 * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&b->d_efix, 4 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&b->d_virial, 6 * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&b->d_vfix, 12 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&b->d_finite, sizeof(gpu_finite_rec)));
    CUDA_CHECK(cudaMallocHost(&b->h_finite, 2 * sizeof(gpu_finite_rec)));
    CUDA_CHECK(cudaMallocHost(&b->h_res, 8 * sizeof(double)));
    for (int e = 0; e < 2; e++)
        CUDA_CHECK(cudaEventCreateWithFlags(&b->ev_fin[e], cudaEventDisableTiming));
    CUDA_CHECK(cudaMalloc(&b->d_h3, 3 * n * sizeof(double)));
    /* pinned staging for upload3 / download3; pageable (still whole-array copies) when the
     * machine will not pin that much */
    if (cudaMallocHost(&b->h_stage, n * sizeof(tb_double4)) == cudaSuccess) {
        b->stage_pinned = 1;
    } else {
        (void)cudaGetLastError(); /* not sticky: cleared, the pageable buffer serves */
        if (!(b->h_stage = (double *)malloc(n * sizeof(tb_double4))))
            return tb_error(NULL, 0, "out of host memory for the transfer buffer (%zu bytes)",
                            n * sizeof(tb_double4));
    }
    if (gpu_finite_reset(b->d_finite, b->st) != 0)
        return -1;
    CUDA_CHECK(cudaMemset(b->d_pos, 0, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMemset(b->d_vel, 0, n * sizeof(tb_double4)));
    CUDA_CHECK(cudaMemset(b->d_force, 0, n * sizeof(tb_double4)));
    switch (b->args.mode) {
    case ACC_DOUBLE: CUDA_CHECK(cudaMalloc(&b->d_acc, 4 * n * sizeof(double))); break;
    case ACC_FLOAT: CUDA_CHECK(cudaMalloc(&b->d_acc_f, 4 * n * sizeof(float))); break;
    default: CUDA_CHECK(cudaMalloc(&b->d_fix, 8 * n * sizeof(unsigned long long)));
    }
    if (b->p3.h_table) {
        CUDA_CHECK(cudaMalloc(&b->d_table, (size_t)b->p3.table_len * sizeof(long long)));
        CUDA_CHECK(cudaMemcpy(b->d_table, b->p3.h_table, (size_t)b->p3.table_len * sizeof(long long),
                              cudaMemcpyHostToDevice));
        for (int l = 0; l < b->p3.n_launch; l++)
            b->p3.launch[l].table = b->d_table;
    }
    b->args.posf = b->d_posf;
    b->args.posd = b->d_pos;
    b->args.acc = b->d_acc;
    b->args.acc_f = b->d_acc_f;
    b->args.fix = b->d_fix;
    b->args.energy = b->d_energy;
    b->args.efix = b->d_efix;
    b->args.virial = b->d_virial;
    b->args.vfix = b->d_vfix;
    return 0;
}

static int gpu_create(backend **out, const sim_config *c, const sim_state *s)
{
    backend *b = (backend *)calloc(1, sizeof *b);
    size_t free_b = 0, total_b = 0, need;
    int rc;
    *out = NULL;
    if (!b)
        return tb_error(NULL, 0, "out of host memory");
    b->n = s->n;
    memcpy(b->mass, s->mass, sizeof b->mass);
    b->dt = c->integrator.dt;
    b->rho = c->solver.tile;
    b->dbl = c->solver.precision == CFG_PREC_DOUBLE;
    b->pdbl = c->solver.precision != CFG_PREC_SINGLE;
    b->threads = c->solver.threads > 0 ? c->solver.threads : 128;
    b->threads_cfg = c->solver.threads;
    pot_params_init_box(&b->pp, c, &s->box);
    b->ntypes = b->pp.d.ntypes;
    /* the cutoff instances whenever a test can fail: the config's cutoff, a file's box's L/4
     * default (pot_atm_cutoff), or cutoff_triple alone */
    b->cut = b->pp.d.atm_rc2 < TB_NO_CUTOFF2 || b->pp.d.atm_rct6 < TB_NO_CUTOFF6;
    b->cull = nbr_wanted(c, &b->pp);
    b->nbr_radius = b->cull ? nbr_radius(c, &b->pp) : 0.0;
    b->args.n = s->n;
    b->args.kf = b->pp.f;
    b->args.kd = b->pp.d;
    b->args.mode = c->solver.deterministic                   ? ACC_FIXED
                   : c->solver.precision == CFG_PREC_SINGLE ? ACC_FLOAT
                                                             : ACC_DOUBLE;
    b->nranks = tb_split_nranks();
    /* equal tile counts: a block costs the same for a full tile and a face tile (split.h) */
    split_even(map3d_tet(map3d_nb(b->n, b->rho)), tb_split_rank(), b->nranks, &b->args.w_lo,
               &b->args.w_hi);
    split_even(map3d_tri(map3d_nb(b->n, b->rho)), tb_split_rank(), b->nranks, &b->args.q_lo,
               &b->args.q_hi);
    rc = gpu_check_types(b, c, s);
    if (rc == 0)
        rc = gpu_spec_init(b);
    b->zc = !getenv("TB_ZEROCOPY") || getenv("TB_ZEROCOPY")[0] != '0'; /* 0: the staging copies */
    const char *w = getenv("TB_WAITS");
    gpu_wait_count = w && w[0] == '1';
    if (rc == 0)
        rc = gpu_pick_device(&b->dev);
    if (rc == 0 && (rc = gpu_check_config(b, c)) == 0)
        rc = gpu_plans(b, c);
    /* Enough device memory? Asked before any allocation. */
    if (rc == 0 && (cudaSetDevice(b->dev) != cudaSuccess ||
                    cudaMemGetInfo(&free_b, &total_b) != cudaSuccess))
        rc = tb_error(NULL, 0, "cannot query the memory of GPU %d: %s", b->dev,
                      cudaGetErrorString(cudaGetLastError()));
    if (rc == 0 && (need = gpu_bytes(b)) > free_b) {
        tb_error(c->path, 0, "system.particles = %d needs %zu bytes of GPU memory but %zu are "
                             "free (of %zu); use fewer particles or solver.backend = \"cpu\"",
                 b->n, need, free_b, total_b);
        rc = TB_EXIT_USAGE;
    }
    /* every rank set up so far before the communicator, whose setup waits on all of them */
    if (tb_nranks() > 1 && (rc = tb_mpi_agree(rc)) == 0)
        rc = gpu_comm_init(b->dev);
    if (rc != 0) {
        gpu_destroy(b);
        return rc;
    }
    if ((b->cull && gpu_nbr_create(&b->nb, b->n, &b->pp.d.box, nbr_radius(c, &b->pp),
                                   c->solver.skin) != 0) ||
        (b->cull && (gpu_nbr_set_full(b->nb, b->pp.sw_on), 0)) ||
        (!b->cull && (b->dbl ? gpu_atm_setup_d(b->ntypes > 1) : gpu_atm_setup_f(b->ntypes > 1)) != 0) ||
        gpu_alloc(b) != 0 || gpu_upload3(b, b->d_pos, s->pos) != 0 || gpu_upload3(b, b->d_vel, s->vel) != 0 ||
        gpu_upload3(b, b->d_force, s->force) != 0 || gpu_upload_types(b, s) != 0) {
        gpu_destroy(b);
        return -1;
    }
    if (gpu_motion_to_float(b->d_pos, b->d_posf, b->n, b->threads, b->st) != 0) {
        gpu_destroy(b);
        return -1;
    }
    /* energies of the given state, for a restart that does not recompute forces */
    b->e_given[0] = s->e_triplet;
    b->e_given[1] = s->e_pair;
    memcpy(b->w_given, s->virial, sizeof b->w_given);
    CUDA_CHECK(gpu_wait_stream(b->st));
    *out = b;
    return 0;
}

/* ---- forces and steps -------------------------------------------------------------- */

int gpu_forces(backend *b)
{
    b->spec_countdown = b->vir_countdown; /* a rollback decides the virial again the same way */
    b->fin_early = 0; /* a check results() launched is of the forces before these */
    const int vir = backend_virial_due(&b->vir_countdown);
    b->vir_valid = vir;
    b->tm.virials += b->timing && vir;
    const int flags = (b->cut ? GPU_ATM_CUT : 0) | (vir ? GPU_ATM_VIRIAL : 0) | GPU_ATM_TYPES(b->ntypes);
    if (tb_mpi_fault())
        return -1;
    b->computed = 1;
    const int tm = b->timing && (b->tphase || !b->spec_step); /* a step's phases (tphase) */
    if (tm)
        CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][0], b->st));
    /* the lists first, on their own, so that the timers see them apart */
    if (gpu_spec_lists(b) != 0)
        return -1;
    if (tm)
        CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][1], b->st));
    if (gpu_acc_zero(b) != 0)
        return -1;
    if (b->cull) {
        if (b->pp.sw_on ? gpu_sw_forces(b->nb, &b->args, &b->pp, b->dbl, b->threads_cfg, b->st) != 0
                        : gpu_nbr_forces(b->nb, &b->args, &b->pp, b->dbl, b->pdbl, b->stats,
                                         b->st) != 0)
            return -1;
    } else if (b->pp.atm_on) {
        b->args.map_id = map3d_index(b->m3);
        if ((b->dbl ? gpu_atm_launch_d(&b->args, &b->p3, b->rho, flags, b->st)
                    : gpu_atm_launch_f(&b->args, &b->p3, b->rho, flags, b->st)) != 0)
            return -1;
    }
    if (!b->cull && b->pp.lj_on) {
        b->args.map_id = map2d_index(b->m2);
        if (gpu_pair_launch(&b->args, &b->p2, b->rho, b->pdbl, b->threads, b->st) != 0)
            return -1;
    }
    if (tm)
        CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][2], b->st));
    if (gpu_reduce(b, b->stats) != 0)
        return -1;
    if (tm)
        CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][3], b->st));
    return gpu_finalize(b); /* the forces (gpu_step.cu), with the step's kick when fused */
}

/* Milliseconds between events e0 and e1 of slot k (both done), into *acc as seconds. */
static int gpu_elapsed(const backend *b, int k, int e0, int e1, double *acc)
{
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, b->ev[k][e0], b->ev[k][e1]));
    *acc += 1e-3 * (double)ms;
    return 0;
}

/* The timers of the evaluation in slot k (and of its step's kicks when step): waits for its
 * last event, then adds the phases (bench only). */
static int gpu_time_add(backend *b, int k, int step)
{
    CUDA_CHECK(gpu_wait_event(b->ev[k][step ? 7 : 3]));
    if (step && !b->tphase) { /* TB_TIMERS_PHASES=0: the step whole, as "force" */
        b->tm.evals++;
        b->tm.steps++;
        return gpu_elapsed(b, k, 4, 7, &b->tm.force);
    }
    if (gpu_elapsed(b, k, 0, 1, &b->tm.lists) != 0 || gpu_elapsed(b, k, 1, 2, &b->tm.force) != 0 ||
        gpu_elapsed(b, k, 2, 3, &b->tm.sum) != 0)
        return -1;
    b->tm.evals++;
    if (step) {
        if (gpu_elapsed(b, k, 4, 5, &b->tm.integrate) != 0 ||
            gpu_elapsed(b, k, 6, 7, &b->tm.integrate) != 0)
            return -1;
        b->tm.steps++;
    }
    return 0;
}

/* The steps' timers are read GPU_TSLOTS steps late: a step of advance() records its 8 events
 * into slot tslot and moves on; the slot is read (its events long done) when the ring comes
 * round to it, and every slot at the end of advance(). Before (TB_TIMERS_SYNC=1, kept for
 * before/after measurements in one binary) the host waited for each step's last event, so
 * with the timers on (bench) the GPU idled at every step while the host queued the next
 * step's first kernels: ~40 us per step at 10^5 atoms of Stillinger-Weber silicon, a cost a
 * run (which never waits per step) does not have (docs/performance-runs.md). */
static int gpu_time_free(backend *b, int all)
{
    while (b->tqueued > (all ? 0 : GPU_TSLOTS - 1)) {
        const int k = (b->tslot - b->tqueued + GPU_TSLOTS) % GPU_TSLOTS;
        b->tqueued--;
        if (gpu_time_add(b, k, 1) != 0)
            return -1;
    }
    return 0;
}

/* The end of a timed step: its slot queued (read at once under TB_TIMERS_SYNC=1). */
static int gpu_time_step(backend *b)
{
    b->tqueued++;
    b->tslot = (b->tslot + 1) % GPU_TSLOTS;
    return gpu_time_free(b, b->tsync);
}

/* wait 0: the forces queued, not waited for (compute_results: results' wait follows) */
static int compute(backend *b, int wait)
{
    GPU_SETTLE(b);
    b->spec_step = 0;
    b->fuse_kick = b->acc_clean = 0; /* a step's fusions are the step's own (gpu_step.cu) */
    if (gpu_forces(b) != 0)
        return -1;
    GPU_SETTLE(b); /* its own test: read once queued, before the wait for the forces */
    if (!wait && !b->timing)
        return 0;
    CUDA_CHECK(gpu_wait_stream(b->st));
    return b->timing ? gpu_time_add(b, b->tslot, 0) : 0;
}

static int gpu_compute(backend *b)
{
    return compute(b, 1);
}

/* x / m for each species (one species: x / mass[0], the expression of before). */
gpu_per_type gpu_over_mass(const backend *b, double x)
{
    gpu_per_type h;
    for (int t = 0; t < TB_TYPES_MAX; t++)
        h.v[t] = t < b->ntypes ? x / b->mass[t] : 0.0;
    return h;
}

static int gpu_advance(backend *b, long nsteps)
{
    const gpu_per_type h = gpu_over_mass(b, 0.5 * b->dt);
    const int typed = b->ntypes > 1, fuse = gpu_step_fuse() >= 2, pdl = gpu_pdl();
    gpu_acc_clear z;
    gpu_acc_clear_of(b, &z);
    for (long s = 0; s < nsteps; s++) {
        /* the slot this step records into read first: a rollback below records into it */
        if (b->timing && gpu_time_free(b, 0) != 0)
            return -1;
        /* the previous step's test, read while the GPU runs its forces; a deferred finiteness
         * check (check_finite_late's) is not launched here: the kick-drift below takes it */
        GPU_SETTLE_ONLY(b);
        if (b->timing)
            CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][4], b->st));
        gpu_nbr_fuse t; /* TB_STEP_FUSE=3: the skin test in the kick-drift (gpu_spec_fuse) */
        const int ft = fuse ? gpu_spec_fuse(b, &t) : 0;
        if (ft < 0)
            return -1;
        /* the finiteness check of the state this step starts from: in the kick-drift that tests
         * the skin (its bad values come back in the test's flag), else launched on its own */
        gpu_fin_check fc;
        const int fck = ft && b->fin_defer;
        if (fck ? gpu_fin_take(b, &fc) != 0 : gpu_fin_flush(b) != 0)
            return -1;
        if ((ft || pdl) ? gpu_motion_kick_drift_test(b->d_pos, b->d_vel, b->d_force,
                                                     b->dbl ? NULL : b->d_posf, b->n, typed, &h,
                                                     b->dt, &b->pp.d.box, fuse ? &z : NULL,
                                                     ft ? &t : NULL, fck ? &fc : NULL, pdl,
                                                     b->threads, b->st) != 0
                        : gpu_motion_kick_drift(b->d_pos, b->d_vel, b->d_force,
                                                b->dbl ? NULL : b->d_posf, b->n, typed, &h, b->dt,
                                                &b->pp.d.box, fuse ? &z : NULL, b->threads,
                                                b->st) != 0)
            return -1;
        b->acc_clean = fuse; /* the forces' own zeroing skipped (gpu_acc_zero) */
        b->fuse_kick = fuse; /* and the closing kick done by their last kernel (gpu_finalize) */
        b->kick_h = h;
        if (b->timing && b->tphase)
            CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][5], b->st));
        b->spec_step = 1;
        if (gpu_forces(b) != 0)
            return -1;
        b->spec_step = 0;
        if (b->timing && b->tphase)
            CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][6], b->st));
        if (!fuse &&
            gpu_motion_kick(b->d_vel, b->d_force, b->d_pos, b->n, typed, &h, b->threads, b->st) != 0)
            return -1;
        if (b->timing) {
            CUDA_CHECK(cudaEventRecord(b->ev[b->tslot][7], b->st));
            if (gpu_time_step(b) != 0)
                return -1;
        }
    }
    if (b->timing && gpu_time_free(b, 1) != 0) /* the timers of the steps still in flight */
        return -1;
    /* a run that reads the finiteness checks a step late (check_finite_late) neither waits
     * here nor settles the last step's skin test (gpu_spec.cu): the late check does both,
     * reading the test while the GPU runs the step's forces, and an asynchronous fault is
     * reported there */
    if (!b->async) {
        GPU_SETTLE(b);
        CUDA_CHECK(gpu_wait_stream(b->st));
    }
    return 0;
}

/* The fixed-point virial words as doubles (synchronizes the stream). */
int gpu_virial_fixed(backend *b, double w[6])
{
    unsigned long long vf[12];
    CUDA_CHECK(cudaMemcpyAsync(vf, b->d_vfix, sizeof vf, cudaMemcpyDeviceToHost, b->st));
    CUDA_CHECK(gpu_wait_stream(b->st));
    for (int c = 0; c < 6; c++)
        w[c] = (double)(long long)vf[2 * c] / TB_FIX_HI +
               (double)(long long)vf[2 * c + 1] / (TB_FIX_HI * TB_FIX_LO);
    return 0;
}

/* results(), and fetch()'s first part (early 0): with early, the finiteness check of the state
 * returned is queued before the one wait, so that the engine's check_finite right after
 * (engine_compute) only reads its record (fin_early); fetch's caller checks a step of a run,
 * which the record must name, so fetch queues none. The energies and the virial come back
 * through pinned memory (h_res), so every copy is queued behind that one wait. forces 0: not
 * the forces (thermo()). */
static int results(backend *b, sim_state *s, int early, int forces)
{
    GPU_SETTLE(b);
    if (b->computed && !b->vir_valid && !b->cull && b->pp.atm_on) {
        /* the last evaluation skipped the virial (virial_next): evaluate again with it, at
         * the same positions (the same forces; bitwise so in deterministic mode) */
        b->vir_countdown = 0;
        if (gpu_forces(b) != 0)
            return -1;
    }
    /* the forces' copy queued with the energies' and the virial's: one wait for them all
     * (b->zc, page-locked forces: one kernel writes them all into host memory) */
    const int zc = forces && b->zc && b->computed
                       ? gpu_get_results(b, s->force, b->args.mode != ACC_FIXED)
                       : 0;
    if (zc < 0 || (forces && !zc && gpu_download3_start(b, s->force, b->d_force) != 0))
        return -1;
    b->h_direct |= zc;
    if (!b->computed) {
        CUDA_CHECK(gpu_wait_stream(b->st));
        s->e_triplet = b->e_given[0];
        s->e_pair = b->e_given[1];
        memcpy(s->virial, b->w_given, sizeof s->virial);
    } else if (b->args.mode == ACC_FIXED) {
        unsigned long long ef[4];
        CUDA_CHECK(cudaMemcpyAsync(ef, b->d_efix, sizeof ef, cudaMemcpyDeviceToHost, b->st));
        if (gpu_virial_fixed(b, s->virial) != 0)
            return -1;
        s->e_triplet = (double)(long long)ef[0] / TB_FIX_HI + (double)(long long)ef[1] / (TB_FIX_HI * TB_FIX_LO);
        s->e_pair = (double)(long long)ef[2] / TB_FIX_HI + (double)(long long)ef[3] / (TB_FIX_HI * TB_FIX_LO);
    } else {
        if (!zc) {
            CUDA_CHECK(cudaMemcpyAsync(b->h_res, b->d_energy, 2 * sizeof(double),
                                       cudaMemcpyDeviceToHost, b->st));
            CUDA_CHECK(cudaMemcpyAsync(b->h_res + 2, b->d_virial, 6 * sizeof(double),
                                       cudaMemcpyDeviceToHost, b->st));
        }
        if (early) {
            if (gpu_finite_start(b, 0) != 0)
                return -1;
            b->fin_early = 1;
        }
        CUDA_CHECK(gpu_wait_stream(b->st));
        s->e_triplet = b->h_res[0];
        s->e_pair = b->h_res[1];
        memcpy(s->virial, b->h_res + 2, 6 * sizeof(double));
    }
    if (forces)
        gpu_download3_finish(b, s->force); /* every branch above waited for the stream */
    return 0;
}

static int gpu_results(backend *b, sim_state *s)
{
    return results(b, s, 1, 1);
}

static int gpu_compute_results(backend *b, sim_state *s)
{
    return compute(b, 0) != 0 ? -1 : results(b, s, 1, 1);
}

/* thermo() (backend.h): results() without the forces, the box, and the velocities' sums of
 * gpu_kinetic_v2 (the barostats' reduction) weighted as sim_kinetic and sim_kinetic_tensor
 * weight the host's. */
static int gpu_thermo(backend *b, sim_state *s, double kin[7])
{
    double v2[6 * TB_TYPES_MAX];
    if (results(b, s, 0, 0) != 0 || gpu_kinetic_v2(b, v2) != 0)
        return -1;
    s->box = b->pp.d.box;
    for (int c = 0; c < 7; c++)
        kin[c] = 0.0;
    for (int t = 0; t < (b->ntypes > 1 ? b->ntypes : 1); t++) {
        const double *w = v2 + 6 * t;
        kin[0] += 0.5 * b->mass[t] * (w[0] + w[1] + w[2]);
        for (int c = 0; c < 6; c++)
            kin[1 + c] += b->mass[t] * w[c];
    }
    return 0;
}

static int gpu_fetch(backend *b, sim_state *s)
{
    if (results(b, s, 0, 1) != 0)
        return -1;
    s->box = b->pp.d.box;
    if (gpu_download3(b, s->pos, b->d_pos) != 0 || gpu_download3(b, s->vel, b->d_vel) != 0)
        return -1;
    return 0;
}

static int gpu_virial_next(backend *b, long k)
{
    GPU_SETTLE_ONLY(b); /* a rollback restores the countdown of before its evaluation */
    b->vir_countdown = k > 0 ? k : 0;
    return 0;
}

static int gpu_info(backend *b, backend_info *out, int counting)
{
    GPU_SETTLE_ONLY(b);
    memset(out, 0, sizeof *out);
    out->cull = b->cull;
    b->stats = counting & 1;
    out->times = b->tm;
    if (b->cull) {
        long long entries = 0;
        gpu_nbr_share(b->nb, &out->times.units, &entries);
        out->times.work = (double)entries;
        out->times.held = (double)entries; /* a rank builds and holds only its anchors' rows */
    } else if (b->pp.atm_on) { /* this rank's tiles and their triplets (split.h) */
        out->times.units = b->args.w_hi - b->args.w_lo;
        out->times.work = (double)(split_triplets_before(b->n, b->rho, b->args.w_hi) -
                                   split_triplets_before(b->n, b->rho, b->args.w_lo));
    }
    if (counting & BACKEND_TIMERS) {
        for (int k = 0; k < GPU_TSLOTS; k++)
            for (int e = 0; e < 8; e++)
                if (!b->ev[k][e])
                    CUDA_CHECK(cudaEventCreate(&b->ev[k][e]));
        const char *e = getenv("TB_TIMERS_SYNC");
        b->tsync = e && e[0] == '1' && !e[1];
        /* TB_TIMERS_PHASES=0 (a measurement): a step records its first and last events only,
         * none between its kernels (a stream's event between two kernels may keep the second
         * from starting early under TB_STEP_PDL) */
        e = getenv("TB_TIMERS_PHASES");
        b->tphase = !(e && e[0] == '0' && !e[1]);
        memset(&b->tm, 0, sizeof b->tm);
        b->timing = 1;
    }
    if (counting & BACKEND_TIMERS_OFF) /* advance() read every slot at its end */
        b->timing = 0;
    if (b->cull) {
        gpu_nbr_info in;
        if (gpu_nbr_stats(b->nb, &in, b->st) != 0)
            return -1;
        out->builds = in.builds;
        out->entries = in.entries;
        out->max_row = in.max_row;
        out->slots = in.slots;
        out->hits = in.hits;
    }
    return 0;
}

const backend_ops gpu_backend_ops = {"gpu",       gpu_create, gpu_compute, gpu_advance, gpu_fetch,
                                     gpu_destroy, gpu_kick,   gpu_drift,   gpu_scale,   gpu_ostep,
                                     gpu_kinetic, gpu_info, gpu_virial_next, gpu_check_finite,
                                     gpu_put, gpu_rdf,
                                     gpu_virial,  gpu_kinetic_axes, gpu_rescale,
                                     gpu_check_finite_late, gpu_results, gpu_mtk,
                                     gpu_host_alloc, gpu_host_free, gpu_compute_results,
                                     gpu_thermo};
