import Foundation
import NagiTestSupport
@testable import Synth
import Testing

/// `HeldBed`: a recording held in memory, read through cursors at any frame and in reads of any size, gives
/// exactly the frames `BedLoop` gives reading on from frame 0 (seams and every pass after the first included).
@Suite("A held bed's cursors")
struct HeldBedTests {
    static let rate = 16_000

    /// The loop read on from frame 0 by `BedLoop`, `frameCount` frames in reads of `largestRequest`.
    static func loopFrames(_ loop: BedLoop, frameCount: Int, largestRequest: Int, channels: Int) -> [Float] {
        var frames = [Float](repeating: .nan, count: frameCount * channels)
        frames.withUnsafeMutableBufferPointer { output in
            var done = 0
            while done < frameCount {
                let count = min(largestRequest, frameCount - done)
                #expect(loop.read(into: UnsafeMutableBufferPointer(rebasing: output[(done * channels)..<((done + count) * channels)])) == count)
                done += count
            }
        }
        return frames
    }

    @Test("cursors seeking anywhere and reading any size give BedLoop's frames, bit for bit", arguments: [
        // Held by its stated length (9.3 s, a 2 s seam at the end of each pass), stereo and mono.
        (2, Int(9.3 * Double(rate))),
        (1, Int(9.3 * Double(rate))),
        // Shorter than two crossfades: held from the probe, fading over a third of its length.
        (2, Int(2.5 * Double(rate))),
        // Seven frames: a two-frame seam.
        (1, 7),
    ])
    func cursorsMatchTheLoop(channels: Int, recordingFrames: Int) throws {
        let largestRequest = 64
        let recording = SeekTests.ArrayRecording(channelCount: channels, frames: recordingFrames, seed: 5, statesLength: true)
        let loop = BedLoop(recording: recording, sampleRate: Self.rate, largestRequest: largestRequest, heardFrameCount: 60 * Int64(Self.rate))
        let held = try #require(loop.held, "a recording the budget holds is held")
        // At least three passes, so seams between later passes are compared too.
        let frameCount = max(3 * recordingFrames + 100, 4_000)
        let expected = Self.loopFrames(loop, frameCount: frameCount, largestRequest: largestRequest, channels: channels)
        let fade = loop.fadeFrames
        #expect(fade > 0)
        // The seam is really crossfaded: a frame there is not the recording's own (a cursor ignoring it fails).
        let seamFrame = recordingFrames - 1 - fade / 2
        #expect(expected[seamFrame * channels] != recording.samples[seamFrame * channels])

        var generator = SeededGenerator(seed: 11)
        var got = [Float](repeating: 0, count: largestRequest * channels)
        // Half the reads ask for the frames where they lie (`nextFramesInPlace`), read only when they are not in one piece.
        var inPlaceReads = 0
        for _ in 0..<200 {
            let cursor = held.makeCursor()
            var position = Int(generator.next() % UInt64(frameCount - 200))
            cursor.seek(toFrame: Int64(position))
            for _ in 0..<4 {
                let count = 1 + Int(generator.next() % UInt64(largestRequest))
                guard position + count <= frameCount else { break }
                if generator.next() % 2 == 0, let inPlace = cursor.nextFramesInPlace(frameCount: count) {
                    got.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: inPlace, count: count * channels) }
                    inPlaceReads += 1
                } else {
                    let read = got.withUnsafeMutableBufferPointer { cursor.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(count * channels)])) }
                    #expect(read == count, "an endless loop reads all it is asked")
                }
                let want = expected[(position * channels)..<((position + count) * channels)]
                #expect(Array(got[0..<(count * channels)]).map(\.bitPattern) == want.map(\.bitPattern), "frames \(position)..<\(position + count)")
                position += count
            }
        }
        #expect(inPlaceReads > 100 || recordingFrames < largestRequest, "frames in place: \(inPlaceReads) of about 400 reads")
    }

    @Test("a recording as long as the session is streamed, not held")
    func aLongRecordingIsNotHeld() {
        let recording = SeekTests.ArrayRecording(channelCount: 2, frames: 20 * Self.rate, seed: 5, statesLength: true)
        let loop = BedLoop(recording: recording, sampleRate: Self.rate, largestRequest: 64, heardFrameCount: 20 * Int64(Self.rate))
        #expect(loop.held == nil)
    }
}
