import NagiMath

/// The decision on a session's steps: which pace stood out, and how far to trust it. `clear`, `likely`, or no
/// verdict at all when the record does not follow the session (a step's low-frequency peak away from its paced
/// rate, or the heart rate's swing mostly outside the low-frequency band), with the reason in words.
///
/// The best step is the one with the highest score (swing, LF power, LF peak and phase synchrony against the
/// steps' largest). It is `clear` only when its swing at the breathing frequency, measured breath by breath,
/// stands above each neighbour's by a t statistic of at least `clearTStatistic` and by `clearMargin` of the
/// score; the thresholds were set on records with no resonance (the same swing at every pace) from
/// HeartRhythmTestSupport's model, where they give a false "clear" on fewer than 1 in 10 (docs/resonance.md).
public struct ResonanceVerdict: Sendable, Equatable {
    /// The best step's index, nil when there is no verdict.
    public var bestIndex: Int?
    /// Whether the best step stands out clearly (false for a likely one, and with no verdict).
    public var clear: Bool
    /// The best step's score less its better neighbour's, as a fraction of its own (nil with one step).
    public var margin: Double?
    /// The smallest t statistic of the best step's per-breath swing over a neighbour's (nil with one step).
    public var tStatistic: Double?
    /// The verdict in plain words, or "no verdict: " and the reason.
    public var text: String
    /// Why there is no verdict (nil when there is one).
    public var reason: String?

    /// How far a step's low-frequency peak may lie from its paced rate, breaths a minute.
    public static let paceToleranceBreathsPerMinute = 0.3
    /// The least share of the heart rate's 0.04–0.4 Hz power in the LF band, for the median step.
    public static let minimumLowFrequencyShare = 0.5
    /// A clear winner's least score margin over its neighbours, and least t statistic of its swing over theirs.
    public static let clearMargin = 0.10
    public static let clearTStatistic = 3.0

    /// Scores `steps` (those with `excludedReason` left at 0) and decides.
    public static func decide(_ steps: inout [StepMetrics]) -> ResonanceVerdict {
        let included = steps.indices.filter { steps[$0].excludedReason == nil }
        let largestSwing = included.map { steps[$0].peakToTrough }.max() ?? 0
        let largestPower = included.map { steps[$0].lowFrequencyPower }.max() ?? 0
        let largestPeak = included.map { steps[$0].peakDensity }.max() ?? 0
        func share(_ value: Double, _ largest: Double) -> Double { largest > 0 ? value / largest : 0 }
        for index in steps.indices {
            guard steps[index].excludedReason == nil else {
                steps[index].score = 0
                continue
            }
            let step = steps[index]
            let synchrony = max(0, cos(step.phaseDegrees * Double.pi / 180))
            steps[index].score = (share(step.peakToTrough, largestSwing) + share(step.lowFrequencyPower, largestPower) + share(step.peakDensity, largestPeak) + synchrony) / 4
        }
        guard let best = included.max(by: { steps[$0].score < steps[$1].score }) else {
            return none("every step was left out: " + (steps.compactMap(\.excludedReason).first ?? "no step to analyse"))
        }
        // Does the record follow the session at all?
        let strays = included.filter { !steps[$0].followsPace }
        let allowedStrays = included.count >= 4 ? 1 : 0
        if strays.contains(best) || strays.count > allowedStrays {
            let listed = strays.prefix(3).map { "\(steps[$0].label) peaks at \(ResonanceAnalysis.rateText(((steps[$0].peakFrequencyHz * 60) * 10).rounded() / 10))/min" }
            return none("the heart rate does not follow the session's paces (\(listed.joined(separator: "; "))): was this session breathed, and is the start right?")
        }
        let shares = included.map { steps[$0].lowFrequencyShare }.sorted()
        let medianShare = shares[shares.count / 2]
        if medianShare < minimumLowFrequencyShare {
            return none("the swing at the breathing paces is not dominant (\(Int((medianShare * 100).rounded())) % of the heart rate's 0.04–0.4 Hz power in a median step): was the breathing paced?")
        }
        let rate = ResonanceAnalysis.rateText(steps[best].breathsPerMinute)
        guard steps.count > 1 else {
            return ResonanceVerdict(bestIndex: best, clear: false, margin: nil, tStatistic: nil, text: "one pace only (\(rate) breaths/min): nothing to compare; breathe resonance-steps to compare paces", reason: nil)
        }
        let neighbours = [best - 1, best + 1].filter { steps.indices.contains($0) }
        let rivals = neighbours.filter { steps[$0].excludedReason == nil }
        let rival = rivals.max { steps[$0].score < steps[$1].score }
        let rivalScore = rival.map { steps[$0].score } ?? 0
        let margin = steps[best].score > 0 ? (steps[best].score - rivalScore) / steps[best].score : 0
        let t = rivals.map { tStatistic(steps[best].breathSwings, steps[$0].breathSwings) }.min() ?? 0
        // A left-out neighbour might have been the best: never clear beside one.
        let clear = margin >= clearMargin && t >= clearTStatistic && rivals.count == neighbours.count
        let edge = edgeNote(steps, best: best)
        if clear {
            return ResonanceVerdict(bestIndex: best, clear: true, margin: margin, tStatistic: t, text: "\(rate) breaths/min, clearly" + edge, reason: nil)
        }
        var text = "\(rate) breaths/min, likely"
        if let rival {
            text += " (\(ResonanceAnalysis.rateText(steps[rival].breathsPerMinute)) close)"
        }
        if rivals.count < neighbours.count {
            text += "; a step beside it was left out"
        }
        text += ": repeat another day to be sure" + edge
        return ResonanceVerdict(bestIndex: best, clear: false, margin: margin, tStatistic: t, text: text, reason: nil)
    }

