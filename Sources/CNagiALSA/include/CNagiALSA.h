#ifndef CNAGI_ALSA_H
#define CNAGI_ALSA_H

/// Replaces ALSA's default error handler (which prints "ALSA lib ..." lines to
/// stderr) with one that keeps only the last message, so nagi can print one
/// clear sentence instead.
void nagi_alsa_silence_errors(void);

/// The last message ALSA reported through its error handler, or "" if none.
const char *nagi_alsa_last_error(void);

#endif
