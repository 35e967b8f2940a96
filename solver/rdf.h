/* rdf.h — the pair histogram of the radial distribution function (output.rdf), one body for
 * the host and the device.
 *
 * A sample counts every unordered pair i < j whose minimum-image distance (solver/box.h) is
 * below r_max, in `bins` equal bins, by the pair's species: counts[rdf_tpair(a, b) * bins +
 * bin] with a <= b. The bin is LAMMPS's (compute_rdf.cpp): delrinv = 1 / (r_max / bins),
 * bin = (int)(r * delrinv), a pair with bin >= bins skipped. Integers, so the order of the
 * sum does not matter: the CPU and the GPU give the same histogram when they compute the same
 * r, which they do because both round every operation (no fused multiply-add: the host build
 * has none, gpu_rdf.cu is built with -fmad=false). The normalisation into g(r) is the
 * caller's (solver/io/obs_rdf.c). */
#ifndef TB_RDF_H
#define TB_RDF_H

#include "common/tb.h"
#include "solver/box.h"

TB_BEGIN_DECLS

typedef struct rdf_spec {
    double r_max;   /* histogram range [length], <= half the smallest periodic width */
    int bins;       /* >= 1 */
    int ntypes;     /* species, 1 .. TB_TYPES_MAX */
} rdf_spec;

/* Unordered species pairs of nt species: nt (nt + 1) / 2. */
TB_HOSTDEV static inline int rdf_npairs(int nt) { return nt * (nt + 1) / 2; }

/* Index of the species pair {a, b} (either order) in 0 .. rdf_npairs(nt) - 1: (0,0), (0,1), ...,
 * (0,nt-1), (1,1), ... */
TB_HOSTDEV static inline int rdf_tpair(int a, int b, int nt)
{
    if (a > b) {
        const int t = a;
        a = b;
        b = t;
    }
    return a * nt - a * (a - 1) / 2 + (b - a);
}

/* LAMMPS's 1/delr. */
TB_HOSTDEV static inline double rdf_delrinv(const rdf_spec *s) { return 1.0 / (s->r_max / s->bins); }

/* The bin of the pair at xi, xj under box b, or -1 outside the range. */
TB_HOSTDEV static inline int rdf_bin(const tb_box_d *b, const double xi[3], const double xj[3],
                                     double r_max2, double delrinv, int bins)
{
    double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
    box_min_image_d(b, d);
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    if (!(r2 < r_max2)) /* a guard only: r_max2 lies above r_max^2, the bin decides */
        return -1;
    const int bin = (int)(box_sqrt_d(r2) * delrinv);
    return bin < bins ? bin : -1;
}

/* r_max^2 widened by a few ulps, so that the guard keeps every pair the bin would keep. */
TB_HOSTDEV static inline double rdf_guard2(const rdf_spec *s) { return s->r_max * s->r_max * (1.0 + 1e-12); }

/* The histogram of the n particles pos[3n] (interleaved), types type[n] (NULL: all 0) in box
 * b, added to counts[rdf_npairs(ntypes) * bins] on the host (OpenMP threads). */
void rdf_count_host(const rdf_spec *s, const tb_box_d *b, const double *pos, const int *type,
                    int n, unsigned long long *counts);

TB_END_DECLS

#endif
