/* gpu_mtk_box.cu — the box that MTK moves on the device (gpu_mtk.cu's MTK_MOVE): one-thread
 * kernels that run the host's box functions (mtk_body.h's mtk_box_move: box_deform_d and the
 * collapse / explosion check; nbr.h's nbr_stretch and nbr_stretch_limit for the lists' skin
 * test) on the state's box in device memory, in stream order, and the record the lists read
 * (gpu_box_rec, gpu_internal.h). Built with -fmad=false (Makefile), as the host builds them
 * without contraction: the box's bits are the host path's, and so are the test's bounds. */
#include "common/check.h"
#include "solver/gpu/gpu_internal.h"
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
