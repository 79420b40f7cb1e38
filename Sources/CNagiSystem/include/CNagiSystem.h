#ifndef CNAGI_SYSTEM_H
#define CNAGI_SYSTEM_H

/// Installs SIGINT and SIGTERM handlers that only record the signal number.
/// Long loops poll `nagi_stop_signal()` once per block and stop cleanly.
void nagi_install_stop_handlers(void);

/// The first stop signal received (SIGINT or SIGTERM), or 0 if none yet.
int nagi_stop_signal(void);

/// Forgets a recorded stop signal (tests use it between runs).
void nagi_reset_stop_signal(void);

/// Ignores SIGPIPE so a closed pipe is an EPIPE write error, not a silent death.
void nagi_ignore_sigpipe(void);

/// Starts the kernel's writeback of a file's dirty pages without waiting (sync_file_range with
/// SYNC_FILE_RANGE_WRITE), so a later fsync has little left to do. Returns -1 with errno on pipes.
int nagi_start_writeback(int file_descriptor);

/// Opens a new file without a name in `folder` for reading and writing (open with O_TMPFILE, a macro Swift
/// cannot import): it never appears in the folder and is gone once closed. Returns -1 with errno when the
/// folder's file system cannot make one.
int nagi_open_nameless_file(const char *folder);

#endif
