import NagiBase
import AudioFile
import NagiTestSupport
import Foundation
import Resampling
import Testing

@testable import BedSource

@Suite struct BedStreamTests {
    private func write(_ path: String, sampleRate: Int, channels: [[Float]], format: AudioFileFormat = .flac) throws {
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: sampleRate, channelCount: channels.count, format: format),
            overwrite: false)
        try Signal.interleave(channels).withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// Everything the stream gives until it runs out, asked for in blocks of `blockFrames`.
    private func drain(_ stream: BedStream, blockFrames: Int) throws -> [Float] {
        var all: [Float] = []
        var block = [Float](repeating: 0, count: blockFrames * stream.channelCount)
        while true {
            let frames = try block.withUnsafeMutableBufferPointer { try stream.read(into: $0) }
            all.append(contentsOf: block[0..<(frames * stream.channelCount)])
            if frames < blockFrames { return all }
        }
    }

    /// A 20 s stereo FLAC at 44.1 kHz streamed to 48 kHz mono gives the whole recording, folded and resampled as
    /// if it had been done at once, with its exact length.
    @Test func streamEqualsTheWholeRecordingResampled() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("bed.flac")
        let left = Signal.sine(frequencyHz: 300, amplitude: 0.5, frameCount: 20 * 44_100, sampleRate: 44_100)
        let right = Signal.sine(frequencyHz: 500, amplitude: 0.5, frameCount: 20 * 44_100, sampleRate: 44_100)
        try write(path, sampleRate: 44_100, channels: [left, right])
        let decoder = try BedDecoder(path: path, channelCount: 1)
        #expect(decoder.frameCount == Int64(20 * 44_100))
        #expect(decoder.sampleRate == 44_100 && decoder.sourceChannelCount == 2)
        let stream = try BedStream(source: decoder, path: path, sampleRate: 48_000)
        let streamed = try drain(stream, blockFrames: 1_000)
        #expect(streamed.count == 20 * 48_000)
        // Both sides are in the mono fold at half their level.
        let inner = 48_000..<(19 * 48_000)
        #expect(abs(Signal.amplitude(streamed, inner, frequencyHz: 300, sampleRate: 48_000) - 0.25) < 0.002)
        #expect(abs(Signal.amplitude(streamed, inner, frequencyHz: 500, sampleRate: 48_000) - 0.25) < 0.002)
        // And sample for sample it is the one-shot resample of the decoded, folded file.
        let decoded = try AudioFileReader.readFloat(path: path)
        let folded = stride(from: 0, to: decoded.count, by: 2).map { (decoded[$0] + decoded[$0 + 1]) / 2 }
        var oneShot = try ResamplerReference.resample(folded, from: 44_100, to: 48_000)
        // Through the DC-blocking high-pass the stream applies, at once.
        var filter = DCBlockingFilter(sampleRate: 48_000, channelCount: 1)
        oneShot.withUnsafeMutableBufferPointer { filter.process($0.baseAddress!, frameCount: $0.count) }
        let largestDifference = zip(streamed, oneShot).map { abs($0 - $1) }.max() ?? 1
        #expect(largestDifference < 1e-5, "\(largestDifference)")
    }

    /// Six channels fold to stereo with the even-numbered ones left and the odd-numbered right, each side the
    /// mean of its three; to mono, all six at a sixth.
    @Test func sixChannelsFoldToStereoAndMono() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("surround.wav")
        let frequencies: [Double] = [200, 400, 600, 800, 1_000, 1_200]
        try write(path, sampleRate: 48_000, channels: frequencies.map {
            Signal.sine(frequencyHz: $0, amplitude: 0.6, frameCount: 48_000, sampleRate: 48_000)
        }, format: .wav)
        let stereo = try drain(BedStream(path: path, sampleRate: 48_000, channelCount: 2), blockFrames: 4_800)
        #expect(stereo.count == 2 * 48_000)
        let left = Signal.channel(stereo, 0, of: 2)
        let right = Signal.channel(stereo, 1, of: 2)
        for (index, frequency) in frequencies.enumerated() {
            let onLeft = Signal.amplitude(left, 0..<48_000, frequencyHz: frequency, sampleRate: 48_000)
            let onRight = Signal.amplitude(right, 0..<48_000, frequencyHz: frequency, sampleRate: 48_000)
            let (wanted, other) = index % 2 == 0 ? (onLeft, onRight) : (onRight, onLeft)
            #expect(abs(wanted - 0.2) < 0.002, "\(frequency) Hz: \(wanted)")
            #expect(other < 0.001, "\(frequency) Hz leaks: \(other)")
        }
        let mono = try drain(BedStream(path: path, sampleRate: 48_000, channelCount: 1), blockFrames: 4_800)
        for frequency in frequencies {
            #expect(abs(Signal.amplitude(mono, 0..<48_000, frequencyHz: frequency, sampleRate: 48_000) - 0.1) < 0.002)
        }
    }

    @Test func aMonoBedFillsBothSidesAndAtTheSessionRateIsPassedThrough() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("mono.wav")
        let tone = Signal.sine(frequencyHz: 440, amplitude: 0.5, frameCount: 30_000, sampleRate: 48_000)
        try write(path, sampleRate: 48_000, channels: [tone], format: .wav)
        let stereo = try drain(BedStream(path: path, sampleRate: 48_000, channelCount: 2), blockFrames: 777)
        // Not resampled: the decoded file through the DC-blocking high-pass alone.
        var decoded = try AudioFileReader.readFloat(path: path)
        var filter = DCBlockingFilter(sampleRate: 48_000, channelCount: 1)
        decoded.withUnsafeMutableBufferPointer { filter.process($0.baseAddress!, frameCount: $0.count) }
        #expect(Signal.channel(stereo, 0, of: 2) == decoded)
        #expect(Signal.channel(stereo, 1, of: 2) == decoded)
    }

    @Test func rewindStartsTheRecordingAgain() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("loop.ogg")
        try write(path, sampleRate: 22_050, channels: [
            Signal.sine(frequencyHz: 330, amplitude: 0.5, frameCount: 33_075, sampleRate: 22_050)
        ], format: .ogg)
        let stream = try BedStream(path: path, sampleRate: 48_000, channelCount: 1)
        let first = try drain(stream, blockFrames: 5_000)
        #expect(first.count == 72_000)
        var block = [Float](repeating: 0, count: 100)
        #expect(try block.withUnsafeMutableBufferPointer { try stream.read(into: $0) } == 0)
        try stream.rewind()
        let second = try drain(stream, blockFrames: 3_000)
        #expect(second == first)
        // A seek into the middle gives the frames reads from the start give there, and says where it is.
        try stream.seek(toFrame: 40_001)
        #expect(stream.nextFrame == 40_001)
        let rest = try drain(stream, blockFrames: 2_000)
        #expect(rest == Array(first[40_001...]))
        #expect(stream.nextFrame == 72_000)
        #expect(stream.frameCount == 72_000, "the header's 33 075 frames at 22.05 kHz are 72 000 at 48 kHz")
    }

    @Test func aMissingBedExits66NamingIt() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("rain.flac")
        let error = try #require(throws: BedStreamError.self) { try BedStream(path: path, sampleRate: 48_000, channelCount: 2) }
        #expect(error.category == .missingInput)
        #expect(error.message == "bed: cannot open '\(path)': No such file or directory")
        let folderError = try #require(throws: BedStreamError.self) {
            try BedStream(path: folder.path, sampleRate: 48_000, channelCount: 2)
        }
        #expect(folderError.category == .missingInput)
        #expect(folderError.message.contains("not a regular file"))
    }

    @Test func textIsNotAudioAndExits65WithTheReason() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("rain.wav")
        try "rain on a tin roof\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: BedStreamError.self) { try BedStream(path: path, sampleRate: 48_000, channelCount: 2) }
        #expect(error.category == .badData)
        guard case .file(.notAudio(let errorPath, let reason)) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(errorPath == path)
        #expect(reason.contains("Format") || reason.contains("format"), "\(reason)")
    }

    @Test func audioWithoutFramesExits65() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("empty.wav")
        try write(path, sampleRate: 44_100, channels: [[]], format: .wav)
        let error = try #require(throws: BedStreamError.self) { try BedStream(path: path, sampleRate: 48_000, channelCount: 2) }
        #expect(error == .noFrames(path: path))
        #expect(error.category == .badData)
        // libsndfile does not open a FLAC file without frames at all: refused as not audio, also 65.
        let flac = folder.file("empty.flac")
        try write(flac, sampleRate: 44_100, channels: [[]])
        let flacError = try #require(throws: BedStreamError.self) { try BedStream(path: flac, sampleRate: 48_000, channelCount: 2) }
        #expect(flacError.category == .badData)
        #expect(flacError.message.contains(flac))
    }
}

/// The one-shot resampler, for comparison (a test-only path to the same libsoxr settings).
enum ResamplerReference {
    static func resample(_ samples: [Float], from inputRate: Int, to outputRate: Int) throws -> [Float] {
        try Resampler.resample(samples, channelCount: 1, from: inputRate, to: outputRate)
    }
}
