/// The result of `ResonanceAnalysis`: every figure of every step, the alignment and the verdict.
public struct ResonanceReport: Sendable, Equatable {
    /// How the session was placed in the record.
    public enum Placement: Sendable, Equatable {
        /// Given (`--start`).
        case given
        /// Found by cross-correlation.
        case found(SessionAligner.Alignment)
    }

    /// Where the session starts, seconds after the record's first beat.
    public var offsetSeconds: Double
    public var placement: Placement
    /// Beats in the record, and how many were artefacts replaced by interpolation.
    public var beatCount: Int
    public var artefactCount: Int
    /// The record's length, seconds.
    public var recordSeconds: Double
    /// The layout the record was read as.
    public var formatDescription: String
    public var steps: [StepMetrics]
    /// The decision: the best step, whether it is clear, or why there is none.
    public var decision: ResonanceVerdict
    /// The index of the best step in `steps`, nil when there is no verdict.
    public var bestIndex: Int? { decision.bestIndex }
    /// The best step's score less its better neighbour's, as a fraction of its own (nil with one step).
    public var margin: Double? { decision.margin }
    /// The plain-words verdict: "5.5 breaths/min, clearly", "5.5 breaths/min, likely (5 close): repeat another
    /// day to be sure", or "no verdict: " and why.
    public var verdict: String { decision.text }
    /// What a reader should know besides the verdict: steps left out, gaps in the record.
    public var notes: [String]
    /// The 4 Hz heart-rate series (beats a minute) from the record's first beat, for a plot.
    public var heartRate: [Double]
    public static let sampleRateHz = 4.0
}
