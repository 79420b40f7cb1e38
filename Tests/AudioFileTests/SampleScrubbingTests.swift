import Foundation
import NagiTestSupport
import Testing

@testable import AudioFile

@Suite struct SampleScrubbingTests {
    private func roundTrip(_ samples: [Float], encoding: SampleEncoding) throws -> [Float] {
        let folder = try TemporaryFolder()
        let path = folder.file("scrub.wav")
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav, encoding: encoding),
            overwrite: false)
        try writer.write(samples)
        try writer.commit()
        return try AudioFileReader.readFloat(path: path)
    }

    @Test func overRangeClipsInsteadOfWrappingInPCM16() throws {
        let decoded = try roundTrip([1.7, -1.7, 0.5, 1.0, -1.0], encoding: .pcm16)
        let step: Float = 1.0 / 32_768
        #expect(abs(decoded[0] - 1.0) <= step)  // not wrapped to about -0.3
        #expect(decoded[1] == -1.0)
        #expect(decoded[2] == 0.5)
        #expect(abs(decoded[3] - 1.0) <= step)
        #expect(decoded[4] == -1.0)
    }

    /// 16-bit samples round to the nearest step, ties to even, in WAV and FLAC alike (libsndfile's WAV path
    /// rounded down: 0.6 of a step became 0, −0.4 became −1), and saturate at the ends.
    @Test func pcm16RoundsToNearestInWAVAndFLAC() throws {
        let steps: [Float] = [0.6, -2.4, 0.5, 1.5, 2.5, -0.5, -1.5, -0.6, 0.4, -0.4, 100.2, -100.7, 32_766.6, 32_767.4, -32_767.6, -32_768.4, 40_000, -40_000]
        let expected: [Float] = [1, -2, 0, 2, 2, 0, -2, -1, 0, 0, 100, -101, 32_767, 32_767, -32_768, -32_768, 32_767, -32_768]
        let folder = try TemporaryFolder()
        for format in [AudioFileFormat.wav, .flac] {
            let path = folder.file("steps.\(format.fileExtension)")
            let writer = try AudioFileWriter(
                path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: format, encoding: .pcm16),
                overwrite: false)
            try writer.write(steps.map { $0 / 32_768 })
            try writer.commit()
            let decoded = try AudioFileReader.readFloat(path: path).map { $0 * 32_768 }
            #expect(decoded == expected, "\(format)")
        }
    }

    /// The conversion's vector loop (eight samples at a time) and its scalar tail give the same step for every
    /// value: ties, the ends, past them, NaN and the infinities, and random samples, each converted in a batch
    /// and alone (a batch of one takes the tail).
    @Test func pcm16VectorLoopAndTailAgree() {
        var values: [Float] = [0, -0, .nan, -.nan, .infinity, -.infinity, 1, -1, 1.5, -1.5, 3e9, -3e9, .greatestFiniteMagnitude]
        for step in [0.5, 1.5, 2.5, -0.5, -2.5, 32_766.5, 32_767.5, -32_767.5, -32_768.5, 12_345.5] as [Float] { values.append(step / 32_768) }
        var random = SeededGenerator(seed: 7)
        for _ in 0..<4_000 { values.append(Float.random(in: -1.2...1.2, using: &random)) }
        var batch = [Int16](repeating: 99, count: values.count)
        PCM16Conversion.convert(values, count: values.count, into: &batch)
        var alone = [Int16](repeating: 99, count: values.count)
        for index in values.indices {
            var one: Int16 = 99
            PCM16Conversion.convert([values[index]], count: 1, into: &one)
            alone[index] = one
        }
        #expect(batch == alone)
        #expect(Array(batch[0..<13]) == [0, 0, 0, 0, 32_767, -32_768, 32_767, -32_768, 32_767, -32_768, 32_767, -32_768, 32_767])
        #expect(Array(batch[13..<23]) == [0, 2, 2, 0, -2, 32_766, 32_767, -32_768, -32_768, 12_346])
    }

    /// In place, the conversion leaves the same steps at the start of the floats' memory as into a buffer of its
    /// own: the vector loop and the tail (every count from 0 to 40), NaN, the infinities and random samples; the
    /// float after them is left as it was.
    @Test func pcm16InPlaceEqualsIntoABuffer() {
        var random = SeededGenerator(seed: 11)
        var values: [Float] = [.nan, -.infinity, .infinity, 1, -1, 0.5 / 32_768, 1.5 / 32_768, -32_768.5 / 32_768]
        for _ in 0..<1_000 { values.append(Float.random(in: -1.2...1.2, using: &random)) }
        for count in Array(0...40) + [values.count] {
            let source = Array(values.prefix(count))
            var expected = [Int16](repeating: 0, count: count)
            PCM16Conversion.convert(source, count: count, into: &expected)
            var samples = source + [0.75]
            samples.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                PCM16Conversion.convertInPlace(base, count: count)
            }
            let converted = samples.withUnsafeBytes { bytes in (0..<count).map { bytes.load(fromByteOffset: 2 * $0, as: Int16.self) } }
            #expect(converted == expected, "\(count) samples")
            #expect(samples[count] == 0.75)
        }
    }

    /// A block written as floats and one written as floats then samples converted ahead make the same file, byte
    /// for byte, in WAV, FLAC and raw, wherever the block is split between the two and whatever its length (one
    /// libsndfile chunk of 131 072 samples, or more).
    @Test(arguments: [AudioFileFormat.wav, .flac, .raw])
    func convertedAheadWritesTheSameBytes(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder()
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: format, encoding: .pcm16)
        let frames = 70_000
        let signal = TestSignal.sine(frames: frames, channelCount: 2, sampleRate: 48_000).map { $0 * 1.3 }
        let plain = folder.file("plain.\(format.fileExtension)")
        let floats = try AudioFileWriter(path: plain, spec: spec, overwrite: false)
        #expect(floats.takesConvertedPCM16)
        for block in stride(from: 0, to: frames, by: 8_192) {
            try Array(signal[(2 * block)..<(2 * min(frames, block + 8_192))]).withUnsafeBufferPointer { try floats.write($0) }
        }
        try floats.commit()
        for split in [0, 1, 4_100, 8_192, 65_536, frames] {
            let path = folder.file("split-\(split).\(format.fileExtension)")
            let writer = try AudioFileWriter(path: path, spec: spec, overwrite: false)
            for block in stride(from: 0, to: frames, by: 8_192) {
                let end = min(frames, block + 8_192)
                let floatEnd = min(end, max(block, split))
                var converted = Array(signal[(2 * floatEnd)..<(2 * end)])
                converted.withUnsafeMutableBufferPointer { buffer in
                    if let base = buffer.baseAddress { PCM16Conversion.convertInPlace(base, count: buffer.count) }
                }
                let head = Array(signal[(2 * block)..<(2 * floatEnd)])
                try head.withUnsafeBufferPointer { head in
                    try converted.withUnsafeBytes { bytes in
                        guard let start = bytes.baseAddress else { return try writer.write(head) }
                        try writer.write(head, thenConverted: start, count: 2 * (end - floatEnd))
                    }
                }
            }
            try writer.commit()
            #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: plain), "split at \(split)")
        }
        // One call longer than a libsndfile chunk: 70 000 frames (140 000 samples), the first 1 000 as floats.
        let whole = folder.file("whole.\(format.fileExtension)")
        let one = try AudioFileWriter(path: whole, spec: spec, overwrite: false)
        var converted = Array(signal[2_000...])
        converted.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { PCM16Conversion.convertInPlace(base, count: buffer.count) }
        }
        try Array(signal[..<2_000]).withUnsafeBufferPointer { head in
            try converted.withUnsafeBytes { bytes in
                guard let start = bytes.baseAddress else { return }
                try one.write(head, thenConverted: start, count: signal.count - 2_000)
            }
        }
        try one.commit()
        let wholeFloats = folder.file("whole-floats.\(format.fileExtension)")
        let reference = try AudioFileWriter(path: wholeFloats, spec: spec, overwrite: false)
        try signal.withUnsafeBufferPointer { try reference.write($0) }
        try reference.commit()
        #expect(FileManager.default.contents(atPath: whole) == FileManager.default.contents(atPath: wholeFloats))
    }

    @Test func overRangeClipsInPCM24() throws {
        let decoded = try roundTrip([1.7, -1.7], encoding: .pcm24)
        #expect(decoded[0] > 0.9999 && decoded[0] <= 1.0)
        #expect(decoded[1] == -1.0)
    }

    @Test(arguments: [SampleEncoding.pcm16, .float])
    func nanBecomesSilenceAndInfinityFullScale(encoding: SampleEncoding) throws {
        var samples: [Float] = [0.25, .nan, 0.25, .infinity, -.infinity, -.nan, 0.125]
        samples += TestSignal.sine(frames: 10_000, channelCount: 1, sampleRate: 48_000)
        let original = samples
        let decoded = try roundTrip(samples, encoding: encoding)
        #expect(decoded.allSatisfy { $0.isFinite })
        #expect(decoded[1] == 0)
        #expect(decoded[5] == 0)
        #expect(decoded[3] > 0.9999)
        #expect(decoded[4] == -1)
        #expect(decoded[0] == 0.25 && decoded[6] == 0.125)
        #expect(decoded.count == samples.count)
        // The caller's buffer is left as it was.
        #expect(samples[1].isNaN && samples[3] == .infinity)
        #expect(zip(samples, original).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) })
    }

    @Test func nanInLossyFormatsNeverReachesTheEncoder() throws {
        let folder = try TemporaryFolder()
        var samples = TestSignal.sine(frames: 48_000, channelCount: 1, sampleRate: 48_000)
        for index in stride(from: 0, to: samples.count, by: 97) { samples[index] = .nan }
        for format in [AudioFileFormat.ogg, .opus, .mp3, .flac] {
            let path = folder.file("nan.\(format.fileExtension)")
            let writer = try AudioFileWriter(
                path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: format),
                overwrite: false)
            try writer.write(samples)
            try writer.commit()
            let decoded = try AudioFileReader.readFloat(path: path)
            #expect(decoded.allSatisfy { $0.isFinite && abs($0) < 1.5 }, "\(format)")
            #expect(Signal.rms(decoded) > 0.2, "\(format)")
        }
    }
}
