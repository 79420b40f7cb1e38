import Glibc

/// A mutual-exclusion lock for state its owner keeps itself, shared by threads (flite, the runner's progress).
///
/// A pthread mutex rather than Synchronization's `Mutex`: ThreadSanitizer intercepts pthread mutexes, but
/// not the futex `Mutex` uses on Linux, so it reported locked updates as races (two export threads' manifest
/// updates; two speakers' use of flite's cache).
public final class Lock: @unchecked Sendable {
    // @unchecked: its one stored property is a pointer to the mutex, set once; the mutex is what makes sharing it
    // safe, and the compiler cannot see into a C primitive.
    /// Heap storage: a pthread mutex must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock.
    public func withLock<Result: ~Copyable, Failure: Error>(_ body: () throws(Failure) -> sending Result) throws(Failure) -> sending Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Takes the lock (for `Locked`, whose typed and `sending` signature a closure through `withLock` would lose).
    func lock() { pthread_mutex_lock(mutex) }

    /// Gives the lock back.
    func unlock() { pthread_mutex_unlock(mutex) }
}
