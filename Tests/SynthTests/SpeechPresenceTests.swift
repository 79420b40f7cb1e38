import Foundation
import Synth
import Testing

/// What `SpeechPresence` does to a phrase before the renderer scales it by its peak, on a synthetic two-syllable
/// "voice": a 200 Hz fundamental with a 1 kHz partial, the second syllable 20 dB under the first.
struct SpeechPresenceTests {
    static let rate = 48_000
    static let syllableFrames = 9_600

    static func voice() -> [Float] {
        var samples = [Float](repeating: 0, count: 3 * syllableFrames)
        for (syllable, level) in [(0, 1.0), (2, 0.1)] {
            for offset in 0..<syllableFrames {
                let time = Double(offset) / Double(rate)
                let envelope = sin(Double.pi * Double(offset) / Double(syllableFrames))
                let wave = sin(2 * Double.pi * 200 * time) + 0.2 * sin(2 * Double.pi * 1_000 * time)
                samples[syllable * syllableFrames + offset] = Float(0.5 * level * envelope * wave)
            }
        }
        return samples
    }

    @Test func theFundamentalUnderTheToneIsCutAndTheQuietSyllableLifted() {
        let input = Self.voice()
        let output = SpeechPresence.prepared(input, sampleRate: Self.rate)
        #expect(output.count == input.count)
        // Causal: nothing before the input's first sample, which stays the first.
        #expect(output[0] == 0 && input[0] == 0)
        #expect(output.firstIndex { $0 != 0 } == input.firstIndex { $0 != 0 })
        let loud = 2_400..<7_200
        let quiet = (2 * Self.syllableFrames + 2_400)..<(2 * Self.syllableFrames + 7_200)
        func ratioDecibels(_ samples: [Float], _ range: Range<Int>) -> Double {
            20 * log10(SignalAnalysis.amplitude(samples, range, frequencyHz: 200, sampleRate: Self.rate)
                / SignalAnalysis.amplitude(samples, range, frequencyHz: 1_000, sampleRate: Self.rate))
        }
        // The 250 Hz high-pass takes the 200 Hz fundamental down against the 1 kHz partial (second order: −5.4 dB).
        #expect(ratioDecibels(input, loud) - ratioDecibels(output, loud) >= 4.5)
        // The quiet syllable stood 20 dB under the loud one; levelled it stands within 4 dB of it.
        let before = SignalAnalysis.rmsDecibels(input, quiet) - SignalAnalysis.rmsDecibels(input, loud)
        let after = SignalAnalysis.rmsDecibels(output, quiet) - SignalAnalysis.rmsDecibels(output, loud)
        #expect(abs(before + 20) < 0.5)
        #expect(after > -4, "\(after) dB")
    }
}
