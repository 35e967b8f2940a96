/* fuzz_restart.c — libFuzzer target: which thermo and trajectory files a restart may continue
 * (restart_check_file, solver/io/restart.c), and cutting a longer one back to the checkpoint
 * with a backup (out_cut_back, solver/io/output.c).
 *
 * Each input is written to a scratch file and checked against the run id 7e57, as a
 * trajectory when it starts with a digit (an XYZ file starts with its atom count), else as a
 * thermo file. Besides the sanitizers' findings, the target aborts on a broken promise: the
 * status is 0 or TB_EXIT_USAGE; 0 only when the run id's text "run_id=0000000000007e57"
 * is in the file's first 64 KiB; and, for a file accepted, out_cut_back to half its size
 * leaves the first half under its name and the whole input, byte for byte, in NAME.~1~. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/tb.h"
#include "solver/io/output.h"
#include "solver/io/restart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64], backup[80];

static void broken(const char *what, long v)
{
    fprintf(stderr, "fuzz_restart: broken promise: %s (%ld)\n", what, v);
    abort();
}

/* Whether the file path holds exactly len bytes equal to p. */
static int holds(const char *path, const uint8_t *p, size_t len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *b = malloc(len + 1);
    size_t got = 0;
    int same;
    if (!f || !b) {
        if (f)
            fclose(f);
        free(b);
        return 0;
    }
    got = fread(b, 1, len + 1, f);
    fclose(f);
    same = got == len && (len == 0 || memcmp(b, p, len) == 0);
    free(b);
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char want[] = "run_id=0000000000007e57";
    const size_t head = size < 65536 ? size : 65536;
    const int traj = size > 0 && data[0] >= '0' && data[0] <= '9';
    FILE *f;
    int rc, present = 0;
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "/tmp/fuzz_restart_%ld.out", (long)getpid());
        snprintf(backup, sizeof backup, "%s.~1~", scratch);
    }
    unlink(backup);
    if (!(f = fopen(scratch, "wb")))
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    rc = restart_check_file(scratch, traj ? "output.trajectory" : "output.thermo", "fuzz.cfg",
                            0x7e57ULL, traj);
    if (rc != 0 && rc != TB_EXIT_USAGE)
        broken("a status other than 0 or 2", rc);
    for (size_t i = 0; i + sizeof want - 1 <= head && !present; i++)
        present = memcmp(data + i, want, sizeof want - 1) == 0;
    if (rc == 0 && !present)
        broken("a file accepted without the run id in its head", (long)size);
    if (rc == 0) {
        if (out_cut_back(scratch, (long long)(size / 2)) != 0)
            broken("out_cut_back failed", (long)size);
        if (size / 2 < size && !holds(backup, data, size))
            broken("the backup is not the whole file", (long)size);
        if (!holds(scratch, data, size / 2))
            broken("the file is not its first half", (long)size);
        unlink(backup);
    }
    unlink(scratch);
    return 0;
}
