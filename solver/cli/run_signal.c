/* run_signal.c — what `tribody run` does with SIGINT and SIGTERM (run_signal.h): the first
 * asks for a save at the next step boundary, a quick repeat is a double delivery, a later one
 * stops at once; under MPI the ranks agree on the signal before acting on it. */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "solver/cli/run_signal.h"
#include "solver/par/mpi.h"

static volatile sig_atomic_t stop_signal = 0;
static long long stop_first_ms; /* monotonic time of the first signal [ms] */
static int stop_notes;          /* this process says what it does with a signal (rank 0) */
static int stop_tty;            /* stderr is a terminal (rank 0): the first signal is answered */

/* A repeat within this time of the first signal is the same request delivered twice (GNU
 * timeout and job launchers signal the process and then its group): it is ignored. */
#define STOP_REPEAT_MS 1000

static long long monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe */
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Writes msg to stderr from a signal handler (write(2) is async-signal-safe, stdio is not). */
static void signal_note(const char *msg)
{
    if (stop_notes && write(STDERR_FILENO, msg, strlen(msg)) < 0)
        return;
}

/* First SIGINT/SIGTERM: finish the step, save, then die of the signal (on a terminal a note
 * says so at once: a step may take minutes). A repeat within STOP_REPEAT_MS: ignored (a
 * double delivery). A later one (a deliberate second Ctrl-C): die at once without saving;
 * the last checkpoint written stays as it is. The handler runs with both signals blocked
 * (catch_signals), so it never interrupts itself. */
static void on_signal(int sig)
{
    if (!stop_signal) {
        stop_first_ms = monotonic_ms();
        stop_signal = sig;
        if (!stop_tty) /* a log gets the one line saying where the state was saved */
            return;
        signal_note(sig == SIGINT
                        ? "\ntribody: SIGINT: saving the state at the end of this step (Ctrl-C "
                          "again, after a second, stops at once without saving)\n"
                        : "\ntribody: SIGTERM: saving the state at the end of this step (a "
                          "second signal, after a second, stops at once without saving)\n");
        return;
    }
    if (monotonic_ms() - stop_first_ms < STOP_REPEAT_MS)
        return;
    if (stop_tty)
        signal_note("\n");
    signal_note("tribody: a second signal: stopped at once, without saving (the last checkpoint "
                "written, if any, is kept)\n");
    signal(sig, SIG_DFL);
    raise(sig); /* delivered when the handler returns: the signal stays blocked until then */
}

/* Installs on_signal for SIGINT and SIGTERM (h = on_signal), or the defaults (h = SIG_DFL). */
static void catch_signals(void (*h)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;
    stop_notes = tb_rank() == 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* The signal the ranks act on from here to the next call: every rank's, agreed (the largest),
 * read once. The stepping loop decides from this value alone, never from stop_signal, which
 * a handler may set on one rank between two decisions: that rank would then fetch, or stop,
 * where the others step on, and their collectives would no longer match (MPI_ERR_TRUNCATE,
 * or a hang, under mpirun with a signal sent to the ranks). */
int run_signal_agreed(void)
{
    int sig = (int)stop_signal;
    if (tb_nranks() > 1 && (sig = (int)tb_mpi_max_ll((long long)sig)) != 0)
        stop_signal = (sig_atomic_t)sig;
    return sig;
}

int run_signal_pending(void)
{
    return (int)stop_signal;
}

void run_signals_catch(int tty)
{
    stop_tty = tty;
    catch_signals(on_signal);
}

void run_signals_default(void)
{
    catch_signals(SIG_DFL);
}
