import Glibc

/// A lock with condition variables: threads wait under it until a predicate on the state it guards holds,
/// and whoever changes that state wakes them (a pipeline's producers and its consumer).
///
/// Threads that wait for different things can wait on conditions of their own (`conditionCount`), so a change
/// wakes only those it concerns: a thread woken for nothing costs two context switches, which a pipeline that
/// hands over a slice every millisecond or so pays for every slice.
///
/// pthread primitives, as `Lock` explains: ThreadSanitizer sees them.
public final class ConditionLock: @unchecked Sendable {
    // @unchecked: its stored properties are pointers to the pthread objects and their count, set once; the mutex
    // and conditions are what make sharing it safe, and the compiler cannot see into C primitives.
    /// Heap storage: pthread objects must not move once initialised.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let conditions: UnsafeMutablePointer<pthread_cond_t>
    private let conditionCount: Int

    /// A lock with `conditionCount` conditions (at least one), numbered from 0.
    public init(conditionCount: Int = 1) {
        self.conditionCount = max(1, conditionCount)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        conditions = .allocate(capacity: self.conditionCount)
        conditions.initialize(repeating: pthread_cond_t(), count: self.conditionCount)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Timed waits measure on the monotonic clock: a wall-clock step neither stretches nor skips them.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        for index in 0..<self.conditionCount { pthread_cond_init(conditions + index, &attributes) }
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        for index in 0..<conditionCount { pthread_cond_destroy(conditions + index) }
        conditions.deinitialize(count: conditionCount)
        conditions.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` while holding the lock, then wakes every waiting thread (`body` changed what they wait for).
    public func withLockWakingAll<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            for index in 0..<conditionCount { pthread_cond_broadcast(conditions + index) }
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Runs `body` while holding the lock, then wakes the threads waiting on `condition` (`body` changed what
    /// they, and only they, wait for).
    public func withLock<Result>(waking condition: Int, _ body: () throws -> Result) rethrows -> Result {
        precondition((0..<conditionCount).contains(condition), "no condition \(condition)")
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(conditions + condition)
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }

    /// Holds the lock, waits on `condition` (releasing the lock meanwhile) until `ready()` is true or
    /// `timeoutMilliseconds` have passed, then runs `body` with the lock held and returns its result; `ready` and
    /// `body` see the guarded state consistently. A nil timeout waits as long as it takes.
    ///
    /// `body` runs after a timeout too (with `ready()` false), so a waiter can look at something else (a
    /// cancellation flag) and decide.
    public func waitUntil<Result>(
        on condition: Int = 0, timeoutMilliseconds: Int? = nil, _ ready: () -> Bool, then body: (_ isReady: Bool) throws -> Result
    ) rethrows -> Result {
        precondition((0..<conditionCount).contains(condition), "no condition \(condition)")
        let condition = conditions + condition
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
