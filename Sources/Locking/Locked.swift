/// A value guarded by a `Lock` (a pthread mutex), used as Synchronization's `Mutex` is (`withLock { $0… }`): the
/// one place that holds shared mutable state for the threads of an export or a server.
///
/// Not `Mutex` itself: ThreadSanitizer intercepts pthread mutexes, but not the futex `Mutex` uses on Linux, so it
/// reports every guarded access as a race (see `Lock`). `@unchecked` here alone, so that the types that keep their
/// state in a `Locked` are checked `Sendable`: every access to the value is under the lock, and the value never
/// escapes it but as a copy (`Value` is `Sendable`).
public final class Locked<Value>: @unchecked Sendable where Value: Sendable {
    private let lock = Lock()
    private var value: Value

    public init(_ initialValue: Value) {
        value = initialValue
    }

    /// Runs `body` with the value, while holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
