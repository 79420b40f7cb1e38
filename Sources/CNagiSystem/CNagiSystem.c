#define _GNU_SOURCE
#include "CNagiSystem.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/* An atomic, not a volatile sig_atomic_t: the handler runs on whichever thread the kernel picks, and render
 * threads read the flag. volatile only orders a handler against its own thread; ThreadSanitizer reported the
 * cross-thread read as a data race. Lock-free atomics are async-signal-safe. */
static atomic_int nagi_received_signal = 0;

static void nagi_record_signal(int signal_number) {
    int none = 0;
    /* The first signal wins: a SIGTERM after Ctrl-C does not change the exit code. */
    atomic_compare_exchange_strong(&nagi_received_signal, &none, signal_number);
}

void nagi_install_stop_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = nagi_record_signal;
    sigemptyset(&action.sa_mask);
    /* No SA_RESTART: a blocking write returns EINTR and the loop sees the flag. */
    action.sa_flags = 0;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    /* A parent may hand down a mask that blocks them (thread pools often do): unblock them. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
}

int nagi_stop_signal(void) {
    return atomic_load(&nagi_received_signal);
}

void nagi_reset_stop_signal(void) {
    atomic_store(&nagi_received_signal, 0);
}

void nagi_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int nagi_start_writeback(int file_descriptor) {
    return sync_file_range(file_descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int nagi_open_nameless_file(const char *folder) {
    return open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}
