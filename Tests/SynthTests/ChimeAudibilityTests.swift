import Breath
import Foundation
import Synth
import Testing

/// Each chime is heard at its moment: in its own strongest third-octave band over its first 150 ms it stands
/// at least 6 dB over the soundscape rendered without cues, wherever the tone is, on every soundscape.
@Suite struct ChimeAudibilityTests {
    static let rate = 24000

    /// The worst margin per chime kind, dB, over every boundary of `schedule`.
    static func margins(_ schedule: Schedule, _ soundscape: Soundscape, cueVolumeDecibels: Double = 0) -> [GuideEvent.ChimeKind: Double] {
        let rate = Self.rate
        let settings = RenderSettings(soundscape: soundscape, channelCount: 1, seed: 5, cueVolumeDecibels: cueVolumeDecibels)
        var quiet = settings
        quiet.cues = .none
        var alone = settings
        alone.voices = .cues
        // The chimes alone (exactly their part of the mix), against the soundscape without cues (its beds not
        // making room, so the margin is if anything understated).
        let chimes = Fixtures.render(schedule, settings: alone)
        let without = Fixtures.render(schedule, settings: quiet)
        let window = rate * 150 / 1000
        let bands = Spectrum.thirdOctaveBands(upTo: 0.45 * Double(rate))
        var worst: [GuideEvent.ChimeKind: Double] = [:]
        for phase in schedule.phases where phase.frameCount > 0 {
            let range = Int(phase.startFrame)..<(Int(phase.startFrame) + window)
            let chime = Array(chimes[range])
            let chimeSpectrum = Spectrum(chime, 0..<window, sampleRate: rate)
            let bedSpectrum = Spectrum(without, range, sampleRate: rate)
            guard let band = bands.max(by: { chimeSpectrum.energy(from: $0.low, to: $0.high) < chimeSpectrum.energy(from: $1.low, to: $1.high) }) else { continue }
            let margin = 10 * log10(chimeSpectrum.energy(from: band.low, to: band.high) / bedSpectrum.energy(from: band.low, to: band.high))
            let kind = GuideEvent.ChimeKind(phase.kind)
            worst[kind] = min(worst[kind] ?? .infinity, margin)
        }
        return worst
    }

    @Test(arguments: SoundscapeChoice.builtinNames)
    func everyChimeStandsSixDecibelsOverTheSoundscapeInItsBand(name: String) throws {
        let soundscape = try Fixtures.soundscape(name)
        let schedules = [
            ("4-7-8", try Fixtures.schedule("4-7-8", cycles: 2, sampleRate: Self.rate)),
            ("box", try Fixtures.schedule("4-4-4-4", cycles: 2, sampleRate: Self.rate)),
            ("ramp 3-1-3-1 to 5-6-8-2", try Fixtures.ramp(from: "3-1-3-1", to: "5-6-8-2", cycles: 3, sampleRate: Self.rate)),
        ]
        for (label, schedule) in schedules {
            let margins = Self.margins(schedule, soundscape)
            #expect(Set(margins.keys) == [.inhale, .hold, .exhale])
            for (kind, margin) in margins.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("chime margin \(name) \(label) \(kind.rawValue): \(String(format: "%.1f", margin)) dB")
                #expect(margin >= 6, "\(name) \(label): the \(kind.rawValue) chime stands only \(margin) dB over the soundscape")
            }
        }
    }

    /// The cue volume moves the chimes by exactly its decibels (the guide is linear under the limiter's knee).
    @Test func theCueVolumeMovesTheChimes() throws {
        let soundscape = try Fixtures.soundscape("horizon")
        let schedule = try Fixtures.schedule("4-7-8", cycles: 1, sampleRate: Self.rate)
        let base = Self.margins(schedule, soundscape)
        let softer = Self.margins(schedule, soundscape, cueVolumeDecibels: -12)
        for kind in [GuideEvent.ChimeKind.inhale, .hold, .exhale] {
            let moved = (softer[kind] ?? 0) - (base[kind] ?? 0)
            #expect(abs(moved + 12) < 0.05, "\(kind.rawValue): moved \(moved) dB")
        }
    }
}
