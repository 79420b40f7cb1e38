import Breath
import Foundation
import HeartRhythm
import NagiDocuments
import NagiPresets
import NagiTestSupport

/// A heart-rate record made from a known physiology: heart rate = base + A(rate)·sin(breathing phase − π/2 + φ(rate))
/// + noise, with occasional ectopic beats (a premature beat and its compensatory pause), breathed to a session
/// that starts `leadSeconds` into the record. The swing A peaks at `resonantRate`, and heart rate is in phase
/// with the breath there (φ = 0), leading below it and lagging above it. Options make records the analysis must
/// not trust: no resonance (`resonantAmplitude == floorAmplitude`), another breathing than the session's
/// (`breathed`), a slow wander of heart rate (`wanderHeartRate`), and a baroreflex delay (`delaySeconds`).
public struct SyntheticHeart {
    /// What the person breathed during the session.
    public enum Breathed: Sendable, Equatable {
        /// The session's paces, as paced.
        case session
        /// One rate throughout, breaths a minute (6 for a constant 6/min; 3.75 for 4-4-4-4 box breathing).
        case constant(Double)
        /// Unpaced breathing around a rate, its period wandering by a fifth.
        case spontaneous(Double)
        /// The session's steps in reverse order (the last step's pace first).
        case reversed
    }

    public var breathed = Breathed.session
    /// The phase of a second-order band-pass of this quality at the resonance (a group delay of Q / (π f₀) there,
    /// about 10 s for Q = 3 at 5.5 a minute) instead of 25° a breath a minute; nil for the latter.
    public var bandPassQuality: Double?
    /// Seconds by which heart rate follows the breath beyond its rate-dependent phase (the baroreflex's delay).
    public var delaySeconds = 0.0
    /// A slow random wander of heart rate (0.01–0.05 Hz), beats a minute (standard deviation).
    public var wanderHeartRate = 0.0
    public var breathing: PacedBreathing
    public var resonantRate: Double
    public var leadSeconds = 37.3
    public var tailSeconds = 25.0
    public var baseHeartRate = 66.0
    /// The swing's half-height at resonance and far from it, beats a minute.
    public var resonantAmplitude = 8.0
    public var floorAmplitude = 2.5
    /// Beat-to-beat noise, beats a minute (standard deviation).
    public var noiseHeartRate = 1.5
    /// The chance a beat is ectopic.
    public var ectopicChance = 0.006
    public var seed: UInt64 = 1

    public init(breathing: PacedBreathing, resonantRate: Double, seed: UInt64 = 1) {
        self.breathing = breathing
        self.resonantRate = resonantRate
        self.seed = seed
    }

    /// The session's schedule: a preset by name, as the command line resolves it.
    public static func breathing(_ name: String = "resonance-steps") throws -> PacedBreathing {
        let decoder = SessionDecoder(catalog: PresetCatalog(builtinFiles: BuiltinPresets.files))
        let session = try decoder.resolveArgument(name) { path throws(BreathError) in
            throw BreathError.fileNotFound(path: path, reason: "no files in this test")
        }.resolved.session
        return PacedBreathing(schedule: try Schedule(session: session, sampleRate: 8000), name: name)
    }

    /// The swing's half-height at a breathing rate.
    public func amplitude(atRate rate: Double) -> Double {
        floorAmplitude + (resonantAmplitude - floorAmplitude) / (1 + pow((rate - resonantRate) / 0.45, 2))
    }

    /// Heart rate at `seconds` into the record, before noise.
    public func heartRate(atRecordSeconds seconds: Double) -> Double {
        heartRate(afterDelay: seconds - delaySeconds) + wander(atSeconds: seconds)
    }

    /// A sum of slow sines with phases drawn from the seed: 1/f-like drift below the LF band's middle.
    func wander(atSeconds seconds: Double) -> Double {
        guard wanderHeartRate > 0 else { return 0 }
        var total = 0.0
        for index in 0..<6 {
            let frequency = 0.01 + 0.008 * Double(index)
            let phase = Double((seed &* 2_654_435_761 &+ UInt64(index) &* 40503) % 6283) / 1000
            total += sin(2 * .pi * frequency * seconds + phase) / (1 + Double(index) * 0.5)
        }
        return wanderHeartRate * total / 1.6
    }

