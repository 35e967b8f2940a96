/* gpu_nbr_tri.cuh — the neighbour-list force kernel's (gpu_nbr.cu) constants and per-triplet
 * pieces: its block (NBR_NT threads, NBR_NW warps), the two-j loop's unroll, the precision's
 * types and potential calls (nbr_real), the kernel's arguments (nbr_args), its shared memory per
 * anchor, one triplet of VAR 1's loop (nbr_tri) and of VAR >= 2's (nbr_tri2, nbr_share), and
 * the store of an entry's j sums (nbr_put_j).
 * Included by gpu_nbr.cu only, after gpu_atm.cuh and gpu_nbr_int.h. */
#ifndef TB_GPU_NBR_TRI_CUH
#define TB_GPU_NBR_TRI_CUH

#ifndef NBR_NT
#define NBR_NT 32 /* threads per block, a multiple of 32 */
#endif
#define NBR_NW (NBR_NT / 32)
/* The two-j tile loop's unroll, by the sums' precision: 4 in float (10^7 liquid 342 -> 327 ms
 * per step on the H200 against 2; 64 registers either way then, 72 with nbr_tri2's a5), 2 in
 * double (4 took 126 registers against 118 and was 0.5 % slower; 1: 94, 2 % slower).
 * -DNBR_UNROLL_DUAL=k: k in both. */
template <typename R> __host__ __device__ constexpr int nbr_unroll_dual()
{
#ifdef NBR_UNROLL_DUAL
    return NBR_UNROLL_DUAL;
#else
    return sizeof(R) == sizeof(float) ? 4 : 2;
#endif
}
/* The ring walk's unroll (gpu_nbr_ring.cuh), by precision and entries per lane J: 2 for J = 2
 * (on the H200 in 9c106f1's VAR 24, 25: float 4, the tiles' unroll and the ring's until then,
 * and 3 were 3-4 % slower; double 4 2-3 %, 1 12 % slower: docs/gpu-measured.md), else float 2,
 * double 1. -DNBR_UNROLL_RING=k: k for all. */
template <typename R, int J> __host__ __device__ constexpr int nbr_unroll_ring()
{
#ifdef NBR_UNROLL_RING
    return NBR_UNROLL_RING;
#else
    return J == 2 ? 2 : sizeof(R) == sizeof(float) ? 2 : 1;
#endif
}
#define NBR_SCRATCH 64 /* doubles: block_sum's 32, nbr_block_sums' 12 values x NBR_NW warps */

template <typename R> struct nbr_real;
template <> struct nbr_real<float> {
    typedef float4 V;
    typedef pot_coef_f C;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kf; }
    static __device__ __forceinline__ int atm(const C &k, const float dj[3], float a,
                                              const float dk[3], float c, float djk[3], float *e,
                                              float *ga, float *gb, float *gc)
    {
        return nbr_atm_f(&k, dj, a, dk, c, djk, e, ga, gb, gc);
    }
    static __device__ __forceinline__ void list(float a, float nah, float r5a, float b, float c,
                                                float abc, float w, int ok, float *ga,
                                                float *gb, float *gc)
    {
        pot_atm_list_f(a, nah, r5a, b, c, abc, w, ok, ga, gb, gc);
    }
    static __device__ __forceinline__ void list_v(float a, float nah, float r5a, float b, float c,
                                                  float p5, float w, int ok, int degen, float *v,
                                                  float *ha, float *hb, float *hc)
    {
        pot_atm_list_v_f(a, nah, r5a, b, c, p5, w, ok, degen, v, ha, hb, hc);
    }
    static __device__ __forceinline__ void list_jk(float a, float r5a, float b, float c, float x,
                                                   float y, float z, float p5, float w, int ok,
                                                   float *v, float *hb, float *hj, float *hk)
    {
        pot_atm_list_jk_f(a, r5a, b, c, x, y, z, p5, w, ok, 0, v, hb, hj, hk);
    }
};
template <> struct nbr_real<double> {
    typedef tb_double4 V;
    typedef pot_coef_d C;
    static __device__ __forceinline__ const C &coef(const gpu_args &a) { return a.kd; }
    static __device__ __forceinline__ int atm(const C &k, const double dj[3], double a,
                                              const double dk[3], double c, double djk[3],
                                              double *e, double *ga, double *gb, double *gc)
    {
        return nbr_atm_d(&k, dj, a, dk, c, djk, e, ga, gb, gc);
    }
    static __device__ __forceinline__ void list(double a, double nah, double r5a, double b,
                                                double c, double abc, double w, int ok,
                                                double *ga, double *gb, double *gc)
    {
        pot_atm_list_d(a, nah, r5a, b, c, abc, w, ok, ga, gb, gc);
    }
    static __device__ __forceinline__ void list_v(double a, double nah, double r5a, double b, double c,
                                                  double p5, double w, int ok, int degen, double *v,
                                                  double *ha, double *hb, double *hc)
    {
        pot_atm_list_v_d(a, nah, r5a, b, c, p5, w, ok, degen, v, ha, hb, hc);
    }
    static __device__ __forceinline__ void list_jk(double a, double r5a, double b, double c, double x,
                                                   double y, double z, double p5, double w, int ok,
                                                   double *v, double *hb, double *hj, double *hk)
    {
        pot_atm_list_jk_d(a, r5a, b, c, x, y, z, p5, w, ok, 0, v, hb, hj, hk);
    }
};

