/// How the heart follows the paced breath across the steps, fitted from each step's phase: the phase at the step
/// it swings most in, and the delay that makes its lag grow with the pace. A baroreflex resonance has heart rate
/// in phase with the breath at the resonant pace, leading below it and lagging above it (Vaschillo et al. 2002):
/// a positive group delay of a few seconds to about one breath.
public struct HeartLag: Sendable, Equatable {
    /// The lag at the step with the largest swing, degrees in (−180, 180].
    public var phaseAtStrongestDegrees: Double
    /// The delay fitted to the steps' lags against their paces, seconds (positive: lag grows with the pace).
    public var delaySeconds: Double

    /// The largest phase at the strongest step, in degrees, for heart rate to count as in phase there.
    public static let phaseToleranceDegrees = 60.0
    /// The delays a resonating heart shows: a second-order band-pass near 0.1 Hz with Q from 0.5 to 5.
    public static let delayRangeSeconds = 1.5...18.0

    /// The fit over `steps` weighted by their swing squared; nil with fewer than two steps that swing.
    public static func fit(_ steps: [StepMetrics]) -> HeartLag? {
        let weights = steps.map { step -> Double in
            let swing = step.breathSwings.isEmpty ? 0 : step.breathSwings.reduce(0, +) / Double(step.breathSwings.count)
            return swing * swing
        }
        guard let strongest = weights.indices.max(by: { weights[$0] < weights[$1] }), weights.filter({ $0 > 0 }).count >= 2 else { return nil }
        let reference = steps[strongest]
        var numerator = 0.0, denominator = 0.0
        for (step, weight) in zip(steps, weights) where weight > 0 {
            var difference = step.phaseDegrees - reference.phaseDegrees
            while difference > 180 { difference -= 360 }
            while difference <= -180 { difference += 360 }
            let frequency = (step.breathsPerMinute - reference.breathsPerMinute) / 60
            numerator += weight * difference * frequency
            denominator += weight * frequency * frequency
        }
        guard denominator > 0 else { return nil }
        // A lag of φ degrees at frequency f is a delay of φ / (360 f) seconds; the slope of φ against f is 360 τ.
        return HeartLag(phaseAtStrongestDegrees: reference.phaseDegrees, delaySeconds: numerator / denominator / 360)
    }
}
