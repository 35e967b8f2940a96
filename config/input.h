/* input.h — checks of a config file before libconfig reads it (config.c's helper). */
#ifndef TB_CONFIG_INPUT_H
#define TB_CONFIG_INPUT_H

/* Checks that the config file `path` is a regular file of at most CFG_FILE_MAX bytes that
 * reads without error, with no NUL byte and no UTF-8 byte-order mark, and the same of the
 * files it @includes (resolved against dir, the config's directory with its slash, "" for
 * the current one), to a depth of CFG_INCLUDE_DEPTH; an include cycle is an error. Each file
 * is read once however often it is included. Returns 0, or -1 after one line naming file
 * and line (of the @include, for an included file). */
int cfg_check_input_file(const char *path, const char *dir);

#endif