struct nbr_args {
    const int *perm, *off, *idx; /* off: this rank's rows, block b's at idx + off[b] */
    tb_box_d box;           /* the lists' box (double) */
    double rca2, rcl2;      /* < 0 when the term is off */
    int cap;                /* entries the shared arrays hold (a multiple of 32) */
    int b0;                 /* block b takes anchor perm[b0 + b] (this rank's range) */
    int pdbl;               /* float kernels of mixed precision: the pairs in double */
    unsigned long long *stats;
    const tb_box_d *dbox;   /* a box that moves on the device (gpu_nbr_box_dev), else NULL */
};

template <typename R> __host__ __device__ constexpr int nbr_entry_bytes()
{
    return (int)sizeof(typename nbr_real<R>::V) * (1 + NBR_NW) + (int)sizeof(int);
}
/* The typed instances add nuk [nt][cap], the anchor's LJ row [nt] and the types [cap] (one
 * byte each). */
template <typename R> static int nbr_smem_bytes(int cap, int nt)
{
    return cap * nbr_entry_bytes<R>() + NBR_SCRATCH * (int)sizeof(double) + 8 * (int)sizeof(int) +
           (nt > 1 ? cap * (nt * (int)sizeof(R) + 1) +
                         nt * (int)sizeof(typename atm_real<R>::lj_pair)
                   : 0);
}

/* One triplet (anchor, j, k) of VAR 1's tile loop: the lane's j (dj, a = |dj|^2, nah = -a/2,
 * r5a = 5/a) and entry k (ek: d_k, c); pre = j < k < m_atm. Adds ga to A and gb d_jk to fj
 * (j's sums), and gives k's share: kf = gb d_jk, *kg = gc (pot_atm_list's scaling, times w). */
template <typename R, typename V>
static __device__ __forceinline__ bool nbr_tri(const R dj[3], R a, R nah, R r5a, const V &ek,
                                               bool pre, R rc2, R rct6, R w, R &A, R fj[3],
                                               R kf[3], R *kg)
{
    const R djk[3] = {ek.x - dj[0], ek.y - dj[1], ek.z - dj[2]};
    const R b = djk[0] * djk[0] + djk[1] * djk[1] + djk[2] * djk[2];
    const R bc = b * ek.w, abc = a * bc;
    const bool ok = pre && b <= rc2 && abc <= rct6;
    R ga, gb, gc;
    nbr_real<R>::list(a, nah, r5a, b, ek.w, abc, w, ok, &ga, &gb, &gc);
    A += ga;
    for (int x = 0; x < 3; x++) {
        fj[x] = atm_real<R>::fma(gb, djk[x], fj[x]);
        kf[x] = gb * djk[x];
    }
    *kg = gc;
    return ok;
}

/* Entry k's share of one triplet in VAR >= 2: d_jk, gb and gc (VF: gc = v hc, hc kept), added
 * by fused multiply-adds (VAR 1: -(gb1 d_jk1 + gb2 d_jk2), one instruction more per coordinate
 * and pair of triplets). */
template <typename R> struct nbr_share {
    R d[3], gb, hc, v;
    __device__ __forceinline__ void add(typename nbr_real<R>::V &vk) const
    {
        vk.x = atm_real<R>::fma(-gb, d[0], vk.x);
        vk.y = atm_real<R>::fma(-gb, d[1], vk.y);
        vk.z = atm_real<R>::fma(-gb, d[2], vk.z);
        vk.w = atm_real<R>::fma(-v, hc, vk.w);
    }
};

/* One entry's j-side sums into the warp's array (V_q += f, S_q -= A): every loop's end of a
 * run of steps with j held. */
template <typename R, typename V>
static __device__ __forceinline__ void nbr_put_j(V *accw, int j, const R f[3], R A)
{
    V v = accw[j];
    v.x += f[0];
    v.y += f[1];
    v.z += f[2];
    v.w -= A;
    accw[j] = v;
}

