import NagiTestSupport
import Breath
import Foundation
import Synth
import Testing

/// The guide's sounds in the rendered audio: synthetic clips made here (tone bursts of distinct pitches)
/// placed by the plan; onsets against the schedule's frames, the right clip on the right phase, nothing
/// before a boundary.
@Suite struct GuideRenderTests {
    static let rate = 16000

    /// A clip: a cosine burst at `hertz` (heard from its first sample) with a 2 ms ramp in and 10 ms out.
    static func burst(_ hertz: Double, seconds: Double) -> [Float] {
        let count = Int(seconds * Double(rate))
        let edge = Double(rate) * 0.002
        return (0..<count).map { n in
            let fadeIn = min(1, Double(n + 1) / edge)
            let fadeOut = min(1, Double(count - n) / (5 * edge))
            return Float(cos(2 * Double.pi * hertz * Double(n) / Double(rate)) * fadeIn * fadeOut * 0.5)
        }
    }

    /// The first frame at or after `from` where `a` and `b` differ (nil: none before `to`).
    static func firstDifference(_ a: [Float], _ b: [Float], from: Int, to: Int) -> Int? {
        let (lower, upper) = (max(0, from), min(to, a.count))
        return lower < upper ? Signal.firstDifference(a[lower..<upper], b[lower..<upper]) : nil
    }

    /// The first frame at or after `from` where `a` is not `b` turned down (same sign, no larger; nil: none
    /// before `to`): what a clip starting early would add, which the limiter's gain, falling a few milliseconds
    /// ahead of a loud onset, never does.
    static func firstAddition(_ a: [Float], _ b: [Float], from: Int, to: Int) -> Int? {
        let (lower, upper) = (max(0, from), min(to, a.count))
        return lower < upper ? (lower..<upper).first { a[$0] != b[$0] && !(a[$0] * b[$0] >= 0 && abs(a[$0]) <= abs(b[$0])) } : nil
    }

    /// How far before a loud onset the output limiter may start turning the mix down: its look-ahead (5 ms, at
    /// least 80 frames) with a frame to spare.
    static let limiterLookAheadFrames = 81

