/// Finds where a session starts in a heart-rate record by cross-correlating the heart rate with the paced
/// breathing: the offset at which the two move together most (heart rate rises with the inhale).
///
/// A coarse search on 1 Hz block means keeps a 2-hour record fast (O(record × session) at 1 Hz, a few
/// million products), then the best offset is refined on the 4 Hz series within ±2 s.
public struct SessionAligner: Sendable {
    /// What the search found.
    public struct Alignment: Sendable, Equatable {
        /// Where the session starts, in seconds from the record's first beat.
        public var offsetSeconds: Double
        /// The normalised correlation (−1…1) of heart rate and breathing there.
        public var correlation: Double
        /// The best correlation at any offset more than `separationSeconds` away, and where.
        public var runnerUpCorrelation: Double
        public var runnerUpOffsetSeconds: Double
        /// How clearly the offset stood out: the best correlation over the runner-up's (∞ when that is ≤ 0).
        public var clarity: Double {
            runnerUpCorrelation > 0 ? correlation / runnerUpCorrelation : .infinity
        }
        /// Whether the offset stands out: its correlation a fifth above any other more than 5 s away.
        public var isClear: Bool { clarity >= 1.2 }
    }

    /// How far a rival offset must be from the best to count as another candidate, in seconds.
    public var separationSeconds = 5.0

    public init() {}

    /// Aligns `heartRate` (samples at `sampleRateHz` from the record's first beat) with `breathing` (the level,
    /// at the same rate, from the session start). The session must fit in the record.
    public func align(heartRate: [Double], breathing: [Double], sampleRateHz: Double) -> Alignment? {
        let block = max(1, Int(sampleRateHz.rounded()))
        let coarseHeart = Self.blockMeans(heartRate, block: block)
        let coarseBreath = Self.blockMeans(breathing, block: block)
        guard coarseHeart.count >= coarseBreath.count, !coarseBreath.isEmpty else { return nil }
        let coarse = Self.correlations(signal: coarseHeart, reference: coarseBreath, offsets: 0...(coarseHeart.count - coarseBreath.count))
        guard let coarseBest = coarse.indices.max(by: { coarse[$0] < coarse[$1] }) else { return nil }
        let finestLast = heartRate.count - breathing.count
        guard finestLast >= 0 else { return nil }
        let low = max(0, (coarseBest - 2) * block), high = min(finestLast, (coarseBest + 2) * block)
        guard low <= high else { return nil }
        let fine = Self.correlations(signal: heartRate, reference: breathing, offsets: low...high)
        guard let fineBest = fine.indices.max(by: { fine[$0] < fine[$1] }) else { return nil }
        let separation = Int((separationSeconds).rounded(.up))
        var runnerUp = (index: coarseBest, value: -Double.infinity)
        for (index, value) in coarse.enumerated() where abs(index - coarseBest) > separation && value > runnerUp.value {
            runnerUp = (index, value)
        }
        return Alignment(
            offsetSeconds: Double(low + fineBest) / sampleRateHz,
            correlation: fine[fineBest],
            runnerUpCorrelation: runnerUp.value.isFinite ? runnerUp.value : 0,
            runnerUpOffsetSeconds: Double(runnerUp.index)
        )
    }

    /// Pearson correlation of `reference` with each window of `signal` starting at an offset in `offsets`.
    static func correlations(signal: [Double], reference: [Double], offsets: ClosedRange<Int>) -> [Double] {
        let length = reference.count
        guard length > 1, offsets.lowerBound >= 0, offsets.upperBound + length <= signal.count else { return [] }
        let referenceMean = reference.reduce(0, +) / Double(length)
        let centred = reference.map { $0 - referenceMean }
        let referenceNorm = centred.reduce(0) { $0 + $1 * $1 }.squareRoot()
        // Running sums give each window's mean and energy in O(1).
        var sums = [Double](repeating: 0, count: signal.count + 1)
        var squares = [Double](repeating: 0, count: signal.count + 1)
        for (index, value) in signal.enumerated() {
            sums[index + 1] = sums[index] + value
            squares[index + 1] = squares[index] + value * value
        }
        var result = [Double](repeating: 0, count: offsets.count)
        signal.withUnsafeBufferPointer { signal in
            centred.withUnsafeBufferPointer { centred in
                for (slot, offset) in offsets.enumerated() {
                    var product = 0.0
                    for index in 0..<length { product += signal[offset + index] * centred[index] }
                    let sum = sums[offset + length] - sums[offset]
                    let energy = squares[offset + length] - squares[offset] - sum * sum / Double(length)
                    let norm = energy > 0 ? energy.squareRoot() * referenceNorm : 0
                    result[slot] = norm > 0 ? product / norm : 0
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
