/// Finds and corrects artefacts in an RR series: an interval outside 300–2000 ms, or one differing from the
/// median of its neighbours by more than a threshold (25 %, the relative form of Kubios' "medium" threshold of
/// 0.25 s at 60 beats a minute).
///
/// An ectopic beat comes as a pair: a premature interval and the compensatory one after it, together about two
/// ordinary beats. Kubios' method (Lipponen & Tarvainen 2019, as NeuroKit2's `signal_fixpeaks` describes it)
/// moves the ectopic beat to the midpoint of its neighbours, so both intervals become half their sum; so does
/// this (NeuroKit2 0.3 itself gives other intervals on such pairs: docs/resonance.md). The pair is found
/// when either interval passes the threshold and the other departs the opposite way by `pairThreshold` or more, their
/// sum within `pairThreshold` of two local medians. Any other artefact is replaced by linear interpolation
/// between the nearest good intervals.
public struct ArtefactCleaner: Sendable {
    /// The plausible range of one interval, in milliseconds.
    public var plausibleMilliseconds: ClosedRange<Double> = 300...2000
    /// The largest accepted departure from the local median, as a fraction of it.
    public var relativeThreshold = 0.25
    /// The least departure of the other interval of an ectopic pair, and the largest departure of the pair's sum
    /// from two medians, as fractions of the median.
    public var pairThreshold = 0.10
    /// The least departure of both intervals of a short–long pair that neither flags alone, as a fraction of the
    /// median: far beyond what breathing does to two successive beats.
    public var unflaggedPairThreshold = 0.15
    /// Intervals on each side that form the local median.
    public var neighbourCount = 5

    public init() {}

    /// The cleaned series and which intervals were replaced.
    public struct Result: Sendable, Equatable {
        /// Every interval, artefacts replaced, in milliseconds.
        public var intervalsMilliseconds: [Double]
        /// The indices of the replaced intervals, ascending.
        public var artefactIndices: [Int]
    }

    /// Cleans `intervals` (milliseconds).
    public func clean(_ intervals: [Double]) -> Result {
        let count = intervals.count
        var isArtefact = intervals.map { !plausibleMilliseconds.contains($0) }
        var medians = [Double](repeating: 0, count: count)
        var window: [Double] = []
        window.reserveCapacity(2 * neighbourCount)
        for index in 0..<count {
            window.removeAll(keepingCapacity: true)
            for neighbour in max(0, index - neighbourCount)...min(count - 1, index + neighbourCount)
            where neighbour != index && plausibleMilliseconds.contains(intervals[neighbour]) {
                window.append(intervals[neighbour])
            }
            guard !window.isEmpty else { continue }
            window.sort()
            let middle = window.count / 2
            medians[index] = window.count % 2 == 1 ? window[middle] : (window[middle - 1] + window[middle]) / 2
            if !isArtefact[index], abs(intervals[index] - medians[index]) > relativeThreshold * medians[index] { isArtefact[index] = true }
        }
        var cleaned = intervals
        // Ectopic pairs first: premature (short) then compensatory (long), one flagged, the pair two beats long.
        var paired = [Bool](repeating: false, count: count)
        var index = 0
        while index + 1 < count {
            let first = index, second = index + 1
            let median = (medians[first] + medians[second]) / 2
            let a = intervals[first] - median, b = intervals[second] - median
            // Kubios finds such a pair by its successive differences even when neither passes the threshold alone.
            let flagged = isArtefact[first] || isArtefact[second] || (median > 0 && min(-a, b) >= unflaggedPairThreshold * median)
            let opposite = median > 0 && a < 0 && b > 0 && min(-a, b) >= pairThreshold * median
            let sumFits = median > 0 && abs(intervals[first] + intervals[second] - 2 * median) <= pairThreshold * 2 * median
            let plausible = plausibleMilliseconds.contains((intervals[first] + intervals[second]) / 2)
            if flagged, opposite, sumFits, plausible, !paired[first] {
                let half = (intervals[first] + intervals[second]) / 2
                cleaned[first] = half
                cleaned[second] = half
                paired[first] = true
                paired[second] = true
                index += 2
            } else {
                index += 1
            }
        }
        for index in 0..<count where paired[index] { isArtefact[index] = false }
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
}
