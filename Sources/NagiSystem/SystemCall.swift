import Glibc

/// The one way nagi calls the C library's system calls: reads `errno` right after a failure and retries
/// what a signal interrupted, after swift-system's `valueOrErrno(retryOnInterrupt:)`.
///
/// Every call but `close` retries on EINTR: Linux releases the descriptor even when `close` is interrupted,
/// so a retry could close a descriptor another thread has just been given.
package enum SystemCall {
    /// A failed call's `errno`.
    package typealias Failure = Errno

    /// Runs `call` (again while it fails with EINTR, when `retryOnInterrupt`) and returns its non-negative
    /// result, or the errno of a result of −1.
    @inline(__always)
    package static func valueOrErrno<Value: FixedWidthInteger>(retryOnInterrupt: Bool = true, _ call: () -> Value) -> Result<Value, Failure> {
        while true {
            let value = call()
            if value != -1 { return .success(value) }
            let code = Glibc.errno
            if retryOnInterrupt && code == EINTR { continue }
            return .failure(Errno(code))
        }
    }

    /// `open(path, flags, mode)`: a descriptor, or the errno.
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Result<Int32, Failure> {
        valueOrErrno { Glibc.open(path, flags, mode) }
    }

    /// `fsync(descriptor)`: nil, or the errno.
    package static func fsync(_ descriptor: Int32) -> Failure? {
        valueOrErrno { Glibc.fsync(descriptor) }.failure
    }

    /// `close(descriptor)`, never retried: nil, or the errno.
    package static func close(_ descriptor: Int32) -> Failure? {
        valueOrErrno(retryOnInterrupt: false) { Glibc.close(descriptor) }.failure
    }

    /// `read` into `buffer`: the bytes read (0 at the end), or the errno.
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Result<Int, Failure> {
        valueOrErrno { Glibc.read(descriptor, buffer, count) }
    }

    /// `write` from `buffer`: the bytes written, or the errno.
    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Result<Int, Failure> {
        valueOrErrno { Glibc.write(descriptor, buffer, count) }
    }
}

extension Result {
    /// The error of a failed result, or nil.
    package var failure: Failure? {
        if case let .failure(error) = self { return error }
        return nil
    }
}
