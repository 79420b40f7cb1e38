import Glibc

/// A C library call's failure as a value: its `errno`, read right after the call, and the system's words for it.
/// What every module reports in place of its own `strerror` call, so a fault reads the same everywhere.
package struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `errno` value (ENOSPC, EACCES, …).
    package let code: Int32

    package init(_ code: Int32) {
        self.code = code
    }

    /// The calling thread's `errno` now: read it before any other call can change it.
    package static var current: Errno { Errno(Glibc.errno) }

    /// The system's words: "No space left on device".
    package var description: String { String(cString: strerror(code)) }

    /// Whether a call failed only because a signal interrupted it.
    package var isInterrupted: Bool { code == EINTR }
}
