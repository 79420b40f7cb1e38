import NagiTestSupport
import Foundation
import Testing

@testable import Resampling

@Suite struct ResamplerTests {
    /// A 997 Hz sine at each rate, resampled to 48 kHz, is the same sine: its frequency, its length, and (away
    /// from the ends, where the filter rings) each sample against the ideal sine at the new rate. Measured: within
    /// 4e-7 of the ideal sine (−128 dB) from 16, 22.05, 44.1 and 96 kHz, 997.000 Hz, the exact length.
    @Test(arguments: [16_000, 22_050, 44_100, 96_000])
    func sineKeepsItsFrequencyLengthAndPhase(inputRate: Int) throws {
        let seconds = 2.0
        let input = Signal.sine(frequencyHz: 997, amplitude: 0.5, frameCount: Int(seconds * Double(inputRate)), sampleRate: inputRate)
        let output = try Resampler.resample(input, channelCount: 1, from: inputRate, to: 48_000)
        let expectedFrames = Int((Double(input.count) * 48_000 / Double(inputRate)).rounded())
        #expect(output.count == expectedFrames)
        #expect(output.allSatisfy { $0.isFinite })
        let inner = 4_800..<(output.count - 4_800)
        let frequency = Signal.frequency(output, inner, sampleRate: 48_000)
        #expect(abs(frequency - 997) < 0.01, "\(frequency) Hz")
        let ideal = Signal.sine(frequencyHz: 997, amplitude: 0.5, frameCount: output.count, sampleRate: 48_000)
        let largestError = inner.map { abs(output[$0] - ideal[$0]) }.max() ?? 1
        #expect(largestError < 1e-5, "\(largestError)")
    }

    @Test func stereoChannelsStayApart() throws {
        let left = Signal.sine(frequencyHz: 440, amplitude: 0.5, frameCount: 44_100, sampleRate: 44_100)
        let right = Signal.sine(frequencyHz: 1_320, amplitude: 0.25, frameCount: 44_100, sampleRate: 44_100)
        let output = try Resampler.resample(Signal.interleave([left, right]), channelCount: 2, from: 44_100, to: 48_000)
        #expect(output.count == 2 * 48_000)
        let outLeft = Signal.channel(output, 0, of: 2)
        let outRight = Signal.channel(output, 1, of: 2)
        let inner = 4_800..<43_200
        #expect(abs(Signal.amplitude(outLeft, inner, frequencyHz: 440, sampleRate: 48_000) - 0.5) < 0.005)
        #expect(abs(Signal.amplitude(outRight, inner, frequencyHz: 1_320, sampleRate: 48_000) - 0.25) < 0.005)
        // No crosstalk: each channel holds under −80 dB of the other's tone.
        #expect(Signal.amplitude(outLeft, inner, frequencyHz: 1_320, sampleRate: 48_000) < 0.5e-4)
        #expect(Signal.amplitude(outRight, inner, frequencyHz: 440, sampleRate: 48_000) < 0.5e-4)
    }

    /// Content above the new Nyquist frequency is filtered out, not folded back.
    @Test func downsamplingRemovesWhatCannotBeKept() throws {
        let input = Signal.sine(frequencyHz: 15_000, amplitude: 0.5, frameCount: 48_000, sampleRate: 48_000)
        let output = try Resampler.resample(input, channelCount: 1, from: 48_000, to: 16_000)
        #expect(output.count == 16_000)
        // 15 kHz would alias to 1 kHz at 16 kHz.
        #expect(Signal.amplitude(output, 1_600..<14_400, frequencyHz: 1_000, sampleRate: 16_000) < 1e-4)
        #expect(Signal.rmsDecibels(output, 1_600..<14_400) < -80)
    }

    @Test func streamInIrregularBlocksEqualsOneShot() throws {
        let input = Signal.interleave([
            Signal.sine(frequencyHz: 300, amplitude: 0.4, frameCount: 50_000, sampleRate: 22_050),
            Signal.sine(frequencyHz: 5_000, amplitude: 0.3, frameCount: 50_000, sampleRate: 22_050),
        ])
        let oneShot = try Resampler.resample(input, channelCount: 2, from: 22_050, to: 48_000)
        let stream = try StreamingResampler(channelCount: 2, inputRate: 22_050, outputRate: 48_000)
        var streamed: [Float] = []
        let blockFrames = [1, 7, 1_000, 4_096, 13, 20_000, 3]
        var start = 0
        var blockIndex = 0
        try input.withUnsafeBufferPointer { all in
            while start < input.count {
                let end = min(input.count, start + 2 * blockFrames[blockIndex % blockFrames.count])
                try stream.process(UnsafeBufferPointer(rebasing: all[start..<end]), appendingTo: &streamed)
                start = end
                blockIndex += 1
            }
        }
        try stream.finish(appendingTo: &streamed)
        // The stream gives the one-shot's frames, within a couple of frames of its exact length.
        #expect(abs(streamed.count - oneShot.count) <= 2 * 2, "\(streamed.count / 2) vs \(oneShot.count / 2) frames")
        let common = min(streamed.count, oneShot.count)
        let largestDifference = (0..<common).map { abs(streamed[$0] - oneShot[$0]) }.max() ?? 1
        #expect(largestDifference < 1e-5, "\(largestDifference)")
    }

    @Test func resetStartsAFreshSignal() throws {
        let input = Signal.sine(frequencyHz: 700, amplitude: 0.5, frameCount: 10_000, sampleRate: 44_100)
        let stream = try StreamingResampler(channelCount: 1, inputRate: 44_100, outputRate: 48_000)
        var first: [Float] = []
        try input.withUnsafeBufferPointer { try stream.process($0, appendingTo: &first) }
        try stream.finish(appendingTo: &first)
        try stream.reset()
        var second: [Float] = []
        try input.withUnsafeBufferPointer { try stream.process($0, appendingTo: &second) }
        try stream.finish(appendingTo: &second)
        #expect(first == second)
    }

    @Test func sameRateGivesTheSamplesBack() throws {
        let input = Signal.sine(frequencyHz: 440, amplitude: 0.5, frameCount: 1_000, sampleRate: 48_000)
        #expect(try Resampler.resample(input, channelCount: 1, from: 48_000, to: 48_000) == input)
    }

    @Test func impossibleRatesAndChannelCountsAreRefused() {
        #expect(throws: ResamplingError.unsupported("0 Hz (1 Hz to 1 MHz)")) {
            try Resampler.resample([0], channelCount: 1, from: 0, to: 48_000)
        }
        #expect(throws: ResamplingError.unsupported("9 channels (1 to 8)")) {
            try StreamingResampler(channelCount: 9, inputRate: 44_100, outputRate: 48_000)
        }
    }
}
