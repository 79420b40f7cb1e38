import Breath
import Foundation
import NagiDocuments
import NagiPresets
import Synth

/// Schedules, soundscapes and renders shared by the tests.
enum Fixtures {
    /// A schedule of `cycles` cycles of an inline pattern.
    static func schedule(_ pattern: String = "4-7-8", cycles: Int = 3, sampleRate: Int = 48000) throws -> Schedule {
        try Schedule(session: Session(pattern: InlinePattern.parse(pattern), length: .cycles(cycles)), sampleRate: sampleRate)
    }

    /// A schedule of about `seconds` of an inline pattern (whole cycles).
    static func schedule(_ pattern: String, seconds: Int, sampleRate: Int) throws -> Schedule {
        try Schedule(
            session: Session(pattern: InlinePattern.parse(pattern), length: .duration(microseconds: Int64(seconds) * 1_000_000)),
            sampleRate: sampleRate)
    }

    /// The text of a built-in soundscape preset.
    static func soundscapeText(_ name: String) throws -> String {
        guard let text = BuiltinPresets.files["soundscapes/\(name).json"] else {
            throw FixtureError.missingPreset(name)
        }
        return text
    }

    /// A built-in soundscape.
    static func soundscape(_ name: String = "horizon") throws -> Soundscape {
        try Soundscape.decode(text: soundscapeText(name), file: "soundscapes/\(name).json")
    }

    /// The whole render, pulled in blocks of `blockSize` frames.
    static func render(_ renderer: Renderer, blockSize: Int = 4096) -> [Float] {
        let total = Int(renderer.totalFrameCount)
        var samples = [Float](repeating: .nan, count: total * renderer.channelCount)
        samples.withUnsafeMutableBufferPointer { buffer in
            var done = 0
            while done < total {
                let frames = min(blockSize, total - done)
                let slice = UnsafeMutableBufferPointer(rebasing: buffer[(done * renderer.channelCount)...])
                renderer.render(into: slice, frameCount: frames)
                done += frames
            }
        }
        return samples
    }

    /// Renders `schedule` in `soundscape` and returns the interleaved samples.
    static func render(
        _ schedule: Schedule, _ soundscape: Soundscape, channels: Int = 2, cues: Bool = true, seed: UInt64 = 1,
        voices: Voices = .all, blockSize: Int = 4096
    ) -> [Float] {
        render(Renderer(schedule: schedule, soundscape: soundscape, channelCount: channels, cuesEnabled: cues, seed: seed, voices: voices), blockSize: blockSize)
    }

    /// Renders `schedule` under `settings` (with `text` for the guide) and returns the interleaved samples.
    static func render(_ schedule: Schedule, settings: RenderSettings, text: [PhaseGuideText]? = nil) -> [Float] {
        render(Renderer(schedule: schedule, settings: settings, text: text))
    }

    /// A ramp session: every phase length moving from `from` to `to` over `cycles` cycles.
    static func ramp(from: String, to: String, cycles: Int, sampleRate: Int) throws -> Schedule {
        try Schedule(
            session: Session(stages: [.ramp(from: InlinePattern.parse(from), to: InlinePattern.parse(to), .cycles(cycles))]),
            sampleRate: sampleRate)
    }

    enum FixtureError: Error { case missingPreset(String) }
}