    @Test(arguments: SoundscapeChoice.builtinNames)
    func spokenClipsLandOnTheirBoundariesAndNothingStartsBefore(name: String) throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate)
        let pitches = ["breathe in": 500.0, "hold": 700.0, "breathe out": 900.0]
        let clips = GuideClips(phrases: pitches.mapValues { Self.burst($0, seconds: 0.6) })
        let settings = RenderSettings(soundscape: try Fixtures.soundscape(name), channelCount: 1, cues: .voice, clips: clips)
        var silent = settings
        silent.cues = .none
        let spoken = Fixtures.render(schedule, settings: settings)
        let plain = Fixtures.render(schedule, settings: silent)
        let fiveMilliseconds = rate / 200
        for phase in schedule.phases {
            let start = Int(phase.startFrame)
            // Nothing of the guide (clip or ducking) in the second before the boundary, but for the limiter turning
            // the mix down just ahead of the clip, which adds nothing...
            let lookAhead = start - Self.limiterLookAheadFrames
            #expect(Self.firstDifference(spoken, plain, from: start - rate, to: lookAhead) == nil, "\(name): guide before \(start)")
            #expect(Self.firstAddition(spoken, plain, from: lookAhead, to: start) == nil, "\(name): guide before \(start)")
            // ...and the clip's first sample within 5 ms of it (here: on it).
            let onset = Self.firstDifference(spoken, plain, from: start, to: start + rate)
            #expect(onset != nil && (onset ?? .max) - start <= fiveMilliseconds, "\(name): onset \(String(describing: onset)) for \(start)")
            // The right clip: the difference's pitch is this phase's words' pitch.
            let clip = (start..<(start + rate / 2)).map { spoken[$0] - plain[$0] }
            let expected = pitches[GuidePlan.defaultWords(for: phase.kind)] ?? 0
            let measured = SignalAnalysis.frequency(clip, (rate / 20)..<(rate / 2 - 1), sampleRate: rate)
            #expect(abs(measured / expected - 1) < 0.01, "\(name): \(measured) Hz on a \(phase.kind) (expected \(expected))")
        }
    }

    @Test func aPhaseTooShortForItsWordsGetsNone() throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-2-4", cycles: 1, sampleRate: rate)
        let clips = GuideClips(phrases: ["breathe in": Self.burst(500, seconds: 0.5), "hold": Self.burst(700, seconds: 2.5), "breathe out": Self.burst(900, seconds: 0.5)])
        let settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, cues: .voice, clips: clips)
        var silent = settings
        silent.cues = .none
        let spoken = Fixtures.render(schedule, settings: settings)
        let plain = Fixtures.render(schedule, settings: silent)
        let hold = schedule.phases[1]
        // The inhale's clip (and its ducking) is over before the hold; the hold's 2.5 s clip does not fit in 2 s
        // (the limiter may turn the mix down just ahead of the exhale's clip, adding nothing).
        let lookAhead = Int(hold.endFrame) - Self.limiterLookAheadFrames
        #expect(Self.firstDifference(spoken, plain, from: Int(hold.startFrame), to: lookAhead) == nil)
        #expect(Self.firstAddition(spoken, plain, from: lookAhead, to: Int(hold.endFrame)) == nil)
        #expect(Self.firstDifference(spoken, plain, from: Int(hold.endFrame), to: Int(hold.endFrame) + 1) == Int(hold.endFrame))
    }

    @Test func theBedDucksUnderTheVoiceAfterTheBoundaryAndComesBack() throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let soundscape = try Fixtures.soundscape("horizon")
        let clips = GuideClips(phrases: ["breathe in": Self.burst(500, seconds: 1), "hold": Self.burst(700, seconds: 1), "breathe out": Self.burst(900, seconds: 1)])
        var settings = RenderSettings(soundscape: soundscape, channelCount: 1, cues: .voice, clips: clips, voices: [.water])
        let ducked = Fixtures.render(schedule, settings: settings)
        settings.cues = .none
        let steady = Fixtures.render(schedule, settings: settings)
        let hold = schedule.phases[1]
        let under = (Int(hold.startFrame) + rate / 4)..<(Int(hold.startFrame) + 3 * rate / 4)
        let dip = SignalAnalysis.rmsDecibels(ducked, under) - SignalAnalysis.rmsDecibels(steady, under)
        #expect(abs(dip - soundscape.cues.duckDecibels) < 0.5, "the water dips \(dip) dB under the voice")
        let after = (Int(hold.startFrame) + 2 * rate)..<(Int(hold.startFrame) + 3 * rate)
        #expect(ducked[after] == steady[after])
    }

    @Test func ticksSoundOnEveryWholeSecondFallingInPitch() throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: rate)
        let settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, cues: .none, count: .ticks)
        var quiet = settings
        quiet.count = .none
        let ticking = Fixtures.render(schedule, settings: settings)
        let plain = Fixtures.render(schedule, settings: quiet)
        let tickFrames = Int(0.04 * Double(rate))
        for phase in schedule.phases {
            var pitches: [Double] = []
            for second in 0..<Int(phase.frameCount / Int64(rate)) {
                let frame = Int(phase.startFrame) + second * rate
                // Onset on the frame, nothing in the 100 ms before: the first sample is not 0 but rises by the
                // placement's fade (`ClipEdgeFade`), so the first sample the mix's Floats resolve is within 0.25 ms.
                let onset = Self.firstDifference(ticking, plain, from: frame - rate / 10, to: frame + rate / 200)
                #expect(onset.map { $0 >= frame && $0 <= frame + rate / 4000 } == true, "tick at \(frame): onset \(String(describing: onset))")
                let tick = (frame..<(frame + tickFrames)).map { ticking[$0] - plain[$0] }
                pitches.append(SignalAnalysis.frequency(tick, 0..<(tickFrames / 2), sampleRate: rate))
            }
            #expect(zip(pitches, pitches.dropFirst()).allSatisfy { $0 > $1 }, "tick pitches \(pitches)")
            #expect((pitches.first ?? 0) > 1.2 * (pitches.last ?? 0), "tick pitches \(pitches)")
        }
    }

    @Test func packClipsReplaceTheChimesAndAreCutAtTheNextBoundary() throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-4-4-4", cycles: 1, sampleRate: rate)
        let pitches: [CuePackSlot: Double] = [.inhale: 400, .hold: 600, .exhale: 800]
        // Every clip is longer than its phase: each must be cut at the boundary.
        let clips = GuideClips(pack: pitches.mapValues { Self.burst($0, seconds: 6) })
        let settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, clips: clips, voices: [.cues])
        let samples = Fixtures.render(schedule, settings: settings)
        for phase in schedule.phases {
            let start = Int(phase.startFrame)
            let expected = pitches[CuePackSlot.preferred(for: phase.kind)] ?? pitches[.hold] ?? 0
            #expect(samples[start] != 0, "the clip's first sample is on the boundary")
            let measured = SignalAnalysis.frequency(samples, (start + rate / 10)..<(start + rate), sampleRate: rate)
            #expect(abs(measured / expected - 1) < 0.01, "\(measured) Hz on a \(phase.kind)")
            // Cut with a fade that ends on the next boundary: the last frame before it is nearly silent.
            #expect(Double(abs(samples[Int(phase.endFrame) - 1])) < 0.01 * SignalAnalysis.amplitude(samples, (start + rate)..<(start + 2 * rate), frequencyHz: expected, sampleRate: rate))
        }
        // After the session's last phase nothing of the clips is left.
        let end = Int(schedule.totalFrames)
        #expect(samples[end..<(end + rate)].allSatisfy { $0 == 0 })
    }

    @Test func theCueVolumeMovesEveryGuideSound() throws {
        let rate = Self.rate
        let schedule = try Fixtures.schedule("4-4", cycles: 1, sampleRate: rate)
        let clips = GuideClips(phrases: ["breathe in": Self.burst(500, seconds: 0.5), "breathe out": Self.burst(900, seconds: 0.5)])
        // From −6 to −26 dB: at 0 dB these full-scale bursts, a chime and a tick on one frame (clips peak at −3 dBFS)
        // pass the limiter's knee, which is there to hold them; the volume's own step is what is measured.
        var settings = RenderSettings(soundscape: try Fixtures.soundscape("horizon"), channelCount: 1, cues: .both, count: .ticks, cueVolumeDecibels: -6, clips: clips, voices: [.cues])
        let loud = Fixtures.render(schedule, settings: settings)
        settings.cueVolumeDecibels = -26
        let soft = Fixtures.render(schedule, settings: settings)
        let range = 0..<Int(schedule.totalFrames)
        #expect(abs(SignalAnalysis.rmsDecibels(soft, range) - SignalAnalysis.rmsDecibels(loud, range) + 20) < 0.01)
        #expect(loud.contains { $0 != 0 })
    }

    /// Live playback pulls odd block sizes: the guide (chimes, words, ticks, ducking) renders the same samples.
    @Test func blockSizesDoNotChangeTheGuide() throws {
        let schedule = try Fixtures.schedule("2-1-2", cycles: 2, sampleRate: Self.rate)
        let clips = GuideClips(phrases: ["breathe in": Self.burst(500, seconds: 0.4), "hold": Self.burst(700, seconds: 0.3), "breathe out": Self.burst(900, seconds: 0.4)])
        let settings = RenderSettings(soundscape: try Fixtures.soundscape("rain"), cues: .both, count: .ticks, clips: clips)
        let reference = Fixtures.render(Renderer(schedule: schedule, settings: settings), blockSize: 4096)
        for blockSize in [1, 63, 65, 1000] {
            #expect(Fixtures.render(Renderer(schedule: schedule, settings: settings), blockSize: blockSize) == reference, "block size \(blockSize)")
        }
    }
}
