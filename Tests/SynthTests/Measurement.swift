import Breath
import Foundation
import Synth
import Testing

/// Measurements run on demand, not as checks (no timed unit tests):
/// `NAGI_SYNTH_BENCHMARK=1 swift test -c release --filter synthesisSpeed` prints the synthesis speed;
/// `NAGI_SYNTH_WAV_DIR=/tmp/x swift test -c release --filter loudnessRenders` writes 5-minute WAVs of every
/// soundscape for `ffmpeg -nostats -i x.wav -af ebur128=peak=true -f null -`.
@Suite(.serialized)
struct Measurement {
    static let environment = ProcessInfo.processInfo.environment

    @Test(.enabled(if: environment["NAGI_SYNTH_BENCHMARK"] != nil))
    func synthesisSpeed() throws {
        let schedule = try Fixtures.schedule("4-7-8", seconds: 600, sampleRate: 48000)
        let seconds = Double(schedule.totalFrames) / 48000
        for (name, channels) in [("horizon", 2), ("horizon", 1), ("rain", 2)] {
            let soundscape = try Fixtures.soundscape(name)
            let frames = 4096
            var buffer = [Float](repeating: 0, count: frames * channels)
            var best = Double.infinity
            var bestSetUp = Double.infinity
            for _ in 0..<5 {
                let started = Date()
                let renderer = Renderer(schedule: schedule, soundscape: soundscape, channelCount: channels, cuesEnabled: true, seed: 7)
                let setUp = Date().timeIntervalSince(started)
                buffer.withUnsafeMutableBufferPointer { pointer in
                    while renderer.nextFrame < renderer.totalFrameCount {
                        renderer.render(into: pointer, frameCount: frames)
                    }
                }
                let total = Date().timeIntervalSince(started)
                if total < best { best = total; bestSetUp = setUp }
            }
            print(String(format: "synthesis of %.1f s of 48 kHz %@ 4-7-8 (%@): %.4f s (set-up %.4f s), %.0fx real time",
                         seconds, channels == 2 ? "stereo" : "mono", name, best, bestSetUp, seconds / best))
        }
        // The whole guide: chimes and words on every boundary, a counted number every second (synthetic clips
        // of speech-like length: 0.5 s noise bursts).
        let soundscape = try Fixtures.soundscape("horizon")
        var settings = RenderSettings(soundscape: soundscape, seed: 7, cues: .both, count: .voice)
        var random = SystemRandomNumberGenerator()
        let phrases = GuidePlan(schedule: schedule, settings: settings).requiredPhrases
        settings.clips = GuideClips(phrases: Dictionary(uniqueKeysWithValues: phrases.map { phrase in
            (phrase, (0..<24000).map { _ in Float.random(in: -0.5...0.5, using: &random) })
        }))
        var buffer = [Float](repeating: 0, count: 4096 * 2)
        var best = Double.infinity
        for _ in 0..<5 {
            let started = Date()
            let renderer = Renderer(schedule: schedule, settings: settings)
            buffer.withUnsafeMutableBufferPointer { pointer in
                while renderer.nextFrame < renderer.totalFrameCount { renderer.render(into: pointer, frameCount: 4096) }
            }
            best = min(best, Date().timeIntervalSince(started))
        }
        print(String(format: "synthesis of %.1f s of 48 kHz stereo 4-7-8 (horizon, cues both, count voice, %d phrases): %.4f s, %.0fx real time",
                     seconds, phrases.count, best, seconds / best))
    }

    @Test(.enabled(if: environment["NAGI_SYNTH_WAV_DIR"] != nil))
    func loudnessRenders() throws {
        let folder = URL(fileURLWithPath: Self.environment["NAGI_SYNTH_WAV_DIR"] ?? "/tmp")
        let schedule = try Fixtures.schedule("4-7-8", seconds: 300, sampleRate: 48000)
        for name in SoundscapeChoice.builtinNames {
            let samples = Fixtures.render(schedule, try Fixtures.soundscape(name), seed: 1)
            try WAVFile.write(samples, channels: 2, sampleRate: 48000, to: folder.appendingPathComponent("\(name).wav"))
        }
    }
}
