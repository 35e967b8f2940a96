/* gpu_mtk_box.cu — the box that MTK and C-rescale move on the device (gpu_mtk.cu's MTK_MOVE and
 * CRS phases; C-rescale's stretch and work, physics/crescale_body.h, are here too): one-thread
 * kernels that run the host's box functions (mtk_body.h's mtk_box_move: box_deform_d and the
 * collapse / explosion check; nbr.h's nbr_stretch and nbr_stretch_limit for the lists' skin
 * test) on the state's box in device memory, in stream order, and the record the lists read
 * (gpu_box_rec, gpu_internal.h). Built with -fmad=false (Makefile), as the host builds them
 * without contraction: the box's bits are the host path's, and so are the test's bounds. */
#include "common/check.h"
#include "solver/gpu/gpu_internal.h"
#include "solver/par/fixed.h"
#include "solver/physics/crescale_body.h"
#include "solver/physics/mtk_body.h"
#include "solver/physics/nbr.h"

/* r's map from the lists' box to the box now, the test's bound (gpu_nbr_stale.cu's host
 * computation of both: nbr_test_launch), and the float copy. */
__device__ static void box_rec_update(const tb_box_d *now, gpu_box_rec *r, double rc, double skin)
{
    r->f = box_to_f(now);
    r->moved = nbr_stretch(now, &r->ref, r->m);
    if (!r->moved) {
        r->lim2 = 0.25 * skin * skin;
        return;
    }
    const double lim = nbr_stretch_limit(r->m, rc, skin);
    r->lim2 = lim < 0.0 ? -1.0 : lim * lim;
}

/* One dilation's box: s->box mapped by s->map, checked (the first fault kept), r updated. */
__global__ void mtk_box_kernel(mtk_state *s, mtk_par p, long step, gpu_box_rec *r, double rc,
                               double skin)
{
    mtk_box_move(s, &p, step);
    box_rec_update(&s->box, r, rc, skin);
}

/* The lists were just built in the box *now: it becomes r's reference. */
__global__ void box_ref_kernel(const tb_box_d *now, gpu_box_rec *r, double rc, double skin)
{
    r->ref = *now;
    box_rec_update(now, r, rc, skin);
}

/* r's reference given by the host (the lists' box at their last build), r updated. */
__global__ void box_rec_kernel(const tb_box_d *now, gpu_box_rec *r, tb_box_d ref, double rc,
                               double skin)
{
    r->ref = ref;
    box_rec_update(now, r, rc, skin);
}

int gpu_box_ref(const tb_box_d *dbox, gpu_box_rec *r, double rc, double skin, cudaStream_t st)
{
    box_ref_kernel<<<1, 1, 0, st>>>(dbox, r, rc, skin);
    TB_LAUNCH_CHECK("box_ref_kernel");
    return 0;
}

int gpu_box_rec_init(const tb_box_d *dbox, gpu_box_rec *r, const tb_box_d *ref, double rc,
                     double skin, cudaStream_t st)
{
    box_rec_kernel<<<1, 1, 0, st>>>(dbox, r, *ref, rc, skin);
    TB_LAUNCH_CHECK("box_rec_kernel");
    return 0;
}

int gpu_mtk_box_move(mtk_state *s, const mtk_par *p, long step, gpu_box_rec *r, double rc,
                     double skin, cudaStream_t st)
{
    mtk_box_kernel<<<1, 1, 0, st>>>(s, *p, step, r, rc, skin);
    TB_LAUNCH_CHECK("mtk_box_kernel");
    return 0;
}

/* ---- C-rescale (crescale_body.h) ---- */

/* The species' masses, by value (TB_TYPES_MAX), and the kinetic tensor of gpu_kinetic_axes. */
typedef struct crs_mass {
    double m[TB_TYPES_MAX];
    int nt;
} crs_mass;

__device__ static void crs_tensor(const crs_mass &ms, const double *v2, double k[6])
{
    mtk_kinetic_sum(CFG_COUPLE_ANISO, ms.nt, ms.m, v2, k); /* gpu_kinetic_axes's sums */
}

__global__ void crs_begin_kernel(mtk_state *s, mtk_par p, crs_mass ms, const double *v2)
{
    double k[6];
    crs_tensor(ms, v2, k);
    crescale_state_begin(s, &p, k);
}

__global__ void crs_move_kernel(mtk_state *s, mtk_par p, crs_mass ms, const double *v2,
                                gpu_box_rec *r, double rc, double skin)
{
    double k[6];
    crs_tensor(ms, v2, k);
    crescale_state_move(s, &p, k);
    box_rec_update(&s->box, r, rc, skin);
}

/* gpu_virial's words (gpu_virial_fixed's conversion) or doubles. */
__global__ void crs_virial_kernel(mtk_state *s, const double *vir, const unsigned long long *vfix,
                                  int end)
{
    double w[6];
    for (int c = 0; c < 6; c++)
        w[c] = vfix ? (double)(long long)vfix[2 * c] / TB_FIX_HI +
                          (double)(long long)vfix[2 * c + 1] / (TB_FIX_HI * TB_FIX_LO)
                    : vir[c];
    if (end)
        crescale_work_end(&s->work, s->map, s->w_old, w);
    else
        for (int c = 0; c < 6; c++)
            s->w_prev[c] = w[c];
}

static crs_mass crs_masses(const double *mass, int nt)
{
    crs_mass ms;
    for (int t = 0; t < TB_TYPES_MAX; t++)
        ms.m[t] = mass[t];
    ms.nt = nt;
    return ms;
}

int gpu_crs_begin(mtk_state *s, const mtk_par *p, const double *mass, int nt, const double *v2,
                  cudaStream_t st)
{
    crs_begin_kernel<<<1, 1, 0, st>>>(s, *p, crs_masses(mass, nt), v2);
    TB_LAUNCH_CHECK("crs_begin_kernel");
    return 0;
}

int gpu_crs_move(mtk_state *s, const mtk_par *p, const double *mass, int nt, const double *v2,
                 gpu_box_rec *r, double rc, double skin, cudaStream_t st)
{
    crs_move_kernel<<<1, 1, 0, st>>>(s, *p, crs_masses(mass, nt), v2, r, rc, skin);
    TB_LAUNCH_CHECK("crs_move_kernel");
    return 0;
}

int gpu_crs_virial(mtk_state *s, const double *vir, const unsigned long long *vfix, int end,
                   cudaStream_t st)
{
    crs_virial_kernel<<<1, 1, 0, st>>>(s, vir, vfix, end);
    TB_LAUNCH_CHECK("crs_virial_kernel");
    return 0;
}
