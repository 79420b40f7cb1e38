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
    struct Measured {
        var integratedLUFS: Double
        var truePeakDBTP: Double
    }

    @Test(arguments: SoundscapeChoice.builtinNames)
    func fiveMinutesMeasureMinusTwentyLUFS(name: String) throws {
        let schedule = try Fixtures.schedule("4-7-8", seconds: 300, sampleRate: 48000)
        let samples = Fixtures.render(schedule, try Fixtures.soundscape(name), seed: 1)
        let folder = try TemporaryFolder()
        defer { withExtendedLifetime(folder) {} }
        let file = folder.url.appendingPathComponent("\(name).wav")
        try WAVFile.write(samples, channels: 2, sampleRate: 48000, to: file)
        let measured = try Self.measure(file)
        #expect(abs(measured.integratedLUFS + 20) <= 1.5, "\(name): \(measured.integratedLUFS) LUFS")
        #expect(measured.truePeakDBTP <= -1, "\(name): true peak \(measured.truePeakDBTP) dBTP")
    }

    /// Runs `ffmpeg -af ebur128=peak=true` and reads its summary.
    static func measure(_ file: URL) throws -> Measured {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-nostats", "-hide_banner", "-i", file.path, "-af", "ebur128=peak=true", "-f", "null", "-"]
        let output = Pipe()
        process.standardError = output
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
              let summary = text.range(of: "Summary:").map({ text[$0.upperBound...] }),
              let integrated = number(after: "I:", in: summary),
              let peak = summary.range(of: "True peak:").flatMap({ number(after: "Peak:", in: summary[$0.upperBound...]) })
        else {
            throw MeasurementError.ffmpeg(text.suffix(600).description)
        }
        return Measured(integratedLUFS: integrated, truePeakDBTP: peak)
    }

    static func number(after label: String, in text: Substring) -> Double? {
        guard let range = text.range(of: label) else { return nil }
        let rest = text[range.upperBound...].drop { $0 == " " }
        return Double(rest.prefix { "-+.0123456789".contains($0) })
    }

    enum MeasurementError: Error { case ffmpeg(String) }
}
