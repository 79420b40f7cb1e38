import Foundation
import Loudness
import LoudnessReference
import NagiTestSupport
import Testing

/// nagi's own gated loudness meter (the gain tags') against libebur128 on the same signals: noise whose level
/// steps (so both gates matter), a low and a high tone, mono and stereo, from 8 to 192 kHz, fed in odd pieces.
@Suite struct GatedLoudnessMeterTests {
    /// 12 s of interleaved noise and tones: loud for 4 s, 25 dB down for 4 s, then near silence, so the relative
    /// gate drops the quiet stretch and the absolute gate the silence.
    static func signal(sampleRate: Int, channels: Int) -> [Float] {
        var generator = SeededGenerator(seed: UInt64(sampleRate * channels))
        let frames = 12 * sampleRate
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let seconds = Double(frame) / Double(sampleRate)
            let level = seconds < 4 ? 0.3 : seconds < 8 ? 0.017 : 0.00001
            for channel in 0..<channels {
                let tone = sin(2 * Double.pi * (channel == 0 ? 60 : 3000) * seconds)
                let noise = Double.random(in: -1...1, using: &generator)
                samples[frame * channels + channel] = Float(level * (0.5 * tone + 0.5 * noise))
            }
        }
        return samples
    }

    @Test(arguments: [(8000, 1), (44100, 2), (48000, 2), (11025, 1), (192000, 2)])
    func agreesWithLibebur128(sampleRate: Int, channels: Int) throws {
        let samples = Self.signal(sampleRate: sampleRate, channels: channels)
        let reference = try LoudnessMeter(channelCount: channels, sampleRate: sampleRate, measuresTruePeak: false)
        try reference.add(samples)
        let expected = try reference.integratedLoudness()
        let meter = GatedLoudnessMeter(channelCount: channels, sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { all in
            var done = 0
            var piece = 1
            while done < all.count / channels {
                let frames = min(piece, all.count / channels - done)
                meter.add(UnsafeBufferPointer(rebasing: all[(done * channels)..<((done + frames) * channels)]))
                done += frames
                piece = piece * 7 % 9973 + 1
            }
        }
        #expect(expected.isFinite && expected < -10)
        #expect(abs(meter.integratedLoudness - expected) < 0.01, "\(meter.integratedLoudness) against libebur128's \(expected) LUFS")
    }

    /// The stream cut into slices, each metered from rest on its own (as a sliced write's renderers meter them)
    /// and completed in order by one meter, measures what the whole stream fed in order measures: slices long
    /// and short (shorter than the filter takes to settle, a few frames), at every rate.
    @Test(arguments: [(8000, 1), (44100, 2), (48000, 2), (192000, 2)])
    func slicesMeterAsTheWholeStream(sampleRate: Int, channels: Int) {
        let samples = Self.signal(sampleRate: sampleRate, channels: channels)
        let whole = GatedLoudnessMeter(channelCount: channels, sampleRate: sampleRate)
        samples.withUnsafeBufferPointer { whole.add($0) }
        let sliced = GatedLoudnessMeter(channelCount: channels, sampleRate: sampleRate)
        let slice = sliced.makeSlice()
        let frameCount = samples.count / channels
        let lengths = [1 << 17, 3, 20_000, 1, 50_000, 7]
        samples.withUnsafeBufferPointer { all in
            var done = 0
            var index = 0
            while done < frameCount {
                let frames = min(lengths[index % lengths.count], frameCount - done)
                let part = UnsafeBufferPointer(rebasing: all[(done * channels)..<((done + frames) * channels)])
                slice.measure(part, firstFrame: Int64(done))
                sliced.add(slice, samples: part)
                done += frames
                index += 1
            }
        }
        #expect(whole.integratedLoudness.isFinite)
        // Within a Float step of a few block energies (10⁻⁶ LU); slices whose first frames were weighted from rest
        // without the settling stretch miss by 10⁻⁴ to 10⁻³ LU.
        #expect(abs(sliced.integratedLoudness - whole.integratedLoudness) < 1e-6, "sliced \(sliced.integratedLoudness), whole \(whole.integratedLoudness) LUFS")
    }

    @Test func silenceHasNoLoudness() {
        let meter = GatedLoudnessMeter(channelCount: 2, sampleRate: 48000)
        let silence = [Float](repeating: 0, count: 2 * 48000 * 2)
        silence.withUnsafeBufferPointer { meter.add($0) }
        #expect(meter.integratedLoudness == -.infinity)
    }
}