    func heartRate(afterDelay seconds: Double) -> Double {
        let sessionSeconds = seconds - leadSeconds
        let inSession = sessionSeconds >= 0 && sessionSeconds < breathing.durationSeconds
        switch breathed {
        case .session: break
        case let .constant(rate) where inSession:
            return baseHeartRate + amplitude(atRate: rate) * sin(2 * .pi * rate / 60 * sessionSeconds - .pi / 2)
        case let .spontaneous(rate) where inSession:
            let phase = 2 * Double.pi * rate / 60 * (sessionSeconds + 9 * sin(2 * .pi * sessionSeconds / 47))
            return baseHeartRate + 4 + amplitude(atRate: rate) * sin(phase)
        case .reversed where inSession:
            let steps = breathing.steps
            guard let index = steps.firstIndex(where: { sessionSeconds < $0.endSeconds }) else { break }
            let rate = steps[steps.count - 1 - index].breathsPerMinute
            return baseHeartRate + amplitude(atRate: rate) * sin(2 * .pi * rate / 60 * sessionSeconds - .pi / 2)
        default: break
        }
        guard let step = breathing.steps.first(where: { sessionSeconds >= $0.startSeconds && sessionSeconds < $0.endSeconds }) else {
            // Outside the session: spontaneous breathing at 14 a minute, a small swing.
            return baseHeartRate + 4 + 1.5 * sin(2 * .pi * 14 / 60 * seconds)
        }
        let starts = step.breathStartSeconds
        var index = 0
        while index + 2 < starts.count, starts[index + 1] <= sessionSeconds { index += 1 }
        let phase = 2 * Double.pi * (sessionSeconds - starts[index]) / (starts[index + 1] - starts[index])
        let lead: Double
        if let quality = bandPassQuality {
            // A second-order band-pass at the resonance: its phase, 0 there, lagging above and leading below.
            let ratio = step.breathsPerMinute / resonantRate
            lead = -atan(quality * (ratio - 1 / ratio))
        } else {
            lead = (resonantRate - step.breathsPerMinute) * 25 * Double.pi / 180
        }
        return baseHeartRate + amplitude(atRate: step.breathsPerMinute) * sin(phase - Double.pi / 2 + lead)
    }

    /// The record as Polar Sensor Logger writes it: `Phone timestamp;RR-interval [ms]`, each beat stamped at its
    /// end, from `startClock` (a local time without zone, "2026-12-02T07:29:00.000").
    /// Beats ending within `dropping` (record seconds) are lost, as when the strap loses contact: their lines are
    /// missing and the stamps jump.
    public func polarText(startClock: ClockTime, dropping: Range<Double>? = nil) -> String {
        var text = "Phone timestamp;RR-interval [ms]\n"
        var elapsed = 0.0
        for interval in record().intervals {
            let rounded = interval.rounded()
            elapsed += rounded / 1000
            if let dropping, dropping.contains(elapsed) { continue }
            text += startClock.adding(seconds: elapsed).isoText + ";" + String(Int(rounded)) + "\n"
        }
        return text
    }

    /// The record: its intervals (ms) and the indices of the ectopic ones inserted.
    public func record() -> (intervals: [Double], ectopicIndices: [Int]) {
        var generator = SeededGenerator(seed: seed)
        func gaussian() -> Double {
            let u1 = max(1e-12, Double(generator.next() >> 11) / Double(1 << 53))
            let u2 = Double(generator.next() >> 11) / Double(1 << 53)
            return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
        }
        let end = leadSeconds + breathing.durationSeconds + tailSeconds
        var time = 0.0
        var intervals: [Double] = []
        var ectopics: [Int] = []
        while time < end {
            // An interval is timed by the beat that ends it (as recorders and the spline place it).
            let guess = 60 / heartRate(atRecordSeconds: time)
            let rate = heartRate(atRecordSeconds: time + guess) + noiseHeartRate * gaussian()
            let interval = 60_000 / rate
            if Double(generator.next() >> 11) / Double(1 << 53) < ectopicChance {
                // A premature beat, then the compensatory pause: the pair spans two ordinary beats.
                ectopics.append(contentsOf: [intervals.count, intervals.count + 1])
                intervals.append(interval * 0.6)
                intervals.append(interval * 1.4)
                time += 2 * interval / 1000
            } else {
                intervals.append(interval)
                time += interval / 1000
            }
        }
        return (intervals, ectopics)
    }
}
