#ifndef CNAGI_SPEECH_H
#define CNAGI_SPEECH_H

#include <sys/types.h>

/// Starts a child process that speaks `count` phrases through flite and sends their waves back on a pipe.
///
/// flite keeps process-wide state (libc's `rand`, which nagi seeds before each phrase so renders repeat; an
/// error `longjmp` target), so two threads cannot speak at once; two processes can. The child is a copy of this
/// one at the fork: it speaks with `voice` (a `cst_voice *` this process registered and set up) exactly what
/// this process would, runs only C (flite, `write`, `_exit`: no Swift runtime, no atexit handlers), restores
/// every signal's default action (ignored ones stay ignored), and dies with this process (PR_SET_PDEATHSIG).
///
/// The pipe carries, per phrase in order, four int32 values in this machine's byte order (1 when flite gave a
/// wave, else 0; the sample rate; the channel count; the sample count), then that many int16 samples. The
/// child exits 0 after the last phrase; it stops at the first phrase flite fails on (that record has 0 first)
/// and when a write fails.
///
/// Returns the pipe's read end (close-on-exec) and sets `*child`, or returns -1 with errno set when the pipe
/// or the fork failed (nothing is left open then).
int nagi_flite_speak_forked(void *voice, const char *const *texts, int count, pid_t *child);

#endif
