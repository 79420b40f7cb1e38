/// Finds and replaces artefacts in an RR series the standard way: an interval outside 300–2000 ms, or one
/// differing from the median of its neighbours by more than a threshold (25 %, the relative form of Kubios'
/// "medium" threshold of 0.25 s at 60 beats a minute), is replaced by linear interpolation between the
/// nearest good intervals.
public struct ArtefactCleaner: Sendable {
    /// The plausible range of one interval, in milliseconds.
    public var plausibleMilliseconds: ClosedRange<Double> = 300...2000
    /// The largest accepted departure from the local median, as a fraction of it.
    public var relativeThreshold = 0.25
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
        var window: [Double] = []
        window.reserveCapacity(2 * neighbourCount)
        for index in 0..<count where !isArtefact[index] {
            window.removeAll(keepingCapacity: true)
            for neighbour in max(0, index - neighbourCount)...min(count - 1, index + neighbourCount)
            where neighbour != index && plausibleMilliseconds.contains(intervals[neighbour]) {
                window.append(intervals[neighbour])
            }
            guard !window.isEmpty else { continue }
            window.sort()
            let middle = window.count / 2
            let median = window.count % 2 == 1 ? window[middle] : (window[middle - 1] + window[middle]) / 2
            if abs(intervals[index] - median) > relativeThreshold * median { isArtefact[index] = true }
        }
        var cleaned = intervals
        var artefacts: [Int] = []
        var previousGood: Int?
        var index = 0
        while index < count {
            guard isArtefact[index] else {
                previousGood = index
                index += 1
                continue
            }
            var end = index
            while end < count, isArtefact[end] { end += 1 }
            let before = previousGood.map { intervals[$0] }
            let after = end < count ? intervals[end] : nil
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
