/// What one step of the session did to the heart: the figures Shaffer & Meehan (2020) compare between paces.
public struct StepMetrics: Sendable, Equatable {
    /// The step's label ("6.5 breaths/min").
    public var label: String
    public var breathsPerMinute: Double
    /// The window analysed, in seconds from the session start (the step less its first seconds).
    public var startSeconds: Double
    public var endSeconds: Double
    /// Mean heart rate over the window, beats a minute.
    public var meanHeartRate: Double
    /// Heart rate's rise from trough to peak within each whole breath of the window, averaged (beats a minute).
    public var peakToTrough: Double
    /// Power of the 4 Hz RR series in 0.04–0.15 Hz, ms².
    public var lowFrequencyPower: Double
    /// Where that band's spectrum peaks, Hz, and the density there (ms²/Hz).
    public var peakFrequencyHz: Double
    public var peakDensity: Double
    /// How far heart rate lags the breathing at the breathing frequency, degrees in (−180, 180]: 0 when it
    /// rises and falls with the inhale and exhale, positive when it follows late.
    public var phaseDegrees: Double
    /// The swing of each whole breath at the breathing frequency: twice the amplitude of the sinusoid at the
    /// paced rate fitted to that breath's heart rate (beats a minute). Unlike the peak-to-trough range, noise
    /// does not grow it with the breath's length, so steps compare fairly.
    public var breathSwings: [Double] = []
    /// The LF band's share of the 0.04–0.4 Hz power (LF + HF): low when the heart follows a faster breath.
    public var lowFrequencyShare: Double = 0
    /// Beat-to-beat variability over the window, ms: the root mean square of successive differences, and the
    /// standard deviation of the intervals (artefacts corrected).
    public var rmssdMilliseconds: Double = 0
    public var sdnnMilliseconds: Double = 0
    /// Beats in the window, and how many of them were artefacts corrected.
    public var beatCount: Int = 0
    public var artefactCount: Int = 0
    /// Why the step was left out of the comparison (a gap in the record, too many artefacts), nil when it counts.
    public var excludedReason: String?
    /// The combined score the best step is chosen by (0…1; 1 is best on every figure).
    public var score: Double = 0

    /// Whether the LF peak lies within `ResonanceVerdict.paceToleranceBreathsPerMinute` of the paced rate.
    public var followsPace: Bool {
        abs(peakFrequencyHz * 60 - breathsPerMinute) <= ResonanceVerdict.paceToleranceBreathsPerMinute
    }
}
