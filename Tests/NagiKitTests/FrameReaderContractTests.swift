import NagiTestSupport
import Testing
import NagiKit

/// `FrameReader`'s contract as the soundtrack renderer and the bed reader keep it: reads give the frames renders
/// give, shorten only at the end, and a seek lands where reads from frame 0 would have been.
@Suite("NagiKit: the frame readers keep FrameReader's contract")
struct FrameReaderContractTests {
    /// Every frame `reader` gives, in reads of `blockFrames`, with the frame counts each read returned.
    static func readAll<Reader: FrameReader<Never>>(_ reader: Reader, blockFrames: Int) -> (samples: [Float], counts: [Int]) {
        var samples: [Float] = []
        var counts: [Int] = []
        var block = [Float](repeating: 0, count: blockFrames * reader.channelCount)
        while true {
            let got = block.withUnsafeMutableBufferPointer { reader.read(into: $0) }
            counts.append(got)
            samples += block[0..<(got * reader.channelCount)]
            if got < blockFrames { break }
        }
        return (samples, counts)
    }

    @Test("the renderer's reads are its render, the last one short and then none, ending at frameCount")
    func rendererReads() throws {
        let soundtrack = try Soundtrack.prepare(SoundtrackRequest(schedule: try KitFixtures.schedule(), soundscape: try BuiltinLibrary.soundscape(named: "horizon")))
        let rendered = KitFixtures.renderToEnd(try soundtrack.makeRenderer(), blockFrames: 4096)
        let reader = try soundtrack.makeRenderer()
        let total = try #require(reader.frameCount)
        #expect(total == reader.totalFrameCount)
        let blockFrames = 7_001
        #expect(total % Int64(blockFrames) != 0, "the last read must be a short one")
        let (samples, counts) = Self.readAll(reader, blockFrames: blockFrames)
        let same = samples == rendered
        #expect(same, "\(samples.count) read against \(rendered.count) rendered samples")
        #expect(counts.dropLast().allSatisfy { $0 == blockFrames })
        #expect(counts.last == Int(total % Int64(blockFrames)))
        #expect(reader.nextFrame == total)
        var tail = [Float](repeating: 1, count: 64 * reader.channelCount)
        #expect(tail.withUnsafeMutableBufferPointer { reader.read(into: $0) } == 0, "nothing past the end")
    }

    @Test("a bed reader sought to a frame mid-pass reads on with the frames reads from its start give there",
          arguments: [BedReader.ReadAhead.none, .decodeAndResample], [1, 12_345, 200_003])
    func bedReaderSeeks(readAhead: BedReader.ReadAhead, target: Int64) throws {
        let folder = try TemporaryFolder()
        let bed = try KitFixtures.writeBed(in: folder, seconds: 7.3)
        let straight = try BedReader(path: bed, sampleRate: 48_000, channelCount: 2, readAhead: readAhead)
        let (reference, _) = Self.readAll(straight, blockFrames: 4_096)
        let sought = try BedReader(path: bed, sampleRate: 48_000, channelCount: 2, readAhead: readAhead)
        // Read part of the way first: a seek from mid-pass (forward or back) must not depend on where it was.
        var scratch = [Float](repeating: 0, count: 100_000 * 2)
        _ = scratch.withUnsafeMutableBufferPointer { sought.read(into: $0) }
        sought.seek(toFrame: target)
        #expect(sought.nextFrame == target)
        let (after, _) = Self.readAll(sought, blockFrames: 3_000)
        let expected = Array(reference[Int(target) * 2..<reference.count])
        let same = after == expected
        #expect(same, "\(after.count) samples after the seek against \(expected.count)")
        #expect(sought.failure == nil)
    }
}
