/// Finds where a session starts in a heart-rate record by cross-correlating the heart rate with the paced
/// breathing, searching both directions: from a session begun before the recorder (a negative offset) to one
/// ending at the record's end.
///
/// A coarse search on 1 Hz block means keeps a 2-hour record fast (O(record × session) at 1 Hz, a few million
/// products); the 4 Hz correlation is then taken within a breath and a half either side of the coarse best, and
/// every local peak there is a candidate. The correlation peaks one breath apart, and the heart follows the breath
/// with a delay, so the highest peak is not always the session's start: `ResonanceAnalysis` chooses among the
/// candidates by the heart's phase (`HeartLag`).
public struct SessionAligner: Sendable {
    /// An offset where the heart rate and the breathing move together, and how much.
    public struct Candidate: Sendable, Equatable {
        public var offsetSeconds: Double
        public var correlation: Double
    }

    /// What the search found.
    public struct Alignment: Sendable, Equatable {
        /// Where the session starts, in seconds from the record's first beat (negative: before it).
        public var offsetSeconds: Double
        /// The normalised correlation (−1…1) of heart rate and breathing there.
        public var correlation: Double
        /// The best correlation at any offset further than a breath and a half and 5 s away, and where.
        public var runnerUpCorrelation: Double
        public var runnerUpOffsetSeconds: Double
        /// The local peaks of the correlation near the best, highest first.
        public var candidates: [Candidate] = []
        /// The heart's delay behind the breath fitted at the chosen offset, seconds (nil when not modelled).
        public var heartDelaySeconds: Double?
        /// How clearly the offset stood out: the best correlation over the runner-up's (∞ when that is ≤ 0).
        public var clarity: Double {
            runnerUpCorrelation > 0 ? correlation / runnerUpCorrelation : .infinity
        }
        /// Whether the place stands out: its correlation half again above any other place in the record. On the
        /// test model's records, those that follow the session stood out by 2.8 to 10; those of another breathing
        /// (6/min throughout, spontaneous) by 1.33 at most (docs/resonance.md).
        /// A weak correlation (below `minimumClearCorrelation`) is never clear, however it stands out.
        public var isClear: Bool { correlation >= SessionAligner.minimumClearCorrelation && clarity >= 1.5 }
        /// The coarse (1 Hz) correlation at each offset searched, from `coarseFirstOffsetSeconds`, and how far from
        /// the chosen place another must lie to be the runner-up.
        var coarseCorrelations: [Double] = []
        var coarseFirstOffsetSeconds = 0.0
        var coarseStepSeconds = 1.0
        var separationSeconds = 0.0

        /// Takes `candidate` as the session's place, the runner-up then the best correlated place a breath and a
        /// half and 5 s away from it, so the runner-up shown is never the place chosen.
        public mutating func choose(_ candidate: Candidate) {
            offsetSeconds = candidate.offsetSeconds
            correlation = candidate.correlation
            var best = (offset: offsetSeconds, value: -Double.infinity)
            for (slot, value) in coarseCorrelations.enumerated() {
                let offset = coarseFirstOffsetSeconds + Double(slot) * coarseStepSeconds
                if abs(offset - offsetSeconds) > separationSeconds, value > best.value { best = (offset, value) }
            }
            runnerUpCorrelation = best.value.isFinite ? best.value : 0
            runnerUpOffsetSeconds = best.value.isFinite ? best.offset : offsetSeconds
        }
    }

    /// Below this correlation an alignment is not called clear: the heart rate follows the breathing too little
    /// for the place to be sure, whatever the runner-up.
    public static let minimumClearCorrelation = 0.3

    /// The least share of the session the record must overlap at an offset.
    public var minimumOverlap = 0.8

    public init() {}

