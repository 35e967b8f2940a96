/* bench_sw.h — `tribody bench --sw` (bench_sw.c), called by cmd_bench. */
#ifndef TB_BENCH_SW_H
#define TB_BENCH_SW_H

/* Runs the Stillinger-Weber silicon benchmark with the bench command's arguments; the exit
 * status. */
int bench_sw(int argc, char **argv);

#endif