/* nbr_tri for VAR >= 2: TRI = false leaves out the cutoff_triple test (VAR 7: where it cannot
 * fail); VF (VAR 7, 8) takes pot_atm_list_v, whose factor v the sums' FMAs take (A,
 * entry k's w) and which forms 5/b, 5/c from mp u^2 a: three multiplies fewer per triplet.
 * Without the test (VAR 7) abc/5 is the lane's a5 = a/5 times bc, one multiply fewer; with it,
 * abc = a (bc) as the CPU forms it for the test, and abc/5 from that. DEG = false where j and k
 * are never the same entry nor both pads (the two-j items' first j): one select fewer. */
template <typename R, typename V, bool TRI, bool VF, bool DEG = true>
static __device__ __forceinline__ bool nbr_tri2(const R dj[3], R a, R nah, R r5a, R a5,
                                                const V &ek, bool pre, R rc2, R rct6, R w, R &A,
                                                R fj[3], nbr_share<R> &ks)
{
    ks.d[0] = ek.x - dj[0];
    ks.d[1] = ek.y - dj[1];
    ks.d[2] = ek.z - dj[2];
    const R b = ks.d[0] * ks.d[0] + ks.d[1] * ks.d[1] + ks.d[2] * ks.d[2];
    const R bc = b * ek.w, abc = a * bc;
    const bool ok = pre && b <= rc2 && (!TRI || abc <= rct6);
    if (VF) {
        R ha;
        const R p5 = TRI ? abc * (R)0.2 : a5 * bc;
        nbr_real<R>::list_v(a, nah, r5a, b, ek.w, p5, w, ok, DEG, &ks.v, &ha, &ks.gb, &ks.hc);
        A = atm_real<R>::fma(ks.v, ha, A);
        ks.gb *= ks.v;
    } else {
        R ga;
        nbr_real<R>::list(a, nah, r5a, b, ek.w, abc, w, ok, &ga, &ks.gb, &ks.hc);
        ks.v = (R)1;
        A += ga;
    }
    for (int x = 0; x < 3; x++)
        fj[x] = atm_real<R>::fma(ks.gb, ks.d[x], fj[x]);
    return ok;
}

/* Entry k's share of one triplet in the dot form (nbr_tri_dot; the ring's in float):
 * V_k += gb d_j, S_k -= v hk. */
template <typename R> struct nbr_share_dot {
    R gb, hk, v;
    __device__ __forceinline__ void add(typename nbr_real<R>::V &vk, const R dj[3]) const
    {
        vk.x = atm_real<R>::fma(gb, dj[0], vk.x);
        vk.y = atm_real<R>::fma(gb, dj[1], vk.y);
        vk.z = atm_real<R>::fma(gb, dj[2], vk.z);
        vk.w = atm_real<R>::fma(-v, hk, vk.w);
    }
};

/* nbr_tri2 (VF, DEG = false) in the dot form: y = d_j . d_k gives pot_atm_list_h's X = c - y,
 * Y = y, Z = a - y and the side b = X + Z (6 instructions against the 10 of d_jk, b, X, Y, Z).
 * Since d_jk = d_k - d_j the sums take d_k and d_j in its place, the forces V + S d the same:
 * j's V_j += gb d_k (fj), S_j -= v (ha + hb) (A); k's V_k += gb d_j, S_k -= v (hc + hb) (ks):
 * two adds more, two instructions fewer per triplet in all. b = a + c - 2y loses digits where
 * b << a + c (a close pair far from the anchor): relative error ~ eps (a + c)/b. */
template <typename R, typename V, bool TRI>
static __device__ __forceinline__ bool nbr_tri_dot(const R dj[3], R a, R r5a, R a5, const V &ek,
                                                   bool pre, R rc2, R rct6, R w, R &A, R fj[3],
                                                   nbr_share_dot<R> &ks)
{
    const R y = atm_real<R>::fma(dj[2], ek.z, atm_real<R>::fma(dj[1], ek.y, dj[0] * ek.x));
    const R x = ek.w - y, z = a - y, b = x + z;
    const R bc = b * ek.w, abc = a * bc;
    const bool ok = pre && b <= rc2 && (!TRI || abc <= rct6);
    const R p5 = TRI ? abc * (R)0.2 : a5 * bc;
    R hb, hj;
    nbr_real<R>::list_jk(a, r5a, b, ek.w, x, y, z, p5, w, ok, &ks.v, &hb, &hj, &ks.hk);
    A = atm_real<R>::fma(ks.v, hj, A);
    ks.gb = ks.v * hb;
    fj[0] = atm_real<R>::fma(ks.gb, ek.x, fj[0]);
    fj[1] = atm_real<R>::fma(ks.gb, ek.y, fj[1]);
    fj[2] = atm_real<R>::fma(ks.gb, ek.z, fj[2]);
    return ok;
}

#endif
