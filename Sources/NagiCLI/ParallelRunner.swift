import Dispatch

/// Runs independent jobs on a fixed number of threads, keeping results in input order.
enum ParallelRunner {
    /// Runs `work` for every item on at most `jobs` threads.
    static func run<Item: Sendable, Output: Sendable>(_ items: [Item], jobs: Int, work: @escaping @Sendable (Item) -> Output) -> [Output] {
        let results = ResultSlots<Output>(count: items.count)
        let next = Counter()
        let group = DispatchGroup()
        let threadCount = max(1, min(jobs, items.count))
        for _ in 0..<threadCount {
            DispatchQueue.global().async(group: group) {
                while let index = next.take(below: items.count) {
                    results.set(index, work(items[index]))
                }
            }
        }
        group.wait()
        return results.values()
    }

    /// A shared index dispenser.
    private final class Counter: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0

        func take(below limit: Int) -> Int? {
            lock.withLock {
                guard value < limit else { return nil }
                value += 1
                return value - 1
            }
        }
    }

    /// Results written by several threads, read once all are done.
    private final class ResultSlots<Output>: @unchecked Sendable {
        private let lock = Lock()
        private var slots: [Output?]

        init(count: Int) {
            slots = Array(repeating: nil, count: count)
        }

        func set(_ index: Int, _ value: Output) {
            lock.withLock { slots[index] = value }
        }

        func values() -> [Output] {
            lock.withLock { slots.compactMap { $0 } }
        }
    }
}
