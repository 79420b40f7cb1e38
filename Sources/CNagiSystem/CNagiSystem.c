#define _GNU_SOURCE
#include "CNagiSystem.h"
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

/* A huge page's size on x86-64 (and most other 64-bit systems Linux runs on). */
#define NAGI_HUGE_PAGE_BYTES ((size_t)2 << 20)

static size_t nagi_page_rounded(size_t byte_count) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return (byte_count + page - 1) / page * page;
}

void *nagi_map_large_pages(size_t byte_count) {
    size_t length = nagi_page_rounded(byte_count == 0 ? 1 : byte_count);
    if (length > SIZE_MAX - NAGI_HUGE_PAGE_BYTES) return NULL;
    /* Map a huge page more than asked and keep the aligned part: mmap itself aligns only to 4 KiB. */
    char *mapped = mmap(NULL, length + NAGI_HUGE_PAGE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) return NULL;
    char *start = (char *)(((uintptr_t)mapped + NAGI_HUGE_PAGE_BYTES - 1) & ~(uintptr_t)(NAGI_HUGE_PAGE_BYTES - 1));
    char *end = mapped + length + NAGI_HUGE_PAGE_BYTES;
    if (start > mapped) munmap(mapped, (size_t)(start - mapped));
    if (end > start + length) munmap(start + length, (size_t)(end - (start + length)));
    madvise(start, length, MADV_HUGEPAGE);
    return start;
}

void nagi_unmap_large_pages(void *start, size_t byte_count) {
    munmap(start, nagi_page_rounded(byte_count == 0 ? 1 : byte_count));
}
