import Breath
import Synth
import Testing

/// The countdown and the end bell on the output's timeline, and the renderer's contract with them.
@Suite("the countdown's lead-in and the ending outside the breathing")
struct SessionFramingTests {
    static func settings(cues: CueMode, countdown: Int, endBell: Bool) throws -> RenderSettings {
        var settings = RenderSettings(soundscape: try Fixtures.soundscape(), channelCount: 2, cues: cues)
        (settings.countdownSeconds, settings.endBell) = (countdown, endBell)
        return settings
    }

    @Test("frames: N s with chimes (a tick on each counted second), N + 2 s with the voice, none with --cues none and no bell")
    func frames() throws {
        let schedule = try Fixtures.schedule("4-4", cycles: 1, sampleRate: 44100)
        let chimes = SessionFraming(schedule: schedule, settings: try Self.settings(cues: .chimes, countdown: 3, endBell: false))
        #expect(chimes.leadInFrameCount == 3 * 44100)
        #expect(chimes.events.map(\.frame) == [0, 44100, 88200])
        #expect(chimes.events.allSatisfy { if case .tick = $0.sound { true } else { false } })
        let voice = SessionFraming(schedule: schedule, settings: try Self.settings(cues: .voice, countdown: 3, endBell: true))
        #expect(voice.leadInFrameCount == 5 * 44100)
        #expect(voice.events.map(\.sound) == [.phrase("get ready"), .phrase("three"), .phrase("two"), .phrase("one"), .chime(.stage), .phrase("the session is complete")])
        let plain = RenderPlan.totalFrameCount(schedule: schedule, soundscape: try Fixtures.soundscape())
        let silent = SessionFraming(schedule: schedule, settings: try Self.settings(cues: .none, countdown: 0, endBell: true))
        #expect(silent.isEmpty && silent.totalFrameCount == plain)
        let release = Int64(2.5 * 44100), closing = Int64(0.8 * 44100)
        #expect(voice.totalFrameCount == 5 * 44100 + schedule.totalFrames + release + 4 * 44100 + closing)
        #expect(voice.endingStartFrame == 5 * 44100 + schedule.totalFrames + release)
    }

    @Test("with the countdown and the bell, any block size and any seek (into the lead-in, the breathing, the ending) give the same samples; without them, the render is the plain one")
    func blocksAndSeeks() throws {
        let schedule = try Fixtures.schedule("2-2", cycles: 1, sampleRate: 16000)
        let settings = try Self.settings(cues: .chimes, countdown: 2, endBell: true)
        let whole = Fixtures.render(Renderer(schedule: schedule, settings: settings), blockSize: 4096)
        #expect(Fixtures.render(Renderer(schedule: schedule, settings: settings), blockSize: 97) == whole)
        let plain = Fixtures.render(schedule, settings: RenderSettings(soundscape: settings.soundscape, channelCount: 2, cues: .chimes))
        let leadIn = 2 * 16000
        let releaseEnd = Int(schedule.totalFrames) + Int(2.5 * 16000)
        #expect(Array(whole[(2 * leadIn)..<(2 * (leadIn + releaseEnd))]) == Array(plain[0..<(2 * releaseEnd)]))
        #expect(whole[0..<(2 * leadIn)].contains { $0 != 0 }, "the ticks")
        #expect(whole[(2 * (leadIn + releaseEnd))...].contains { $0 != 0 }, "the bell")
        for frame in [100, leadIn - 10, leadIn + 5000, leadIn + releaseEnd + 300, 10, leadIn + 20] {
            let renderer = Renderer(schedule: schedule, settings: settings)
            renderer.seek(toFrame: Int64(frame))
            let count = min(3000, Int(renderer.totalFrameCount) - frame)
            var buffer = [Float](repeating: .nan, count: count * 2)
            buffer.withUnsafeMutableBufferPointer { renderer.render(into: $0, frameCount: count) }
            #expect(buffer == Array(whole[(2 * frame)..<(2 * (frame + count))]), "seek to \(frame)")
        }
    }
}
