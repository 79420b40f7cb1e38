import Breath
import Foundation
import NagiDocuments
import Synth
import Testing

/// The sound follows the breath: measured on renders, voice by voice where that isolates what is tested,
/// on every built-in soundscape.
@Suite struct RendererSoundTests {
    static let names = SoundscapeChoice.builtinNames

    @Test(arguments: names) func thePitchRisesThroughEveryInhaleAndFallsThroughEveryExhaleByThePresetsInterval(name: String) throws {
        try RendererSoundChecks(name).thePitchRisesThroughEveryInhaleAndFallsThroughEveryExhaleByThePresetsInterval()
    }
    @Test(arguments: names) func theToneFollowsTheControlCurves(name: String) throws { try RendererSoundChecks(name).theToneFollowsTheControlCurves() }
    @Test(arguments: names) func holdsKeepThePitchWhileTheWaterSwells(name: String) throws { try RendererSoundChecks(name).holdsKeepThePitchWhileTheWaterSwells() }
    @Test(arguments: names) func theToneBrightensAsTheLevelRises(name: String) throws { try RendererSoundChecks(name).theToneBrightensAsTheLevelRises() }
    @Test(arguments: names) func theTrailFollowsTheToneWithALag(name: String) throws { try RendererSoundChecks(name).theTrailFollowsTheToneWithALag() }
    @Test(arguments: names) func laterCyclesAreCalmerAndQuieter(name: String) throws { try RendererSoundChecks(name).laterCyclesAreCalmerAndQuieter() }
    @Test(arguments: names) func cuesStartOnTheBoundaryFrameAndChangeNothingElse(name: String) throws {
        try RendererSoundChecks(name).cuesStartOnTheBoundaryFrameAndChangeNothingElse()
    }
    @Test(arguments: names) func noSampleStepStandsOutAtABoundary(name: String) throws { try RendererSoundChecks(name).noSampleStepStandsOutAtABoundary() }
    @Test(arguments: names) func theToneNeverStepsPastItsSlopeBound(name: String) throws { try RendererSoundChecks(name).theToneNeverStepsPastItsSlopeBound() }
}

/// The checks behind `RendererSoundTests`, for one soundscape.
struct RendererSoundChecks {
    let rate = 48000
    let name: String
    let schedule: Schedule
    let soundscape: Soundscape

