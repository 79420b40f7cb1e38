import BedSource
import Foundation
import NagiBase
import Testing
@testable import NagiKit

/// A stereo source at the session's rate that hands out a ramp (frame n holds n, n) and, until `release`, holds
/// every read after the first: a decoder stalled on a slow disk.
private final class StallingSource: FrameReader, @unchecked Sendable {
    let channelCount = 2
    let sampleRate = 48_000
    let frameCount: Int64? = nil
    var nextFrame: Int64 { Int64(position) }
    private let gate = DispatchSemaphore(value: 0)
    private var position = 0
    private var reads = 0

    func release() {
        gate.signal()
    }

    func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int {
        reads += 1
        if reads == 2 { gate.wait() }
        let frames = output.count / channelCount
        for frame in 0..<frames {
            output[2 * frame] = Float(position + frame)
            output[2 * frame + 1] = Float(position + frame)
        }
        position += frames
        return frames
    }

    func seek(toFrame frame: Int64) throws(BedStreamError) {
        position = Int(frame)
    }
}

@Suite("NagiKit: a bed read ahead never blocks a real-time reader")
struct BedReadAheadTests {
    @Test("with reads not waiting, a stalled read-ahead gives silence at once, counted, and the bed resumes where it was")
    func realTimeReadsDoNotWait() throws {
        let source = StallingSource()
        let reader = BedReader(stream: source, channelCount: 2, readsAhead: true)
        let blockFrames = BedReadAhead.blockFrames
        var block = [Float](repeating: -1, count: 2 * blockFrames)
        // The first block is there as soon as the producer has read it: wait for it.
        let first = block.withUnsafeMutableBufferPointer { reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(blockFrames * reader.channelCount)])) }
        #expect(first == blockFrames && block[2 * blockFrames - 1] == Float(blockFrames - 1), "the first block is the source's first frames")
        reader.readsWait = false
        // Should the read wait after all, the stall ends in 2 s and the checks below fail instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { source.release() }
        let underrunsBefore = reader.underrunCount
        #expect(underrunsBefore == 0)
        // The producer now stalls inside its second read: a real-time read must come back at once, silent.
        let start = Date()
        let frames = block.withUnsafeMutableBufferPointer { reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(512 * reader.channelCount)])) }
        let elapsed = Date().timeIntervalSince(start)
        #expect(frames == 512, "a real-time read is always whole")
        #expect(block[0..<1024].allSatisfy { $0 == 0 }, "what the read-ahead could not give is silence")
        #expect(reader.underrunCount == underrunsBefore + 1)
        #expect(elapsed < 0.05, "the read took \(elapsed) s")
        // Released, the bed goes on from the frame it had reached: nothing skipped.
        source.release()
        var next: Float = -1
        let resumeDeadline = Date().addingTimeInterval(5)
        while Date() < resumeDeadline {
            _ = block.withUnsafeMutableBufferPointer { reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<reader.channelCount])) }
            if block[0] != 0 { next = block[0]; break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(next == Float(blockFrames), "the bed resumes at the frame after the last one played")
        #expect(reader.failure == nil)
    }

    @Test("with reads waiting (the default), the same source gives every frame in order, never silence")
    func waitingReadsAreExact() throws {
        let source = StallingSource()
        let reader = BedReader(stream: source, channelCount: 2, readsAhead: true)
        #expect(reader.readsWait)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { source.release() }
        var block = [Float](repeating: -1, count: 2 * 10_000)
        let frames = block.withUnsafeMutableBufferPointer { reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(10_000 * reader.channelCount)])) }
        #expect(frames == 10_000)
        #expect((0..<10_000).allSatisfy { block[2 * $0] == Float($0) && block[2 * $0 + 1] == Float($0) })
        #expect(reader.underrunCount == 0)
    }
}
