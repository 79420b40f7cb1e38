import Foundation
import NagiKit
import NagiTestSupport
import Testing

/// An Opus file's R128_TRACK_GAIN (RFC 7845: Q7.8 dB relative to −23 LUFS) against the loudness nagi measured while
/// writing and against ffmpeg's meter on the decoded file.
@Suite struct OpusGainTests {
    @Test func r128TrackGainIsTheRoundedMeasurementAndTheMeasurementMatchesFFmpeg() throws {
        let folder = try TemporaryFolder()
        let soundtrack = try Soundtrack.prepare(SoundtrackRequest(schedule: try KitFixtures.schedule(), soundscape: try BuiltinLibrary.soundscape(named: "night"), channelCount: 2))
        let path = folder.file("gain.opus")
        let report = try soundtrack.write(to: .file(path: path, overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .opus, tags: AudioTags(title: "gain")))
        let measured = try #require(report.loudnessLUFS)
        #expect(measured.isFinite && measured < -5 && measured > -60, "\(measured) LUFS")

        let probed = try Tool.run("/usr/bin/ffprobe", ["-v", "error", "-show_entries", "stream_tags=R128_TRACK_GAIN", "-of", "default=noprint_wrappers=1:nokey=1", path])
        #expect(probed.status == 0, "\(probed.output)")
        let q78 = try #require(Int(probed.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(probed.output)")
        // The right rounding of the measurement to a Q7.8 step: within half a step, so within 1/256 dB.
        let wanted = -23 - measured
        #expect(abs(Double(q78) / 256 - wanted) <= 0.5 / 256, "R128 \(q78) = \(Double(q78) / 256) dB, measured gain \(wanted) dB")

        let ffmpegLUFS = try FFmpegLoudness.integratedLUFS(of: path)
        #expect(abs(measured - ffmpegLUFS) <= 0.1, "nagi measured \(measured) LUFS, ffmpeg \(ffmpegLUFS) LUFS")
    }
}
