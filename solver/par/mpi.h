/* mpi.h — the rank layer: one simulation over P processes (one per GPU), through MPI.
 *
 * Every rank holds the whole state and integrates it; only the force evaluation is split
 * (docs/scaling.md): each rank computes its share of the tile triplets, pair tiles or
 * anchors (split.h) and the shares are summed — by NCCL on GPUs (gpu_backend.cu), by the
 * functions below on the CPU — so every rank ends each step with the same bits.
 *
 * Built with -DTB_MPI when mpicc is found (Makefile); without it every function below is a
 * one-process stub (rank 0 of 1), so the code calls them unconditionally.
 *
 * Errors. Setup (configuration, input, backend, devices) is checked on every rank and then
 * agreed with tb_mpi_agree(): ranks other than 0 keep their messages until then, and only the
 * lowest failing rank prints, so a failure prints one message and every rank exits with the same
 * nonzero status. A failure after setup (a CUDA or NCCL error inside a step, while the other
 * ranks wait in a collective) prints its message with the rank's name and ends the job with
 * MPI_Abort (tb_mpi_finish). Ranks other than 0 print nothing on stdout and no notices. */
#ifndef TB_MPI_H
#define TB_MPI_H

#include <stddef.h>

#include "common/tb.h"

TB_BEGIN_DECLS

/* Starts MPI when the build has it and an MPI launcher started this process (MPI_Init_thread,
 * FUNNELED; without a launcher: one process, MPI untouched); finds the node-local rank. 0, or
 * -1 with a message. Call once, first thing in main(). */
int tb_mpi_init(int *argc, char ***argv);

/* Ends MPI: after a failure that the ranks did not agree on (rc != 0 not seen by
 * tb_mpi_agree), MPI_Abort(rc) so that no rank waits forever; else MPI_Finalize. Returns rc. */
int tb_mpi_finish(int rc);

/* This rank, the number of ranks, the rank within the node and the ranks on this node. */
int tb_rank(void);
int tb_nranks(void);
int tb_local_rank(void);
int tb_local_size(void);
/* The ranks the force work is split over: tb_rank()/tb_nranks(), or 0 of 1 while solo mode
 * is on (tb_mpi_solo(1)): then every backend created computes everything alone, as one rank
 * would (bench times that for the parallel efficiency). Devices stay per rank. */
int tb_split_rank(void);
int tb_split_nranks(void);
void tb_mpi_solo(int on);
/* 1 when the build has MPI (even when run as one process). */
int tb_mpi_built(void);
/* "rank 1 of 2 on host" (for messages). */
const char *tb_rank_name(void);

/* Collective: every rank passes its status (0 or an exit status); returns the largest status
 * of any rank (0 when all succeeded). When some failed, the lowest failing rank prints the
 * message it kept (rank 0 prints at once), so one message is printed in all. */
int tb_mpi_agree(int rc);

/* Collective sums, in place, leaving the same bits on every rank. Doubles: reduced to rank 0
 * in MPI's fixed order and broadcast (MPI_Allreduce does not promise every rank the same
 * rounding); 64-bit integers: MPI_Allreduce, exact. 0 or -1 (reported). */
int tb_mpi_sum_d(double *buf, size_t count);
int tb_mpi_sum_f(float *buf, size_t count); /* like tb_mpi_sum_d */
int tb_mpi_sum_u64(unsigned long long *buf, size_t count);
/* Collective maximum of one value (every rank gets it). */
double tb_mpi_max_d(double v);
long long tb_mpi_max_ll(long long v);
/* Collective: rank r's count doubles into all[r count ..] on rank 0 (all: nranks count doubles
 * there; ignored elsewhere). 0 or -1. */
int tb_mpi_gather_d(const double *mine, size_t count, double *all);
/* Collective: copies bytes from root to every rank. 0 or -1. */
int tb_mpi_bcast(void *buf, size_t bytes, int root);
/* Collective: 1 when buf holds the same bytes on every rank. */
int tb_mpi_same(const void *buf, size_t bytes);
/* Collective barrier. */
void tb_mpi_barrier(void);

/* Writes "1 process", "2 ranks, 2 GPUs" or "2 ranks on CPUs" (gpu: the backend is the GPU's)
 * into buf: the first line of run, eval and bench says it. Returns buf. */
const char *tb_ranks_desc(char *buf, size_t len, int gpu);

/* Fault injection for the tests: 1 (with a message) at the force evaluation number
 * TRIBODY_FAULT_AFTER (default 1) of the rank TRIBODY_FAULT_RANK; 0 otherwise and always
 * when the variable is unset. */
int tb_mpi_fault(void);

/* Called by tb_mpi_finish before MPI ends (the GPU layer's NCCL communicator). */
void tb_mpi_on_finish(void (*fn)(void));

TB_END_DECLS

#endif
