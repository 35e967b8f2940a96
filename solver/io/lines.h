/* lines.h — a text file read line by line with bounded memory, for the readers of initial
 * states (xyz.c, lammps_data.c): the line number of the last line read, one report per bad
 * line (a NUL byte, a line longer than IO_LINE_MAX bytes), and the file's size so that a
 * count in a header can be checked against what the file can hold before anything is
 * allocated. */
#ifndef TB_IO_LINES_H
#define TB_IO_LINES_H

#include <stdio.h>

#include "common/tb.h"

TB_BEGIN_DECLS

#define IO_LINE_MAX (1 << 20) /* longest line read [bytes]: memory stays bounded */

typedef struct io_lines {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    int line;       /* number of the line last read, from 1 */
    int bad;        /* a bad line was reported */
    long long size; /* bytes in the file */
} io_lines;

/* Opens path for reading (a regular file or a pipe; its size when it has one, else
 * LLONG_MAX). 0, or -1 after "tribody: PATH: <setting>: cannot open (reason)". */
int io_lines_open(io_lines *r, const char *path, const char *setting);

/* Reads the next line without its "\n" or "\r\n"; NULL at the end of the file, on a read
 * error (told apart by ferror(r->f)) or on a bad line (r->bad set, reported). The buffer
 * never grows past IO_LINE_MAX + 2 bytes. */
char *io_getline(io_lines *r);

/* Closes the file and frees the buffer. */
void io_lines_close(io_lines *r);

TB_END_DECLS

#endif
