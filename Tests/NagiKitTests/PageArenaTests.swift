import Foundation
@testable import NagiKit
import NagiTestSupport
import Synth
import Testing

/// A plan's tables and a write's slice buffers in huge-page mappings: the memory handed out is the caller's alone,
/// and a plan compiled into it sounds as one compiled on the heap.
@Suite("NagiKit: plan tables and slice buffers in huge-page memory")
struct PageArenaTests {
    @Test("every allocation is 64-byte aligned and its own: 300 of random sizes, from 1 byte to past a mapping, each filled and read back")
    func allocationsAreAlignedAndDisjoint() throws {
        let arena = PageArena()
        var generator = SeededGenerator(seed: 5)
        var allocations: [(allocation: TableAllocation, byteCount: Int)] = []
        for index in 0..<300 {
            // Mostly small, some around a mapping's size and one over it, so fresh mappings are started mid-way.
            let byteCount = switch index {
            case 150: PageArena.mappingByteCount + 12_345
            case _ where index % 50 == 7: Int.random(in: (1 << 20)...(3 << 20), using: &generator)
            default: Int.random(in: 1...70_000, using: &generator)
            }
            let allocation = arena.allocate(byteCount: byteCount)
            #expect(Int(bitPattern: allocation.start) % 64 == 0, "allocation \(index) at \(allocation.start)")
            allocation.start.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index &* 37 &+ 1), count: byteCount)
            allocations.append((allocation, byteCount))
        }
        // A later allocation overlapping an earlier one would have overwritten some of its bytes.
        for (index, entry) in allocations.enumerated() {
            let expected = UInt8(truncatingIfNeeded: index &* 37 &+ 1)
            let bytes = UnsafeBufferPointer(start: entry.allocation.start.assumingMemoryBound(to: UInt8.self), count: entry.byteCount)
            #expect(bytes.allSatisfy { $0 == expected }, "allocation \(index) of \(entry.byteCount) bytes was overwritten")
        }
    }

    @Test("a mapping is zeroed, starts on a huge page's boundary and covers whole huge pages")
    func mappingIsWholeAlignedPages() throws {
        let mapping = try #require(PageMapping(byteCount: 3 << 20))
        #expect(Int(bitPattern: mapping.start) % PageMapping.hugePageByteCount == 0)
        #expect(mapping.byteCount == 4 << 20)
        let bytes = UnsafeBufferPointer(start: mapping.start.assumingMemoryBound(to: UInt8.self), count: mapping.byteCount)
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test("a prepared soundtrack's plan (tables in huge-page memory) renders the samples of a plan compiled on the heap",
          arguments: KitFixtures.soundscapeNames)
    func arenaPlanSoundsAsHeapPlan(soundscapeName: String) throws {
        // Chimes, ticks and a countdown's tables beside the noise loops: a dozen tables packed into the mapping.
        let request = SoundtrackRequest(
            schedule: try KitFixtures.schedule("box", cycles: 1), soundscape: try BuiltinLibrary.soundscape(named: soundscapeName),
            guide: .init(cues: .both, count: .ticks, countdownSeconds: 3, endBell: true))
        let soundtrack = try Soundtrack.prepare(request)
        let heapPlan = RenderPlan(schedule: soundtrack.schedule, settings: soundtrack.settings)
        #expect(!heapPlan.sharesTables(with: soundtrack.plan))
        let fromArena = KitFixtures.renderToEnd(try soundtrack.makeRenderer())
        let reference = Renderer(plan: heapPlan)
        var fromHeap = [Float](repeating: 0, count: fromArena.count)
        fromHeap.withUnsafeMutableBufferPointer { reference.render(into: $0, frameCount: Int(heapPlan.totalFrameCount)) }
        let firstDifference = zip(fromArena, fromHeap).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "\(soundscapeName): differs at sample \(firstDifference ?? -1)")
        #expect(KitFixtures.rms(fromArena[...]) > 0.01, "the render holds sound")
    }
}
