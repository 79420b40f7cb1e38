import Breath
import Foundation
import NagiTestSupport
import Synth
import Testing

/// Every soundscape measures −20 ± 1.5 LUFS integrated with a true peak at or below −1 dBTP over a
/// 5-minute 4-7-8 session, measured by ffmpeg's EBU R128 filter. Measured when the master gains were tuned
/// (seed 1, 48 kHz stereo): horizon −20.0 LUFS / −8.0 dBTP, dusk −20.0 / −7.1, night −20.0 / −8.3,
/// rain −20.0 / −8.7 (loudness range 6.2–6.6 LU: the inhale swell and the session's 6 dB decay).
@Suite struct LoudnessTests {
    @Test(arguments: SoundscapeChoice.builtinNames)
    func fiveMinutesMeasureMinusTwentyLUFS(name: String) throws {
        let schedule = try Fixtures.schedule("4-7-8", seconds: 300, sampleRate: 48000)
        let samples = Fixtures.render(schedule, try Fixtures.soundscape(name), seed: 1)
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("\(name).wav")
        try WAVFile.write(samples, channels: 2, sampleRate: 48000, to: file)
        let measured = try FFmpegLoudness.summary(of: file.path)
        #expect(abs(measured.integratedLUFS + 20) <= 1.5, "\(name): \(measured.integratedLUFS) LUFS")
        #expect(measured.truePeakDBTP <= -1, "\(name): true peak \(measured.truePeakDBTP) dBTP")
    }
}
