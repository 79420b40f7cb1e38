/// A value guarded by a `Lock` (a pthread mutex), used as Synchronization's `Mutex` is (`withLock { $0… }`): the
/// one place that holds shared mutable state for the threads of an export, a server or a C library's one instance.
///
/// Not `Mutex` itself: ThreadSanitizer intercepts pthread mutexes, but not the futex `Mutex` uses on Linux, so it
/// reports every guarded access as a race (see `Lock`). Like `Mutex`, it takes any value, noncopyable and
/// non-`Sendable` too (flite's voices, raw pointers into C): the value is handed in once (`sending`), reached only
/// under the lock through `inout sending`, and what leaves it leaves as `sending` (disconnected from it, or
/// `Sendable`), so the compiler checks that no reference into it escapes the lock.
///
/// `@unchecked` here alone, so that the types that keep their state in a `Locked` are checked `Sendable`: the
/// compiler cannot see that the lock serialises every access to `value`; `withLock` is the only access.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ initialValue: consuming sending Value) {
        value = initialValue
    }

    /// Runs `body` with the value, while holding the lock.
    public func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