    init(_ name: String) throws {
        self.name = name
        schedule = try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: rate)
        soundscape = try Fixtures.soundscape(name)
    }

    func phases(_ kind: PhaseKind) -> [ScheduledPhase] { schedule.phases.filter { $0.kind == kind } }

    /// The tone alone, mono.
    func toneOnly() -> [Float] { Fixtures.render(schedule, soundscape, channels: 1, voices: .tone) }

    func thePitchRisesThroughEveryInhaleAndFallsThroughEveryExhaleByThePresetsInterval() {
        let tone = toneOnly()
        let interval = soundscape.tone.highFrequencyHz / soundscape.tone.lowFrequencyHz
        let window = Int(0.3 * Double(rate))
        for inhale in phases(.inhale) {
            // Five windows through the phase: each higher than the one before.
            let frequencies = (0..<5).map { step -> Double in
                let centre = Int(inhale.startFrame) + Int(Double(inhale.frameCount) * (0.1 + 0.2 * Double(step)))
                return SignalAnalysis.frequency(tone, (centre - window / 4)..<(centre + window / 4), sampleRate: rate)
            }
            #expect(zip(frequencies, frequencies.dropFirst()).allSatisfy { $0 < $1 }, "inhale at \(inhale.startFrame): \(frequencies)")
        }
        for exhale in phases(.exhale) {
            let frequencies = (0..<5).map { step -> Double in
                let centre = Int(exhale.startFrame) + Int(Double(exhale.frameCount) * (0.1 + 0.2 * Double(step)))
                return SignalAnalysis.frequency(tone, (centre - window / 4)..<(centre + window / 4), sampleRate: rate)
            }
            #expect(zip(frequencies, frequencies.dropFirst()).allSatisfy { $0 > $1 }, "exhale at \(exhale.startFrame): \(frequencies)")
            // From the top (the hold before it) to the bottom (its last 0.3 s): the preset's interval.
            let top = SignalAnalysis.frequency(tone, (Int(exhale.startFrame) - window)..<Int(exhale.startFrame), sampleRate: rate)
            let bottom = SignalAnalysis.frequency(tone, (Int(exhale.endFrame) - window)..<Int(exhale.endFrame), sampleRate: rate)
            #expect(abs(top / bottom / interval - 1) < 0.01, "top \(top) Hz, bottom \(bottom) Hz")
            #expect(abs(top / soundscape.tone.highFrequencyHz - 1) < 0.005)
            #expect(abs(bottom / soundscape.tone.lowFrequencyHz - 1) < 0.01)
        }
    }

    /// The renderer plays what the control curves say: the tone's frequency, measured every half second,
    /// is the curves' pitch with the shimmer's vibrato.
    func theToneFollowsTheControlCurves() {
        let tone = toneOnly()
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let half = rate / 50
        var worst = 0.0
        for centre in stride(from: rate, to: Int(schedule.totalFrames) - rate, by: rate / 2) {
            let frame = Int64(centre)
            let expected = curves.pitchHz(at: frame) * pow(2, curves.vibratoCents(at: frame) / 1200)
            let measured = SignalAnalysis.frequency(tone, (centre - half)..<(centre + half), sampleRate: rate)
            worst = max(worst, abs(measured / expected - 1))
        }
        #expect(worst < 0.001, "largest deviation from the curves' pitch: \(worst * 100) %")
    }

    func holdsKeepThePitchWhileTheWaterSwells() throws {
        let tone = toneOnly()
        // The same soundscape without the swell: the difference is what the swell does.
        let still = try Soundscape.decode(
            text: Fixtures.soundscapeText(name).replacingOccurrences(of: "\"peak\": 2.5", with: "\"peak\": 1"), file: "still.json")
        #expect(still.holdSwell.peak == 1)
        let water = Fixtures.render(schedule, soundscape, channels: 1, voices: .water)
        let flat = Fixtures.render(schedule, still, channels: 1, voices: .water)
        let second = rate
        for hold in phases(.holdIn) {
            let start = Int(hold.startFrame)
            let end = Int(hold.endFrame)
            let early = SignalAnalysis.frequency(tone, start..<(start + second), sampleRate: rate)
            let late = SignalAnalysis.frequency(tone, (end - second)..<end, sampleRate: rate)
            #expect(abs(late / early - 1) < 0.005, "hold at \(start): \(early) Hz then \(late) Hz")
            // The swell starts from nothing and has raised the water by the hold's end.
            let opening = start..<(start + second / 10)
            let closing = (end - 2 * second)..<end
            let atStart = SignalAnalysis.rmsDecibels(water, opening) - SignalAnalysis.rmsDecibels(flat, opening)
            let atEnd = SignalAnalysis.rmsDecibels(water, closing) - SignalAnalysis.rmsDecibels(flat, closing)
            #expect(abs(atStart) < 0.2, "hold at \(start): swell at its start \(atStart) dB")
            // The calming shrinks the swell with the session (in 2 cycles: to about a third by the second hold).
            #expect(atEnd > (hold.cycleIndex == 0 ? 1.5 : 0.5), "hold at \(start): swell at its end \(atEnd) dB")
        }
        // Away from holds (mid-inhale, before any hold) the swell changes nothing.
        let inhale = phases(.inhale)[0]
        let middle = Int(inhale.startFrame + inhale.frameCount / 2)
        #expect(water[middle..<(middle + second)] == flat[middle..<(middle + second)])
    }

    func theToneBrightensAsTheLevelRises() {
        let tone = toneOnly()
        let hold = phases(.holdIn)[0]
        let exhale = phases(.exhale)[0]
        func secondHarmonicShare(_ range: Range<Int>) -> Double {
            let fundamental = SignalAnalysis.frequency(tone, range, sampleRate: rate)
            return SignalAnalysis.amplitude(tone, range, frequencyHz: 2 * fundamental, sampleRate: rate)
                / SignalAnalysis.amplitude(tone, range, frequencyHz: fundamental, sampleRate: rate)
        }
        // Short windows, so the vibrato does not smear the harmonics.
        let sky = secondHarmonicShare((Int(hold.startFrame) + rate)..<(Int(hold.startFrame) + rate + rate / 4))
        let water = secondHarmonicShare((Int(exhale.endFrame) - rate / 4)..<Int(exhale.endFrame))
        // The timbre at L = 1 and L = 0: the water harmonics crossfaded towards the sky's by the sky share.
        let preset = soundscape.tone
        let inhaled = preset.waterHarmonics[1] + (preset.skyHarmonics[1] - preset.waterHarmonics[1]) * preset.skyInhaled
        let exhaled = preset.waterHarmonics[1] + (preset.skyHarmonics[1] - preset.waterHarmonics[1]) * preset.skyExhaled
        #expect(abs(sky - inhaled) < 0.02, "\(name): 2nd harmonic at the top \(sky), expected \(inhaled)")
        #expect(abs(water - exhaled) < 0.03, "\(name): 2nd harmonic at the bottom \(water), expected \(exhaled)")
        #expect(sky > water + 0.05, "\(name): the tone must brighten")
    }

    func theTrailFollowsTheToneWithALag() {
        let tone = toneOnly()
        let trail = Fixtures.render(schedule, soundscape, channels: 1, voices: .trail)
        let ratio = soundscape.trail.pitchRatio
        let window = Int(0.12 * Double(rate))
        for phase in schedule.phases where phase.kind == .inhale || phase.kind == .exhale {
            let centre = Int(phase.startFrame + phase.frameCount / 2)
            let range = (centre - window / 2)..<(centre + window / 2)
            let led = SignalAnalysis.frequency(tone, range, sampleRate: rate) * ratio
            let lagging = SignalAnalysis.frequency(trail, range, sampleRate: rate)
            // Mid-phase the level moves fastest: the lagged pad is behind (lower while rising, higher while falling).
            if phase.kind == .inhale { #expect(lagging < 0.99 * led) } else { #expect(lagging > 1.01 * led) }
        }
        // Once the level rests, the pad has caught up.
        let hold = phases(.holdIn)[0]
        let rest = (Int(hold.endFrame) - rate)..<Int(hold.endFrame)
        let led = SignalAnalysis.frequency(tone, rest, sampleRate: rate) * ratio
        #expect(abs(SignalAnalysis.frequency(trail, rest, sampleRate: rate) / led - 1) < 0.005)
    }

    func laterCyclesAreCalmerAndQuieter() throws {
        let rate = 16000
        let schedule = try Fixtures.schedule("4-7-8", cycles: 6, sampleRate: rate)
        let cycles = (0..<6).map { cycle -> Range<Int> in
            let phases = schedule.phases.filter { $0.cycleIndex == cycle }
            return Int(phases[0].startFrame)..<Int(phases[phases.count - 1].endFrame)
        }
        let all = SignalAnalysis.channel(Fixtures.render(schedule, soundscape, channels: 1, cues: false), 0, of: 1)
        let quieter = SignalAnalysis.rmsDecibels(all, cycles[0]) - SignalAnalysis.rmsDecibels(all, cycles[5])
        #expect(quieter >= 3, "the last cycle is \(quieter) dB quieter than the first")
        // Calmer: the water's level moves less (spread of its 50 ms levels, in dB).
        let water = Fixtures.render(schedule, soundscape, channels: 1, voices: .water)
        func spread(_ range: Range<Int>) -> Double {
            let window = rate / 20
            let levels = stride(from: range.lowerBound, to: range.upperBound - window, by: window).map {
                SignalAnalysis.rmsDecibels(water, $0..<($0 + window))
            }
            let mean = levels.reduce(0, +) / Double(levels.count)
            return (levels.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(levels.count)).squareRoot()
        }
        #expect(spread(cycles[5]) < 0.6 * spread(cycles[0]), "water level spread \(spread(cycles[0])) dB then \(spread(cycles[5])) dB")
    }

    func cuesStartOnTheBoundaryFrameAndChangeNothingElse() {
        let with = Fixtures.render(schedule, soundscape, cues: true)
        let without = Fixtures.render(schedule, soundscape, cues: false)
        let cueFrames = Int64((soundscape.cues.lengthSeconds * Double(rate)).rounded())
        let fiveMilliseconds = rate / 200
        var differs = [Bool](repeating: false, count: with.count / 2)
        for frame in differs.indices { differs[frame] = with[2 * frame] != without[2 * frame] || with[2 * frame + 1] != without[2 * frame + 1] }
        var firstNotes: [PhaseKind: Double] = [:]
        for phase in schedule.phases {
            let start = Int(phase.startFrame)
            // Nothing differs before the phase (every cue of 4-7-8 ends before the next phase begins)...
            #expect(!differs[max(0, start - rate / 2)..<start].contains(true), "a cue sounds before the phase at \(start)")
            // ...and the cue begins within 5 ms of the phase's first frame.
            #expect(differs[start..<(start + fiveMilliseconds)].contains(true), "no cue within 5 ms of \(start)")
            // Past the chime's length, the renders are identical again.
            #expect(!differs[(start + Int(cueFrames))..<min(differs.count, start + Int(cueFrames) + rate)].contains(true))
            let cue = (0..<(rate / 10)).map { with[2 * (start + $0)] - without[2 * (start + $0)] }
            firstNotes[phase.kind] = SignalAnalysis.frequency(cue, (rate / 100)..<(rate / 10), sampleRate: rate)
        }
        // Each kind has its own chime: the first notes differ by more than a semitone.
        let inhale = firstNotes[.inhale] ?? 0
        let hold = firstNotes[.holdIn] ?? 0
        let exhale = firstNotes[.exhale] ?? 0
        for (a, b) in [(inhale, hold), (hold, exhale), (inhale, exhale)] {
            #expect(abs(a / b - 1) > 0.06, "first notes \(inhale), \(hold), \(exhale) Hz")
        }
    }

    func noSampleStepStandsOutAtABoundary() {
        let half = rate / 200
        let margin = rate / 20
        for (voices, cues) in [(Voices.all, false), (Voices.all, true), (Voices.tone, false)] {
            let left = SignalAnalysis.channel(Fixtures.render(schedule, soundscape, cues: cues, voices: voices), 0, of: 2)
            // 10 ms windows on every boundary after the first, against windows every 5 ms inside the phases.
            let atBoundaries = schedule.phases.dropFirst().map {
                SignalAnalysis.largestStep(left, (Int($0.startFrame) - half)..<(Int($0.startFrame) + half))
            }.max() ?? 0
            var elsewhere: Float = 0
            for phase in schedule.phases {
                for centre in stride(from: Int(phase.startFrame) + margin, to: Int(phase.endFrame) - margin, by: half) {
                    elsewhere = max(elsewhere, SignalAnalysis.largestStep(left, (centre - half)..<(centre + half)))
                }
            }
            // 5 % for the tremolo: the tone alone is deterministic, and its loudest moment may fall on a boundary.
            #expect(atBoundaries <= 1.05 * elsewhere, "voices \(voices.rawValue), cues \(cues): largest step \(atBoundaries) at boundaries, \(elsewhere) elsewhere")
        }
    }

    /// An absolute limit, not only a relative one: no sample of the tone alone, anywhere (the session's start
    /// and end, every boundary, the release and the step into silence), moves by more than the tone's steepest
    /// possible slope, 2π·f·Σk·hₖ·gain per sample at its highest pitch and gain. A click would be a step of
    /// the order of the gain itself, about ten times more.
    func theToneNeverStepsPastItsSlopeBound() {
        let tone = soundscape.tone
        let shimmer = soundscape.shimmer
        let highest = tone.highFrequencyHz * pow(2, shimmer.amplitudePoints * shimmer.vibratoCentsPerPoint / 1200)
        let loudest = pow(10, (max(tone.gainDecibelsInhaled, tone.gainDecibelsExhaled) + soundscape.masterGainDecibels
            + shimmer.amplitudePoints * shimmer.tremoloDecibelsPerPoint) / 20)
        func slope(_ harmonics: [Double]) -> Double { harmonics.enumerated().reduce(0) { $0 + Double($1.offset + 1) * abs($1.element) } }
        let bound = 1.02 * 2 * Double.pi * highest / Double(rate) * max(slope(tone.waterHarmonics), slope(tone.skyHarmonics)) * loudest
        let samples = toneOnly()
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        let end = Int(schedule.totalFrames)
        let silence = Int(curves.silenceStartFrame)
        var windows = [0..<(rate / 20), (end - rate / 20)..<(end + rate / 20), (silence - rate / 20)..<min(samples.count, silence + rate / 20)]
        windows += schedule.phases.dropFirst().map { (Int($0.startFrame) - rate / 200)..<(Int($0.startFrame) + rate / 200) }
        for window in windows {
            let step = Double(SignalAnalysis.largestStep(samples, window))
            #expect(step <= bound, "\(name): a step of \(step) in \(window), bound \(bound)")
        }
        let whole = Double(SignalAnalysis.largestStep(samples, 0..<samples.count))
        #expect(whole <= bound && whole > 0.3 * bound, "\(name): largest step \(whole), bound \(bound)")
    }
}
