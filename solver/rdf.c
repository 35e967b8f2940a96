/* rdf.c — the pair histogram of rdf.h on the host: all pairs, OpenMP threads over i, each
 * thread its own histogram, summed at the end (integers: the same counts for any number of
 * threads, and the same as the GPU's, solver/gpu/gpu_rdf.cu, and the cells',
 * solver/physics/rdf_cells.c, which fall back to this one where they do not pay). */
#include <stdlib.h>
#include <string.h>

#include "solver/rdf.h"

void rdf_count_host(const rdf_spec *s, const tb_box_d *b, const double *pos, const int *type,
                    int n, unsigned long long *counts)
{
    const int nt = s->ntypes, bins = s->bins;
    const size_t len = (size_t)rdf_npairs(nt) * (size_t)bins;
    const double r2 = rdf_guard2(s), inv = rdf_delrinv(s);
#pragma omp parallel
    {
        unsigned long long *h = calloc(len, sizeof *h);
        int ok = h != NULL;
#pragma omp for schedule(dynamic, 64)
        for (int i = 0; i < n - 1; i++) {
            const int ti = type ? type[i] : 0;
            for (int j = i + 1; j < n; j++) {
                const int bin = rdf_bin(b, pos + 3 * (size_t)i, pos + 3 * (size_t)j, r2, inv, bins);
                if (bin < 0)
                    continue;
                const size_t k = (size_t)rdf_tpair(ti, type ? type[j] : 0, nt) * bins + bin;
                if (ok)
                    h[k]++;
                else { /* no memory for a private histogram: straight into the shared one */
#pragma omp atomic
                    counts[k]++;
                }
            }
        }
        if (ok)
#pragma omp critical(rdf_sum)
            for (size_t k = 0; k < len; k++)
                counts[k] += h[k];
        free(h);
    }
}
