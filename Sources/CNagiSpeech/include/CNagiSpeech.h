#ifndef CNAGI_SPEECH_H
#define CNAGI_SPEECH_H

#include <stdint.h>
#include <sys/types.h>

/// flite, loaded when the guide first speaks (dlopen) rather than linked.
///
/// The three clustergen voices hold about 130 000 pointers that the dynamic loader relocates at every start:
/// linked, they cost every nagi process about 6 MB of resident memory and 4 ms of CPU, `nagi --version`
/// included, though most runs speak nothing. Loaded here, a run that speaks pays for flite and the one voice
/// it uses; one that does not, nothing.
///
/// Voices are named as `SpeechVoice` names them: "slt", "rms", "awb", "kal16". Every function but
/// `nagi_flite_wave_samples` must be called under the caller's flite lock (flite keeps global state).

/// Loads flite's core library. Returns NULL when it is loaded (also on later calls), else the loader's message.
const char *nagi_flite_load(void);

/// A new flite voice `name` (its library loaded on first use), or NULL when it cannot be had (the library is
/// missing, or flite is not loaded).
void *nagi_flite_register_voice(const char *name);

/// Sets a float feature of `voice`. flite keeps the `name` pointer, so it must outlive the voice.
void nagi_flite_set_float_feature(void *voice, const char *name, float value);

/// flite's wave for `text` spoken by `voice` after seeding libc's `rand` with 1 (the clustergen voices excite
/// unvoiced sounds with it; seeded as a fresh process seeds it, each phrase is the same whatever was spoken
/// before it), or NULL. Free it with `nagi_flite_delete_wave`.
void *nagi_flite_text_to_wave(const char *text, void *voice);

/// A wave's samples (16-bit, interleaved), and its sample rate, channel count and frames through the pointers;
/// NULL when it holds none.
const int16_t *nagi_flite_wave_samples(const void *wave, int *sample_rate, int *channel_count, int *sample_count);

/// Frees a wave from `nagi_flite_text_to_wave`.
void nagi_flite_delete_wave(void *wave);

/// Starts a child process that speaks `count` phrases through flite and sends their waves back on a pipe.
///
/// flite keeps process-wide state (libc's `rand`, an error `longjmp` target), so two threads cannot speak at
/// once; two processes can. The child is a copy of this one at the fork: it speaks with `voice` (registered and
/// set up by this process) exactly what `nagi_flite_text_to_wave` speaks here, runs only C (flite, `write`,
/// `_exit`: no Swift runtime, no atexit handlers), restores every caught signal's default action (ignored ones
/// stay ignored), and dies with this process (PR_SET_PDEATHSIG).
///
/// The pipe carries, per phrase in order, four int32 values in this machine's byte order (1 when flite gave a
/// wave, else 0; the sample rate; the channel count; the sample count), then that many int16 samples per
/// channel. The child exits after the last phrase, after the first phrase flite fails on (that record has 0
/// first), and when a write fails.
///
/// Returns the pipe's read end (close-on-exec) and sets `*child`, or returns -1 with errno set when the pipe
/// or the fork failed (nothing is left open then).
int nagi_flite_speak_forked(void *voice, const char *const *texts, int count, pid_t *child);

#endif
