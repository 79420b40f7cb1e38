#include "CNagiALSA.h"
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

static char nagi_alsa_message[512] = "";
static char nagi_alsa_first_message[512] = "";

static void nagi_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list arguments;
    va_start(arguments, fmt);
    vsnprintf(nagi_alsa_message, sizeof nagi_alsa_message, fmt, arguments);
    va_end(arguments);
    /* The first message of a failure names its root (e.g. "cannot find card '0'"); later ones only echo it. */
    if (nagi_alsa_first_message[0] == '\0') {
        snprintf(nagi_alsa_first_message, sizeof nagi_alsa_first_message, "%s", nagi_alsa_message);
    }
}

void nagi_alsa_silence_errors(void) {
    snd_lib_error_set_handler(nagi_alsa_quiet_handler);
}

const char *nagi_alsa_last_error(void) {
    return nagi_alsa_message;
}

void nagi_alsa_clear_errors(void) {
    nagi_alsa_message[0] = '\0';
    nagi_alsa_first_message[0] = '\0';
}

const char *nagi_alsa_first_error(void) {
    return nagi_alsa_first_message;
}
