/// Finds and corrects artefacts in an RR series by an adaptive, local threshold (Lipponen & Tarvainen 2019, the
/// method of Kubios' automatic correction): the successive differences (dRR) and each interval's departure from
/// the median of the 11 around it (mRR) are measured against 5.2 times their quartile deviation over the 91
/// beats around, so the threshold follows the local spread. A smooth swing of 20 bpm at the breathing rate
/// raises the spread with it and stays physiology; a single ectopic or missed beat stands out of it.
///
/// A beat is an artefact when its normalised dRR passes 1 and the dRR beside it runs the other way in the pattern
/// of an ectopic beat, or of a long or short beat (the paper's criteria with c1 = 0.13, c2 = 0.17; a long or short
/// one also half a threshold off its median that way), when its mRR passes 3, when it lies more than 40 % from
/// its median, or outside 300–2000 ms. An ectopic beat comes as a pair: a premature interval and the
/// compensatory one after it, together about two ordinary beats. Kubios' method (as NeuroKit2's
/// `signal_fixpeaks` describes it) moves the ectopic beat to the midpoint of its neighbours, so both intervals
/// become half their sum; so does this (NeuroKit2 0.3 itself gives other intervals on such pairs:
/// docs/resonance.md). Any other artefact is replaced by linear interpolation between the nearest good intervals.
public struct ArtefactCleaner: Sendable {
    /// The plausible range of one interval, in milliseconds.
    public var plausibleMilliseconds: ClosedRange<Double> = 300...2000
    /// The threshold's multiple of the quartile deviation (the paper's α).
    public var spreadMultiple = 5.2
    /// Beats in the window whose spread sets the threshold (the paper's 91).
    public var spreadWindow = 91
    /// Beats in the median an interval's departure (mRR) is measured from (the paper's 11).
    public var medianWindow = 11
    /// The least threshold, as a fraction of the local median interval: a record of nearly constant intervals
    /// has no spread, and a change of a few per cent is never an artefact there.
    public var minimumThresholdFraction = 0.03
    /// The largest departure of an ectopic pair's sum from two local medians, as a fraction of them: beyond it
    /// the pair is not one displaced beat and both intervals are interpolated.
    public var pairThreshold = 0.10
    /// The departure from the local median beyond which an interval is an artefact whatever the local spread, as
    /// a fraction of the median: no breathing swing moves one interval 40 % from the median of the 11 around it,
    /// and a dense run of artefacts (a strap double-counting every fifth beat) would raise the spread past them.
    public var grossDepartureFraction = 0.40

    public init() {}

    /// The cleaned series and which intervals were replaced.
    public struct Result: Sendable, Equatable {
        /// Every interval, artefacts replaced, in milliseconds.
        public var intervalsMilliseconds: [Double]
        /// The indices of the replaced intervals, ascending.
        public var artefactIndices: [Int]
    }

    /// The paper's constants of the ectopic criterion (S12 against −c1·dRR ∓ c2).
    static let c1 = 0.13, c2 = 0.17

    /// Cleans `intervals` (milliseconds).
    ///
    /// Two passes, as Kubios iterates: ectopic pairs found in the first are set to their midpoint, and the second
    /// judges every other beat on the series so corrected, so two ectopic pairs one beat apart do not make the
    /// normal beat between them look short.
    public func clean(_ intervals: [Double]) -> Result {
        let count = intervals.count
        guard count >= 3 else { return Result(intervalsMilliseconds: intervals, artefactIndices: []) }
        let implausible = intervals.map { !plausibleMilliseconds.contains($0) }
        // Implausible values stand in as the median of their plausible neighbours while the others are judged.
        let neighbourMedians = Self.slidingMedian(intervals, window: medianWindow, including: { plausibleMilliseconds.contains($0) })
        var series = intervals.indices.map { implausible[$0] ? neighbourMedians[$0] : intervals[$0] }
        let first = classify(series, skipping: implausible)

        var cleaned = intervals
        // Ectopic pairs: a short interval then a long one, one of them flagged, together about two beats.
        var paired = [Bool](repeating: false, count: count)
        var index = 0
        while index + 1 < count {
            let one = index, two = index + 1
            let median = (first.medians[one] + first.medians[two]) / 2
            let sum = intervals[one] + intervals[two]
            let shortThenLong = intervals[one] < median && intervals[two] > median
            let flagged = (first.isArtefact[one] && first.isArtefact[two]) || first.isEctopic[one] || first.isEctopic[two]
            if flagged, shortThenLong, !implausible[one], !implausible[two], abs(sum - 2 * median) <= pairThreshold * 2 * median, plausibleMilliseconds.contains(sum / 2) {
                for slot in [one, two] {
                    cleaned[slot] = sum / 2
                    series[slot] = sum / 2
                    paired[slot] = true
                }
                index += 2
            } else {
                index += 1
            }
        }
        let second = classify(series, skipping: implausible)
        let isArtefact = intervals.indices.map { !paired[$0] && (implausible[$0] || second.isArtefact[$0]) }
        var artefacts: [Int] = []
        var previousGood: Int?
        index = 0
        while index < count {
            guard isArtefact[index] else {
                if paired[index] { artefacts.append(index) }
                previousGood = index
                index += 1
                continue
            }
            var end = index
            while end < count, isArtefact[end] { end += 1 }
            let before = previousGood.map { cleaned[$0] }
            let after = end < count ? cleaned[end] : nil
            for replaced in index..<end {
                artefacts.append(replaced)
                switch (before, after) {
                case let (before?, after?):
                    let fraction = Double(replaced - index + 1) / Double(end - index + 1)
                    cleaned[replaced] = before + (after - before) * fraction
                case let (before?, nil): cleaned[replaced] = before
                case let (nil, after?): cleaned[replaced] = after
                case (nil, nil): cleaned[replaced] = 1000
                }
            }
            index = end
        }
        return Result(intervalsMilliseconds: cleaned, artefactIndices: artefacts)
    }

