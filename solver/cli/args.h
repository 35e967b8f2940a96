/* args.h — the command-line arguments that `run` and `eval` share. */
#ifndef TB_ARGS_H
#define TB_ARGS_H

#include "common/tb.h"

#define ARGS_MAX_SET 256

typedef struct cli_args {
    const char *config;            /* CONFIG (required) */
    int n_set;                     /* --set PATH=VALUE overrides, in order */
    char *sets[ARGS_MAX_SET];
    const char *restart;           /* run: --restart FILE */
    const char *allow_change;      /* run: --allow-change LIST (settings, or "all") */
    const char *out;               /* eval: -o FILE */
    int help;                      /* --help was given */
} cli_args;

/* Parses argv[1..] of subcommand argv[0]. allow names the options the command accepts:
 * "r" for --restart and --allow-change, "o" for -o. Returns 0, or TB_EXIT_USAGE after a one-line message
 * ("tribody: run: unknown option '--x' (see tribody run --help)"). */
int args_parse(int argc, char **argv, const char *allow, cli_args *a);

#endif