    /// Aligns `heartRate` (samples at `sampleRateHz` from the record's first beat) with `breathing` (the level,
    /// at the same rate, from the session start), at offsets from `earliestSeconds` to `latestSeconds`;
    /// `breathSeconds` is the longest breath of the session (how far apart the correlation's peaks lie).
    public func align(heartRate: [Double], breathing: [Double], sampleRateHz: Double, earliestSeconds: Double, latestSeconds: Double, breathSeconds: Double) -> Alignment? {
        let block = max(1, Int(sampleRateHz.rounded()))
        let coarseRate = sampleRateHz / Double(block)
        let coarseHeart = Self.blockMeans(heartRate, block: block)
        let coarseBreath = Self.blockMeans(breathing, block: block)
        guard !coarseBreath.isEmpty, latestSeconds >= earliestSeconds else { return nil }
        let coarseOffsets = Int((earliestSeconds * coarseRate).rounded(.up))...Int((latestSeconds * coarseRate).rounded(.down))
        guard !coarseOffsets.isEmpty else { return nil }
        let coarse = Self.correlations(signal: coarseHeart, reference: coarseBreath, offsets: coarseOffsets, minimumOverlap: minimumOverlap)
        guard let coarseSlot = coarse.indices.max(by: { coarse[$0] < coarse[$1] }), coarse[coarseSlot] > -.infinity else { return nil }
        let coarseBest = Double(coarseOffsets.lowerBound + coarseSlot) / coarseRate
        let reach = 1.5 * breathSeconds + 2
        let low = Int((max(earliestSeconds, coarseBest - reach) * sampleRateHz).rounded(.up))
        let high = Int((min(latestSeconds, coarseBest + reach) * sampleRateHz).rounded(.down))
        guard low <= high else { return nil }
        let fine = Self.correlations(signal: heartRate, reference: breathing, offsets: low...high, minimumOverlap: minimumOverlap)
        guard let fineSlot = fine.indices.max(by: { fine[$0] < fine[$1] }) else { return nil }
        var candidates: [Candidate] = []
        for slot in fine.indices where fine[slot] > 0 && fine[slot] >= 0.5 * fine[fineSlot] {
            let left = slot > 0 ? fine[slot - 1] : -.infinity, right = slot + 1 < fine.count ? fine[slot + 1] : -.infinity
            if fine[slot] >= left, fine[slot] >= right {
                candidates.append(Candidate(offsetSeconds: Double(low + slot) / sampleRateHz, correlation: fine[slot]))
            }
        }
        candidates.sort { $0.correlation > $1.correlation }
        let bestOffset = Double(low + fineSlot) / sampleRateHz
        let separation = reach + 5
        var alignment = Alignment(offsetSeconds: bestOffset, correlation: fine[fineSlot], runnerUpCorrelation: 0, runnerUpOffsetSeconds: bestOffset, candidates: candidates)
        alignment.coarseCorrelations = coarse
        alignment.coarseFirstOffsetSeconds = Double(coarseOffsets.lowerBound) / coarseRate
        alignment.coarseStepSeconds = 1 / coarseRate
        alignment.separationSeconds = separation
        alignment.choose(Candidate(offsetSeconds: bestOffset, correlation: fine[fineSlot]))
        return alignment
    }

    /// Pearson correlation of `reference` with `signal` shifted by each offset (samples; negative: the reference
    /// starts before the signal), over their overlap; −∞ where it covers less than `minimumOverlap` of the reference.
    static func correlations(signal: [Double], reference: [Double], offsets: ClosedRange<Int>, minimumOverlap: Double) -> [Double] {
        let length = reference.count
        guard length > 1 else { return [] }
        func prefix(_ values: [Double]) -> (sums: [Double], squares: [Double]) {
            var sums = [Double](repeating: 0, count: values.count + 1)
            var squares = [Double](repeating: 0, count: values.count + 1)
            for (index, value) in values.enumerated() {
                sums[index + 1] = sums[index] + value
                squares[index + 1] = squares[index] + value * value
            }
            return (sums, squares)
        }
        let (signalSums, signalSquares) = prefix(signal)
        let (referenceSums, referenceSquares) = prefix(reference)
        let needed = Int((Double(length) * minimumOverlap).rounded(.up))
        var result = [Double](repeating: -.infinity, count: offsets.count)
        signal.withUnsafeBufferPointer { signal in
            reference.withUnsafeBufferPointer { reference in
                for (slot, offset) in offsets.enumerated() {
                    let first = max(0, -offset), end = min(length, signal.count - offset)
                    let count = end - first
                    guard count >= max(2, needed) else { continue }
                    var product = 0.0
                    for index in first..<end { product += signal[offset + index] * reference[index] }
                    let n = Double(count)
                    let signalSum = signalSums[offset + end] - signalSums[offset + first]
                    let referenceSum = referenceSums[end] - referenceSums[first]
                    let signalEnergy = signalSquares[offset + end] - signalSquares[offset + first] - signalSum * signalSum / n
                    let referenceEnergy = referenceSquares[end] - referenceSquares[first] - referenceSum * referenceSum / n
                    let norm = (max(0, signalEnergy) * max(0, referenceEnergy)).squareRoot()
                    result[slot] = norm > 0 ? (product - signalSum * referenceSum / n) / norm : 0
                }
            }
        }
        return result
    }

    /// Means of consecutive blocks of `block` samples (a last partial block is dropped).
    static func blockMeans(_ values: [Double], block: Int) -> [Double] {
        (0..<(values.count / block)).map { index in
            var total = 0.0
            for offset in 0..<block { total += values[index * block + offset] }
            return total / Double(block)
        }
    }
}
