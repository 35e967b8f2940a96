/* main.c — the tribody program: dispatches to its subcommands (cli.h). */
#include <stdio.h>
#include <string.h>

#include "solver/cli/cli.h"
#include "solver/gpu/gpu.h"
#include "solver/par/mpi.h"
#include "common/tb.h"

static const char usage[] =
    "usage: tribody COMMAND [ARGS]\n"
    "\n"
    "tribody simulates N particles under the Axilrod-Teller-Muto three-body potential\n"
    "(optionally plus Lennard-Jones pairs), summing over all triplets i<j<k on the GPU\n"
    "or the CPU. Units are reduced Lennard-Jones units (docs/config.md).\n"
    "\n"
    "commands:\n"
    "  run CONFIG [--set PATH=VALUE ...] [--restart FILE]   simulate\n"
    "  eval CONFIG [--set PATH=VALUE ...] [-o FILE]         one energy and force evaluation\n"
    "  maps --n N --tile R [--map M ...] [--check]          inspect and verify the block maps\n"
    "  bench [CONFIG] [--n LIST] [--maps LIST] ...          time force evaluations per map\n"
    "  validate CONFIG [--n N] [--time T] [--report FILE]   check against independent references\n"
    "\n"
    "options:\n"
    "  -h, --help      this help; `tribody COMMAND --help` for a command's own\n"
    "  --version       version and build\n"
    "\n"
    "exit status: 0 success, 1 runtime failure, 2 bad usage, config or input\n";

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return TB_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
        fputs(usage, stdout);
        return TB_EXIT_OK;
    }
    if (!strcmp(cmd, "--version")) {
        printf("tribody %s (%s, %s)\n", TB_VERSION, gpu_build_info(),
               tb_mpi_built() ? "MPI" : "one process");
        return TB_EXIT_OK;
    }
    if (!strcmp(cmd, "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(cmd, "eval"))
        return cmd_eval(argc - 1, argv + 1);
    if (!strcmp(cmd, "maps"))
        return cmd_maps(argc - 1, argv + 1);
    if (!strcmp(cmd, "bench"))
        return cmd_bench(argc - 1, argv + 1);
    if (!strcmp(cmd, "validate"))
        return cmd_validate(argc - 1, argv + 1);
    fprintf(stderr, "tribody: unknown command '%s' (expected run, eval, maps, bench or validate; see tribody --help)\n",
            cmd);
    return TB_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (tb_mpi_init(&argc, &argv) != 0)
        return TB_EXIT_RUNTIME;
    return tb_mpi_finish(dispatch(argc, argv));
}
