import Foundation
import Synchronization
import Testing
import NagiKit

@Suite("ParallelRunner: every item once, results in order, really in parallel")
struct ParallelRunnerTests {
    @Test(arguments: [1, 2, 3, 64])
    func everyItemOnceInInputOrder(jobs: Int) {
        let calls = Atomic<Int>(0)
        let items = Array(0..<50)
        let results = ParallelRunner.run(items, jobs: jobs) { item -> Int in
            calls.add(1, ordering: .relaxed)
            return item * item
        }
        #expect(results == items.map { $0 * $0 })
        #expect(calls.load(ordering: .relaxed) == 50)
    }

    @Test func noItemsRunNothing() {
        #expect(ParallelRunner.run([Int](), jobs: 4) { $0 }.isEmpty)
    }

    @Test("two jobs run at the same time: each waits to see the other start")
    func twoJobsOverlap() {
        let started = Atomic<Int>(0)
        let sawBoth = ParallelRunner.run([0, 1], jobs: 2) { _ -> Bool in
            started.add(1, ordering: .sequentiallyConsistent)
            let deadline = Date().addingTimeInterval(10)
            while started.load(ordering: .sequentiallyConsistent) < 2 {
                if Date() > deadline { return false }
                usleep(100)
            }
            return true
        }
        #expect(sawBoth == [true, true])
    }
}
