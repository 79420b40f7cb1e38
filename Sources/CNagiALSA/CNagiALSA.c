#include "CNagiALSA.h"
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

static char nagi_alsa_message[512] = "";

static void nagi_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list arguments;
    va_start(arguments, fmt);
    vsnprintf(nagi_alsa_message, sizeof nagi_alsa_message, fmt, arguments);
    va_end(arguments);
}

void nagi_alsa_silence_errors(void) {
    snd_lib_error_set_handler(nagi_alsa_quiet_handler);
}

const char *nagi_alsa_last_error(void) {
    return nagi_alsa_message;
}
