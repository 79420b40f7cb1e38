import Glibc

/// A lock with a condition variable: threads wait under it until a predicate on the state it guards holds,
/// and whoever changes that state wakes them (a pipeline's producers and its consumer).
///
/// pthread primitives, as `Lock` explains: ThreadSanitizer sees them.
public final class ConditionLock: @unchecked Sendable {
    /// Heap storage: pthread objects must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure on the monotonic clock: a wall-clock step neither stretches nor skips them.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock, then wakes every waiting thread (`body` changed what they wait for).
    public func withLockWakingAll<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Holds the lock, waits (releasing it meanwhile) until `ready()` is true or `timeoutMilliseconds` have
    /// passed, then runs `body` with the lock held and returns its result; `ready` and
    /// `body` see the guarded state consistently. A nil timeout waits as long as it takes.
    ///
    /// `body` runs after a timeout too (with `ready()` false), so a waiter can look at something else (a
    /// cancellation flag) and decide.
    public func waitUntil<Result>(timeoutMilliseconds: Int? = nil, _ ready: () -> Bool, then body: (_ isReady: Bool) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var isReady = ready()
        if !isReady {
            if let timeoutMilliseconds {
                var deadline = timespec()
                clock_gettime(CLOCK_MONOTONIC, &deadline)
                let nanoseconds = Int(deadline.tv_nsec) + timeoutMilliseconds * 1_000_000
                deadline.tv_sec += nanoseconds / 1_000_000_000
                deadline.tv_nsec = nanoseconds % 1_000_000_000
                while !isReady {
                    if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                        isReady = ready()
                        break
                    }
                    isReady = ready()
                }
            } else {
                while !isReady {
                    pthread_cond_wait(condition, mutex)
                    isReady = ready()
                }
            }
        }
        return try body(isReady)
    }
}
