/* args.c — parsing the shared options of `tribody run` and `tribody eval`. */
#include <string.h>

#include "solver/cli/args.h"
#include "common/check.h"

/* Value of an option given as "--opt VALUE" or "--opt=VALUE"; advances *i. NULL if absent. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    const size_t len = strlen(name);
    if (strcmp(argv[*i], name) == 0)
        return *i + 1 < argc ? argv[++*i] : "";
    if (strncmp(argv[*i], name, len) == 0 && argv[*i][len] == '=')
        return argv[*i] + len + 1;
    return NULL;
}

static int is_opt(const char *arg, const char *name)
{
    const size_t len = strlen(name);
    return strncmp(arg, name, len) == 0 && (arg[len] == '\0' || arg[len] == '=');
}

int args_parse(int argc, char **argv, const char *allow, cli_args *a)
{
    const char *cmd = argv[0], *v;
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            a->help = 1;
        } else if (is_opt(arg, "--set")) {
            v = opt_value(argc, argv, &i, "--set");
            if (!*v || !strchr(v, '=')) {
                tb_error(NULL, 0, "%s: --set: expected PATH=VALUE (got \"%s\")", cmd, v);
                return TB_EXIT_USAGE;
            }
            if (a->n_set == ARGS_MAX_SET) {
                tb_error(NULL, 0, "%s: more than %d --set options", cmd, ARGS_MAX_SET);
                return TB_EXIT_USAGE;
            }
            a->sets[a->n_set++] = (char *)v;
        } else if (strchr(allow, 'r') && is_opt(arg, "--restart")) {
            v = opt_value(argc, argv, &i, "--restart");
            if (!*v) {
                tb_error(NULL, 0, "%s: --restart: expected a checkpoint file", cmd);
                return TB_EXIT_USAGE;
            }
            a->restart = v;
        } else if (strchr(allow, 'r') && is_opt(arg, "--allow-change")) {
            v = opt_value(argc, argv, &i, "--allow-change");
            if (!*v) {
                tb_error(NULL, 0, "%s: --allow-change: expected settings (a,b,...) or all", cmd);
                return TB_EXIT_USAGE;
            }
            a->allow_change = v;
        } else if (strchr(allow, 'o') && (is_opt(arg, "-o") || is_opt(arg, "--output"))) {
            v = opt_value(argc, argv, &i, arg[1] == 'o' ? "-o" : "--output");
            if (!*v) {
                tb_error(NULL, 0, "%s: -o: expected an output file", cmd);
                return TB_EXIT_USAGE;
            }
            a->out = v;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            tb_error(NULL, 0, "%s: unknown option '%s' (see tribody %s --help)", cmd, arg, cmd);
            return TB_EXIT_USAGE;
        } else if (!a->config) {
            a->config = arg;
        } else {
            tb_error(NULL, 0, "%s: unexpected argument '%s' (one CONFIG file only)", cmd, arg);
            return TB_EXIT_USAGE;
        }
    }
    if (a->allow_change && !a->restart) {
        tb_error(NULL, 0, "%s: --allow-change is only used with --restart", cmd);
        return TB_EXIT_USAGE;
    }
    if (!a->help && !a->config) {
        tb_error(NULL, 0, "%s: missing CONFIG file (see tribody %s --help)", cmd, cmd);
        return TB_EXIT_USAGE;
    }
    return 0;
}
