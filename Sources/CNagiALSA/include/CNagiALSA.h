#ifndef CNAGI_ALSA_H
#define CNAGI_ALSA_H

/// Replaces ALSA's default error handler (which prints "ALSA lib ..." lines to
/// stderr) with one that keeps only the last message, so nagi can print one
/// clear sentence instead.
void nagi_alsa_silence_errors(void);

/// The last message ALSA reported through its error handler, or "" if none.
const char *nagi_alsa_last_error(void);

/// Forgets the messages kept so far, so the next failure's messages can be read alone.
/// Process-wide state: call it from one thread at a time.
void nagi_alsa_clear_errors(void);

/// The first message ALSA reported since the last nagi_alsa_clear_errors(), or "" if none.
/// For a failed open this is usually the root cause ("cannot find card '0'").
const char *nagi_alsa_first_error(void);

#endif
