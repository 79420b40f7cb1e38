import Breath
import Foundation
import Synth
import Testing

/// The surf grows through every hold, measured on the rendered mix without cues: the energy outside the
/// tone's and the pad's partials in each hold's last 40 % against its first 40 %.
@Suite struct HoldSwellTests {
    static let rate = 16000

    /// Per hold: (rise in dB of the energy outside the partials, the tone's pitch ratio last/first, the
    /// following phase's second half against the hold's last 40 % in dB).
    struct HoldFigures {
        var firstEnergy: Double
        var lastEnergy: Double
        var pitchRatio: Double
        var settledDecibels: Double?
        var rise: Double { 10 * log10(lastEnergy / firstEnergy) }
    }

    static func holdFigures(_ schedule: Schedule, _ soundscape: Soundscape) -> [HoldFigures] {
        let rate = Self.rate
        let samples = Fixtures.render(schedule, soundscape, channels: 1, cues: false)
        let beds = Fixtures.render(schedule, soundscape, channels: 1, cues: false, voices: [.water, .rain])
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        var figures: [HoldFigures] = []
        for (index, hold) in schedule.phases.enumerated() where hold.kind.isHold && hold.frameCount >= Int64(3 * rate) {
            let tone = curves.pitchHz(at: hold.startFrame + hold.frameCount / 2)
            let pad = tone * soundscape.trail.pitchRatio
            let partials = (1...4).map { Double($0) * tone } + (1...3).map { Double($0) * pad }
            let span = Int(Double(hold.frameCount) * 0.4)
            let first = Int(hold.startFrame)..<(Int(hold.startFrame) + span)
            let last = (Int(hold.endFrame) - span)..<Int(hold.endFrame)
            let early = Spectrum(samples, first, sampleRate: rate, hann: true)
            let late = Spectrum(samples, last, sampleRate: rate, hann: true)
            let outsideEarly = early.energy(outside: partials, tolerance: 0.02, minimumHz: 6)
            let outsideLate = late.energy(outside: partials, tolerance: 0.02, minimumHz: 6)
            let pitchRatio = late.peakFrequency(from: 0.9 * tone, to: 1.1 * tone) / early.peakFrequency(from: 0.9 * tone, to: 1.1 * tone)
            var settled: Double?
            if index + 1 < schedule.phases.count {
                // Settling, on the beds alone (the tone glides through the next phase): its second half
                // against the hold's last 40 %.
                let next = schedule.phases[index + 1]
                let half = (Int(next.startFrame) + Int(next.frameCount) / 2)..<Int(next.endFrame)
                settled = SignalAnalysis.rmsDecibels(beds, half) - SignalAnalysis.rmsDecibels(beds, last)
            }
            figures.append(HoldFigures(firstEnergy: outsideEarly, lastEnergy: outsideLate, pitchRatio: pitchRatio, settledDecibels: settled))
        }
        return figures
    }

    @Test(arguments: SoundscapeChoice.builtinNames)
    func theSurfSwellsThroughEveryHoldOnEverySoundscape(name: String) throws {
        let soundscape = try Fixtures.soundscape(name)
        // 4-7-8 and box, and holds after the exhale that end the session (a Wim Hof-like retention).
        for pattern in ["4-7-8", "4-4-4-4", "4-0-4-6"] {
            let schedule = try Fixtures.schedule(pattern, cycles: 3, sampleRate: Self.rate)
            let figures = Self.holdFigures(schedule, soundscape)
            #expect(figures.count >= 3)
            let pooled = 10 * log10(figures.map(\.lastEnergy).reduce(0, +) / figures.map(\.firstEnergy).reduce(0, +))
            let worst = figures.map(\.rise).min() ?? 0
            print("swell \(name) \(pattern): pooled \(String(format: "%.1f", pooled)) dB, worst hold \(String(format: "%.1f", worst)) dB")
            #expect(pooled >= 4, "\(name) \(pattern): pooled swell \(pooled) dB")
            #expect(worst >= 2, "\(name) \(pattern): weakest hold \(worst) dB (\(figures.map(\.rise)))")
            for figure in figures {
                #expect(abs(figure.pitchRatio - 1) < 0.01, "\(name) \(pattern): the tone moved by \(figure.pitchRatio)")
                if let settled = figure.settledDecibels {
                    #expect(settled < -3, "\(name) \(pattern): the surf after a hold is \(settled) dB from its peak")
                }
            }
            // The last hold ends the session and swells too.
            if pattern == "4-0-4-6" { #expect(schedule.phases.last?.kind == .holdOut && (figures.last?.rise ?? 0) >= 2) }
        }
    }

    /// Calming shrinks the ripples, not the swell: a hold late in a long session still rises by the ratio.
    @Test func calmingKeepsTheSwellsRatio() throws {
        let soundscape = try Fixtures.soundscape("horizon")
        let schedule = try Fixtures.schedule("4-7-8", cycles: 8, sampleRate: Self.rate)
        let figures = Self.holdFigures(schedule, soundscape)
        let curves = ControlCurves(schedule: schedule, soundscape: soundscape)
        #expect(curves.calming(at: schedule.phases.last?.startFrame ?? 0) < 0.3)
        let firstRise = figures.first?.rise ?? 0
        let lastRise = figures.last?.rise ?? 0
        #expect(lastRise >= 3, "last hold rises \(lastRise) dB")
        #expect(abs(lastRise - firstRise) < 2.5, "first hold \(firstRise) dB, last \(lastRise) dB")
    }
}
