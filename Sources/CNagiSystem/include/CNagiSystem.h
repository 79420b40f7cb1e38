#ifndef CNAGI_SYSTEM_H
#define CNAGI_SYSTEM_H

#include <stddef.h>

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

/// Maps `byte_count` bytes of zeroed, private memory starting on a 2 MiB boundary and asks the kernel to back it
/// with transparent huge pages where it can (madvise MADV_HUGEPAGE: this machine's setting is "madvise"). A fresh
/// 4 KiB page costs a fault each on first touch (about 1 ms a MiB here, against 0.1 ms in 2 MiB pages). Returns
/// NULL when the mapping fails; the advice failing (a kernel without THP) leaves ordinary pages.
void *nagi_map_large_pages(size_t byte_count);

/// Unmaps what `nagi_map_large_pages` mapped, given the same `byte_count`.
void nagi_unmap_large_pages(void *start, size_t byte_count);

#endif