    /// When the best step is the slowest or fastest pace tried, a clause saying the resonant rate may lie beyond
    /// the range and naming the next paces to try (two more at the session's spacing); "" otherwise.
    static func edgeNote(_ steps: [StepMetrics], best: Int) -> String {
        let rates = steps.map(\.breathsPerMinute)
        guard rates.count >= 3, let slowest = rates.min(), let fastest = rates.max(), slowest < fastest else { return "" }
        let rate = rates[best]
        let spacing = zip(rates, rates.dropFirst()).map { abs($0 - $1) }.filter { $0 > 0 }.min() ?? 0.5
        func text(_ value: Double) -> String { ResonanceAnalysis.rateText(value) }
        if rate == slowest, rate - 2 * spacing >= 1 {
            return "; \(text(rate)) is the slowest pace tried: the resonant rate may lie below it — try \(text(rate)), \(text(rate - spacing)) and \(text(rate - 2 * spacing)) breaths/min next"
        }
        if rate == fastest, rate + 2 * spacing <= 30 {
            return "; \(text(rate)) is the fastest pace tried: the resonant rate may lie above it — try \(text(rate)), \(text(rate + spacing)) and \(text(rate + 2 * spacing)) breaths/min next"
        }
        return ""
    }

    static func none(_ reason: String) -> ResonanceVerdict {
        ResonanceVerdict(bestIndex: nil, clear: false, margin: nil, tStatistic: nil, text: "no verdict: " + reason, reason: reason)
    }

    /// Welch's t statistic of the mean of `a` over the mean of `b` (0 when either has fewer than two values).
    static func tStatistic(_ a: [Double], _ b: [Double]) -> Double {
        guard a.count >= 2, b.count >= 2 else { return 0 }
        func moments(_ values: [Double]) -> (mean: Double, variance: Double) {
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            return (mean, variance)
        }
        let (meanA, varianceA) = moments(a), (meanB, varianceB) = moments(b)
        let error = (varianceA / Double(a.count) + varianceB / Double(b.count)).squareRoot()
        return error > 0 ? (meanA - meanB) / error : (meanA > meanB ? .infinity : 0)
    }
}