    /// The beats of `series` (ms) that pass the adaptive threshold, those of them in the pattern of an ectopic
    /// beat, and each beat's local median; `skipping` marks beats already known bad.
    func classify(_ series: [Double], skipping: [Bool]) -> (isArtefact: [Bool], isEctopic: [Bool], medians: [Double]) {
        let count = series.count
        let localMedians = Self.slidingMedian(series, window: medianWindow, including: { _ in true })
        var differences = [Double](repeating: 0, count: count)
        for index in 1..<count { differences[index] = series[index] - series[index - 1] }
        differences[0] = differences.dropFirst().reduce(0, +) / Double(count - 1)
        var departures = series.indices.map { series[$0] - localMedians[$0] }
        for index in departures.indices where departures[index] < 0 { departures[index] *= 2 }
        let differenceThreshold = thresholds(of: differences, medians: localMedians)
        let departureThreshold = thresholds(of: departures, medians: localMedians)
        let dRR = series.indices.map { differences[$0] / differenceThreshold[$0] }
        let mRR = series.indices.map { departures[$0] / departureThreshold[$0] }
        func at(_ index: Int) -> Double { dRR.indices.contains(index) ? dRR[index] : 0 }

        var isArtefact = [Bool](repeating: false, count: count)
        var isEctopic = [Bool](repeating: false, count: count)
        for index in 0..<count where !skipping[index] {
            let d = dRR[index]
            // S12: the neighbouring difference that runs most against this one; S22: the one after, likewise. A long
            // or short beat must also lie off its median the same way.
            let s12 = d > 0 ? max(at(index - 1), at(index + 1)) : min(at(index - 1), at(index + 1))
            let s22 = d >= 0 ? min(at(index + 1), at(index + 2)) : max(at(index + 1), at(index + 2))
            if abs(d) > 1, (d > 1 && s12 < -Self.c1 * d - Self.c2) || (d < -1 && s12 > -Self.c1 * d + Self.c2) {
                isEctopic[index] = true
                isArtefact[index] = true
            } else if (d > 1 && s22 < -1 && mRR[index] > 0.5) || (d < -1 && s22 > 1 && mRR[index] < -0.5) || abs(mRR[index]) > 3
                || abs(series[index] - localMedians[index]) > grossDepartureFraction * localMedians[index] {
                isArtefact[index] = true
            }
        }
        return (isArtefact, isEctopic, localMedians)
    }

    /// Each value's threshold: `spreadMultiple` times the quartile deviation of the values over the `spreadWindow`
    /// around it (3.5 standard deviations of a normal spread, as the paper sets it), at least
    /// `minimumThresholdFraction` of the local median interval, in ms.
    func thresholds(of values: [Double], medians: [Double]) -> [Double] {
        let half = spreadWindow / 2
        var window = SortedWindow(capacity: spreadWindow)
        for index in 0..<min(half, values.count) { window.insert(values[index]) }
        var result = [Double](repeating: 0, count: values.count)
        for index in values.indices {
            if index + half < values.count { window.insert(values[index + half]) }
            if index - half - 1 >= 0 { window.remove(values[index - half - 1]) }
            let deviation = (window.quantile(0.75) - window.quantile(0.25)) / 2
            result[index] = max(spreadMultiple * deviation, minimumThresholdFraction * medians[index])
        }
        return result
    }

    /// The median of the `window` values centred on each (fewer at the ends) among those `including` accepts; the
    /// value's own where none is.
    static func slidingMedian(_ values: [Double], window size: Int, including: (Double) -> Bool) -> [Double] {
        let half = size / 2
        var window = SortedWindow(capacity: size)
        for index in 0..<min(half, values.count) where including(values[index]) { window.insert(values[index]) }
        var result = values
        for index in values.indices {
            if index + half < values.count, including(values[index + half]) { window.insert(values[index + half]) }
            if index - half - 1 >= 0, including(values[index - half - 1]) { window.remove(values[index - half - 1]) }
            if !window.isEmpty { result[index] = window.quantile(0.5) }
        }
        return result
    }
}
