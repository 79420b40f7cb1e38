import Glibc
import Locking

/// Runs independent jobs on a fixed number of threads, keeping results in input order (the loudness pass's
/// halves, a course export's tracks), or workers beside the calling thread (a sliced write's renderers).
package enum ParallelRunner {
    /// Runs `work` for every item on at most `jobs` threads: the calling thread and `jobs − 1` more.
    ///
    /// Plain pthreads that the caller works alongside and then joins, not a dispatch queue and a wait: the
    /// caller's thread is the one Ctrl-C reaches (dispatch's workers block signals), and a thread parked in
    /// a dispatch wait never runs a handler that ThreadSanitizer deferred, so an export under TSan ignored
    /// Ctrl-C until it finished. Rendering or joining, the caller is always somewhere a handler runs.
    package static func run<Item: Sendable, Output: Sendable>(_ items: [Item], jobs: Int, work: @escaping @Sendable (Item) -> Output) -> [Output] {
        let results = ResultSlots<Output>(count: items.count)
        let next = Counter()
        let drain: @Sendable () -> Void = {
            while let index = next.take(below: items.count) {
                results.set(index, work(items[index]))
            }
        }
        // Fewer threads only means a slower export: the caller still drains every item.
        let threads = start(count: max(1, min(jobs, items.count)) - 1) { _ in drain() }
        drain()
        join(threads)
        return results.values()
    }

    /// Runs `worker(0)` … `worker(workerCount − 1)` on threads of their own while the calling thread runs
    /// `caller`, and returns once all have returned: a pipeline whose consumer must be the caller's thread
    /// (the one a signal handler runs on). `caller` is told how many workers started: fewer when
    /// pthread_create failed, and it must not wait for work of one that never ran.
    package static func runBeside(
        workerCount: Int, worker: @escaping @Sendable (Int) -> Void, caller: (_ startedWorkers: Int) -> Void
    ) {
        let threads = start(count: workerCount, worker)
        caller(threads.count)
        join(threads)
    }

    /// Runs each of `jobs` on a thread of its own while the calling thread runs `caller`, and returns the jobs'
    /// outputs in order once all have returned (a job whose thread could not be started runs on the calling
    /// thread first, before `caller`).
    ///
    /// The jobs are handed over (`sending`): each, with what it holds (a decoder, a bed reader: things of one
    /// owner, not `Sendable`), belongs to its thread alone until the join, and then, with what it made, to the
    /// caller again. The compiler checks that the caller keeps nothing of theirs meanwhile, so `caller` (which can
    /// hold what is not `Sendable`, a progress callback) runs beside them without sharing anything but what is
    /// `Sendable`.
    package static func run<Output>(handingOver jobs: sending [() -> Output], beside caller: () -> Void) -> sending [Output] {
        let slots = jobs.map(JobSlot.init)
        var threads: [pthread_t] = []
        for slot in slots {
            if let thread = startThread(slot.run) {
                threads.append(thread)
            } else {
                slot.run()
            }
        }
        caller()
        join(threads)
        return slots.compactMap(\.output)
    }

    /// A job handed to a thread, and what it made once it returned.
    private final class JobSlot<Output> {
        private let job: () -> Output
        /// Set by the job's thread; read after the join.
        private(set) var output: Output?

        init(_ job: @escaping () -> Output) {
            self.job = job
        }

        func run() {
            output = job()
        }
    }

    /// Starts up to `count` threads running `body(index)`; those pthread_create refused are skipped.
    static func start(count: Int, _ body: @escaping @Sendable (Int) -> Void) -> [pthread_t] {
        var threads: [pthread_t] = []
        for _ in 0..<max(0, count) {
            let index = threads.count
            if let thread = startThread({ body(index) }) { threads.append(thread) }
        }
        return threads
    }

    /// Starts a thread running `body`, nil when pthread_create refused. `body` crosses to the thread through a
    /// C pointer, unseen by the compiler: callers hand it over (`@Sendable`, or `sending` as `run(handingOver:)`).
    private static func startThread(_ body: @escaping () -> Void) -> pthread_t? {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    /// Waits for every thread of `threads` to end.
    static func join(_ threads: [pthread_t]) {
        for thread in threads {
            pthread_join(thread, nil)
        }
    }

    /// Runs `work` for every item as `run(_:jobs:work:)` does, each job reporting its progress through the
    /// function it is given; the reports reach `progress` one at a time (under the runner's lock, so its
    /// receiver needs none), with the item's index and the fraction, and nil once the item's work returned.
    package static func run<Item: Sendable, Output: Sendable>(
        _ items: [Item], jobs: Int, progress: @escaping @Sendable (_ index: Int, _ fraction: Double?) -> Void,
        work: @escaping @Sendable (Item, _ report: (Double) -> Void) -> Output
    ) -> [Output] {
        let lock = Lock()
        let indexed = items.enumerated().map { IndexedItem(index: $0.offset, item: $0.element) }
        return run(indexed, jobs: jobs) { entry -> Output in
            let output = work(entry.item) { fraction in lock.withLock { progress(entry.index, fraction) } }
            lock.withLock { progress(entry.index, nil) }
            return output
        }
    }

    /// An item and its place in the input.
    private struct IndexedItem<Item: Sendable>: Sendable {
        var index: Int
        var item: Item
    }

    /// A thread's work, passed through pthread_create's context pointer.
    private final class Job {
        let body: () -> Void

        init(_ body: @escaping () -> Void) {
            self.body = body
        }
    }

    /// A shared index dispenser.
    private final class Counter: Sendable {
        private let value = Locked(0)

        func take(below limit: Int) -> Int? {
            value.withLock { value in
                guard value < limit else { return nil }
                value += 1
                return value - 1
            }
        }
    }

    /// Results written by several threads, read once all are done.
    private final class ResultSlots<Output: Sendable>: Sendable {
        private let slots: Locked<[Output?]>

        init(count: Int) {
            slots = Locked(Array(repeating: nil, count: count))
        }

        func set(_ index: Int, _ value: Output) {
            slots.withLock { $0[index] = value }
        }

        func values() -> [Output] {
            slots.withLock { $0.compactMap { $0 } }
        }
    }
}
