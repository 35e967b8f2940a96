/* run_signal.h — `tribody run`'s signals (run_signal.c): SIGINT or SIGTERM asks the stepping
 * loop to save and stop at the next step boundary; a second one, after a second, stops at once. */
#ifndef TB_RUN_SIGNAL_H
#define TB_RUN_SIGNAL_H

/* Installs the handler (tty: stderr is a terminal, the first signal is answered at once with a
 * note), or the defaults back. */
void run_signals_catch(int tty);
void run_signals_default(void);
/* The signal received on this rank (0: none). */
int run_signal_pending(void);
/* The signal every rank acts on from here to the next call, agreed (the largest; collective
 * under MPI). */
int run_signal_agreed(void);

#endif
