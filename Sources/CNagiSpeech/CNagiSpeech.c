#define _GNU_SOURCE
#include "CNagiSpeech.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <flite/flite.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* flite's functions, found in the libraries loaded by nagi_flite_load (flite.h gives only their types). */
static void (*flite_init_function)(void);
static cst_wave *(*text_to_wave_function)(const char *, cst_voice *);
static void (*delete_wave_function)(cst_wave *);
static void (*feat_set_float_function)(cst_features *, const char *, float);
/* flite's error target: its errors longjmp there, or call exit() when it is NULL. */
static jmp_buf **error_target;
static int flite_loaded;

const char *nagi_flite_load(void) {
    if (flite_loaded) return NULL;
    /* RTLD_GLOBAL: the voices' libraries resolve flite's symbols from it. */
    void *core = dlopen("libflite.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (core == NULL) return dlerror();
    flite_init_function = (void (*)(void))dlsym(core, "flite_init");
    text_to_wave_function = (cst_wave * (*)(const char *, cst_voice *))dlsym(core, "flite_text_to_wave");
    delete_wave_function = (void (*)(cst_wave *))dlsym(core, "delete_wave");
    feat_set_float_function = (void (*)(cst_features *, const char *, float))dlsym(core, "feat_set_float");
    error_target = (jmp_buf **)dlsym(core, "cst_errjmp");
    if (!flite_init_function || !text_to_wave_function || !delete_wave_function || !feat_set_float_function || !error_target) {
        return "libflite.so.1 lacks a function nagi calls";
    }
    flite_init_function();
    flite_loaded = 1;
    return NULL;
}

void *nagi_flite_register_voice(const char *name) {
    if (!flite_loaded) return NULL;
    char library[64], function[64];
    snprintf(library, sizeof library, "libflite_cmu_us_%s.so.1", name);
    snprintf(function, sizeof function, "register_cmu_us_%s", name);
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return NULL;
    cst_voice *(*register_voice)(const char *) = (cst_voice * (*)(const char *))dlsym(handle, function);
    return register_voice ? register_voice(NULL) : NULL;
}

void nagi_flite_set_float_feature(void *voice, const char *name, float value) {
    feat_set_float_function(((cst_voice *)voice)->features, name, value);
}

void *nagi_flite_text_to_wave(const char *text, void *voice) {
    srand(1);
    return text_to_wave_function(text, (cst_voice *)voice);
}

const int16_t *nagi_flite_wave_samples(const void *wave, int *sample_rate, int *channel_count, int *sample_count) {
    const cst_wave *flite_wave = wave;
    *sample_rate = flite_wave->sample_rate;
    *channel_count = flite_wave->num_channels;
    *sample_count = flite_wave->num_samples;
    return flite_wave->num_samples > 0 ? flite_wave->samples : NULL;
}

void nagi_flite_delete_wave(void *wave) {
    delete_wave_function((cst_wave *)wave);
}

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

/* The child's whole life after its signals are reset: speak each phrase as the parent would, send it, exit
 * without running anything of the parent's. */
static void speak_and_exit(void *voice, const char *const *texts, int count, int descriptor, pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    /* The parent may have died before the line above took effect. */
    if (getppid() != parent) _exit(3);
    /* flite's errors longjmp here instead of calling exit(), which would run the parent's atexit handlers. */
    jmp_buf on_error;
    if (setjmp(on_error) != 0) _exit(2);
    *error_target = &on_error;
    for (int index = 0; index < count; index++) {
        void *wave = nagi_flite_text_to_wave(texts[index], voice);
        struct record_header header = {0, 0, 0, 0};
        int sample_rate = 0, channel_count = 0, sample_count = 0;
        const int16_t *samples = wave ? nagi_flite_wave_samples(wave, &sample_rate, &channel_count, &sample_count) : NULL;
        if (samples != NULL && channel_count > 0) {
            header = (struct record_header){1, sample_rate, channel_count, sample_count};
        }
        if (write_all(descriptor, &header, sizeof header) != 0) _exit(1);
        if (header.spoken && write_all(descriptor, samples, (size_t)sample_count * (size_t)channel_count * sizeof(int16_t)) != 0) {
            _exit(1);
        }
        if (wave != NULL) nagi_flite_delete_wave(wave);
        if (!header.spoken) _exit(0);
    }
    _exit(0);
}

int nagi_flite_speak_forked(void *voice, const char *const *texts, int count, pid_t *child) {
    if (!flite_loaded) {
        errno = ENOENT;
        return -1;
    }
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
        speak_and_exit(voice, texts, count, ends[1], parent);
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
