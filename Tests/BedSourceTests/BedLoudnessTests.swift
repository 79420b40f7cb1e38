import AudioFile
import NagiTestSupport
import Foundation
import NagiBase
import Testing

@testable import BedSource

@Suite struct BedLoudnessTests {
    private func writeTone(_ path: String, amplitude: Float, sampleRate: Int, channelCount: Int) throws {
        let tone = Signal.sine(frequencyHz: 997, amplitude: amplitude, frameCount: 15 * sampleRate, sampleRate: sampleRate)
        let writer = try AudioFileWriter(
            path: path,
            spec: AudioFileSpec(sampleRate: sampleRate, channelCount: channelCount, format: .wav, encoding: .float),
            overwrite: false)
        try Signal.interleave(Array(repeating: tone, count: channelCount)).withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
    }

    /// The integrated loudness of everything `source` gives from where it is (at most `maximumFrames`), LUFS.
    private func loudness(of source: any FrameReader<BedStreamError>, maximumFrames: Int? = nil) throws -> Double {
        try BedLoudness.measure(reading: source, maximumFrames: maximumFrames).meter.integratedLoudness
    }

    /// A 997 Hz tone at −20 dBFS in a 44.1 kHz stereo file, heard folded to mono at 48 kHz, reads −23.0 LUFS
    /// (BS.1770's figure for one channel), at the session's rate and at the recording's own alike.
    @Test func measuresWhatTheSessionHears() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("tone.wav")
        try writeTone(path, amplitude: 0.1, sampleRate: 44_100, channelCount: 2)
        let resampled = try loudness(of: BedStream(path: path, sampleRate: 48_000, channelCount: 1))
        let own = try loudness(of: BedDecoder(path: path, channelCount: 1))
        #expect(abs(resampled - -23.01) < 0.05, "\(resampled) LUFS")
        #expect(abs(own - -23.01) < 0.05, "\(own) LUFS")
    }

    /// The same recording 42 dB apart (−45 and −3 dBFS) measures 42 LU apart, so matching levels any bed.
    @Test func quietAndLoudCopiesDifferByTheirGain() throws {
        let folder = try TemporaryFolder()
        try writeTone(folder.file("quiet.wav"), amplitude: Float(pow(10, -45.0 / 20)), sampleRate: 48_000, channelCount: 1)
        try writeTone(folder.file("loud.wav"), amplitude: Float(pow(10, -3.0 / 20)), sampleRate: 48_000, channelCount: 1)
        let quiet = try loudness(of: BedStream(path: folder.file("quiet.wav"), sampleRate: 48_000, channelCount: 2))
        let loud = try loudness(of: BedStream(path: folder.file("loud.wav"), sampleRate: 48_000, channelCount: 2))
        #expect(abs(loud - quiet - 42) < 0.05, "\(quiet) and \(loud) LUFS")
        // A mono bed given to both sides counts in both: 3 dB over the one-channel reading of the same tone.
        let oneChannelReading = -3 - 3.01
        #expect(abs(loud - (oneChannelReading + 3.01)) < 0.1, "\(loud) LUFS")
    }

    @Test func aLimitOrASeekMeasuresOnlyThatPart() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("two-parts.wav")
        let loud = Signal.sine(frequencyHz: 997, amplitude: 0.1, frameCount: 10 * 48_000, sampleRate: 48_000)
        let louder = Signal.sine(frequencyHz: 997, amplitude: 0.5, frameCount: 10 * 48_000, sampleRate: 48_000)
        let writer = try AudioFileWriter(
            path: path, spec: AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav, encoding: .float), overwrite: false)
        try (loud + louder).withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
        let beginning = try loudness(of: BedDecoder(path: path, channelCount: 1), maximumFrames: 10 * 48_000)
        let whole = try loudness(of: BedDecoder(path: path, channelCount: 1))
        let secondHalf = try BedDecoder(path: path, channelCount: 1)
        try secondHalf.seek(toFrame: 10 * 48_000)
        let laterPart = try loudness(of: secondHalf)
        #expect(abs(beginning - -23.01) < 0.05, "\(beginning) LUFS")
        #expect(whole > beginning + 5, "\(whole) LUFS")
        // Read from its middle (a measurement's later excerpt), only the louder part counts: 14 dB up.
        #expect(abs(laterPart - (beginning + 13.98)) < 0.05, "\(laterPart) LUFS")
    }
}
