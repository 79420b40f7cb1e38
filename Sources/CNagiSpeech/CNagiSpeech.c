#define _GNU_SOURCE
#include "CNagiSpeech.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <flite/flite.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* What the pipe holds for one phrase's wave before its samples. */
struct record_header {
    int32_t spoken;
    int32_t sample_rate;
    int32_t channel_count;
    int32_t sample_count;
};

/* Writes all `length` bytes, retrying short writes and interruptions; 0 on success. */
static int write_all(int descriptor, const void *bytes, size_t length) {
    const char *at = bytes;
    while (length > 0) {
        ssize_t written = write(descriptor, at, length);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        at += written;
        length -= (size_t)written;
    }
    return 0;
}

/* Every caught signal back to its default action, so a handler of the parent's (which may touch the parent's
 * files or state) never runs in the child; ignored signals (SIGPIPE) stay ignored so a closed pipe is EPIPE. */
static void restore_default_handlers(void) {
    for (int number = 1; number < NSIG; number++) {
        if (number == SIGKILL || number == SIGSTOP) continue;
        struct sigaction current;
        if (sigaction(number, NULL, &current) != 0) continue;
        if (current.sa_handler == SIG_IGN || current.sa_handler == SIG_DFL) continue;
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(number, &fallback, NULL);
    }
}

/* The child's whole life: speak each phrase as the parent would (rand seeded as a fresh process seeds it),
 * send it, exit without running anything of the parent's. */
static void speak_and_exit(cst_voice *voice, const char *const *texts, int count, int descriptor, pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* The parent may have died before the line above took effect. */
    if (getppid() != parent) _exit(3);
    /* flite's errors longjmp here instead of calling exit(), which would run the parent's atexit handlers. */
    jmp_buf on_error;
    if (setjmp(on_error) != 0) _exit(2);
    cst_errjmp = &on_error;
    for (int index = 0; index < count; index++) {
        srand(1);
        cst_wave *wave = flite_text_to_wave(texts[index], voice);
        struct record_header header = {0, 0, 0, 0};
        if (wave != NULL && wave->samples != NULL && wave->num_samples > 0) {
            header.spoken = 1;
            header.sample_rate = wave->sample_rate;
            header.channel_count = wave->num_channels;
            header.sample_count = wave->num_samples;
        }
        if (write_all(descriptor, &header, sizeof header) != 0) _exit(1);
        if (header.spoken) {
            size_t bytes = (size_t)header.sample_count * (size_t)(header.channel_count > 0 ? header.channel_count : 1) * sizeof(int16_t);
            if (write_all(descriptor, wave->samples, bytes) != 0) _exit(1);
        }
        if (wave != NULL) delete_wave(wave);
        if (!header.spoken) _exit(0);
    }
    _exit(0);
}

int nagi_flite_speak_forked(void *voice, const char *const *texts, int count, pid_t *child) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0) return -1;
    /* Room for every phrase of a guide (about 30 s of 16 kHz speech), so the child rarely waits for the parent,
     * which reads only after speaking its own share. Refused above the system's limit: the pipe still works. */
    fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
    /* No signal between the fork and the child's restoring of default handlers may run a parent's handler in
     * the child: every signal is blocked across the fork, then restored on both sides. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(ends[0]);
        restore_default_handlers();
        pthread_sigmask(SIG_SETMASK, &previous, NULL);
        speak_and_exit((cst_voice *)voice, texts, count, ends[1], parent);
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(ends[1]);
    if (pid < 0) {
        close(ends[0]);
        errno = saved;
        return -1;
    }
    *child = pid;
    return ends[0];
}
