/* cli.h — the subcommands of the tribody program; each takes argc/argv starting at the
 * subcommand's name and returns the process exit status (0 ok, 1 runtime failure, 2 bad
 * usage, config or input). */
#ifndef TB_CLI_H
#define TB_CLI_H

int cmd_run(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_maps(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_validate(int argc, char **argv);

#endif
