import NagiBase
@testable import Synth
import Testing

/// `BedVoice.nextFrames` and `mix`: the bed's frames scaled by the block's gain ramp and added to the mix, sample for sample the
/// plain expression `output + bed × (value + offset × slope)`, whether the frames are read or lie in place.
@Suite("The bed voice's mix")
struct BedVoiceTests {
    /// Frames whose every sample is distinct (left and right apart), read into a buffer or, when `inPlace`,
    /// handed where they lie.
    final class DistinctFrames: FrameReader {
        let channelCount = 2
        let sampleRate = 48_000
        let frameCount: Int64? = nil
        var nextFrame: Int64 { Int64(position) }
        let samples: [Float]
        /// The same samples at an address that stays put, to hand out in place.
        private let storage: UnsafeMutableBufferPointer<Float>
        let inPlace: Bool
        private var position = 0

        init(frameCount: Int, inPlace: Bool) {
            samples = (0..<(2 * frameCount)).map { Float($0 % 2 == 0 ? 1 : -1) * (0.1 + Float($0) / Float(4 * frameCount)) }
            storage = .allocate(capacity: samples.count)
            _ = storage.initialize(from: samples)
            self.inPlace = inPlace
        }

        deinit { storage.deallocate() }

        func seek(toFrame frame: Int64) { position = Int(frame) }

        func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
            let frameCount = output.count / 2
            for index in 0..<(2 * frameCount) { output[index] = samples[2 * position + index] }
            position += frameCount
            return frameCount
        }

        func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>? {
            guard inPlace else { return nil }
            defer { position += frameCount }
            return UnsafePointer(storage.baseAddress! + 2 * position)
        }
    }

    @Test("stereo: every sample is output + bed × gain at its frame, in whole blocks and a ragged end", arguments: [64, 63, 5, 1], [false, true])
    func stereoMixIsThePlainExpression(frameCount: Int, inPlace: Bool) {
        let frames = DistinctFrames(frameCount: 64, inPlace: inPlace)
        let voice = BedVoice(frames: frames, channelCount: 2, blockFrames: 64)
        let gain = Ramp(from: 0.2, to: 0.9, frameCount: frameCount)
        let offsets = (0..<64).map(Float.init)
        let before = (0..<(2 * frameCount)).map { Float($0) * 0.01 - 0.3 }
        var output = before
        output.withUnsafeMutableBufferPointer { out in
            offsets.withUnsafeBufferPointer {
                voice.mix(voice.nextFrames(frameCount: frameCount), into: out.baseAddress!, frameCount: frameCount, gain: gain, offsets: $0.baseAddress!)
            }
        }
        var wrong: [Int] = []
        for index in 0..<(2 * frameCount) {
            let expected = before[index] + frames.samples[index] * gain.at(Float(index / 2))
            if output[index].bitPattern != expected.bitPattern { wrong.append(index) }
        }
        #expect(wrong.isEmpty, "samples off the plain expression: \(wrong.prefix(8))")
    }
}
