/* bench_liquid.h — `tribody bench --liquid` (bench_liquid.c), called by cmd_bench. */
#ifndef TB_BENCH_LIQUID_H
#define TB_BENCH_LIQUID_H

/* Runs the liquid benchmark with the bench command's arguments; the exit status. */
int bench_liquid(int argc, char **argv);

#endif
