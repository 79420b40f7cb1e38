import NagiMath

/// Reads a heart-rate record against the session it was breathed to and finds the pace at which heart rate
/// swings most with the breath: per step the mean heart rate, the peak-to-trough swing per breath, the power
/// and peak of the 0.04–0.15 Hz band of the 4 Hz cubic-resampled RR series, and the phase of heart rate to
/// breathing (Shaffer & Meehan 2020); then the step that wins on them together.
public struct ResonanceAnalysis: Sendable {
    /// Where the session starts in the record.
    public enum Start: Sendable, Equatable {
        /// Seconds after the record's first beat began.
        case secondsIntoRecord(Double)
        /// A time on the record's clock (its timestamps).
        case clock(ClockTime)
        /// Found by cross-correlating heart rate with the breathing.
        case automatic
    }

    /// The low-frequency band, Hz.
    public static let lowFrequencyBand = 0.04...0.15
    /// The high-frequency band, Hz (strictly above LF).
    public static let highFrequencyBand = 0.150001...0.4
    /// The most artefacts a record may hold, as a fraction of its beats.
    public static let artefactLimit = 0.20
    /// The most artefacts a step may hold before it is left out of the comparison, as a fraction of its beats.
    public static let stepArtefactLimit = 0.10
    /// Lost time longer than this (about four beats) is a gap: the step it falls in is left out, seconds.
    public static let gapSeconds = 3.0
    /// A record shorter than this many seconds, or with fewer beats than `minimumBeatCount`, is too short.
    public static let minimumRecordSeconds = 60.0
    public static let minimumBeatCount = 50
    /// How much of the session may lie outside the record (a recorder started or stopped late), seconds.
    public static let coverageToleranceSeconds = 5.0
    /// Below this correlation `--align auto` found no breathing in the heart rate.
    public static let minimumAlignmentCorrelation = 0.1

    public var breathing: PacedBreathing
    public var start: Start
    /// Seconds left out at the start of every step, while the heart settles into the new pace.
    public var settleSeconds: Double
    public var cleaner = ArtefactCleaner()

    public init(breathing: PacedBreathing, start: Start, settleSeconds: Double = 30) {
        self.breathing = breathing
        self.start = start
        self.settleSeconds = settleSeconds
    }

    /// Analyses `record`; throws a one-line bad-data error for a record too short, with too many artefacts,
    /// or not covering the session.
    public func analyze(_ record: RRRecord) throws(HeartRhythmError) -> ResonanceReport {
        let raw = record.intervalsMilliseconds
        // Beat k ends at its timestamp when the file has them (lost beats leave a gap in time), else at the sum of
        // the intervals before it and its own (raw: a missed beat keeps its time).
        var notes: [String] = []
        var beatTimes = [Double](repeating: 0, count: raw.count)
        var elapsed = 0.0
        for (index, interval) in raw.enumerated() {
            elapsed += interval / 1000
            beatTimes[index] = elapsed
        }
        if let stamped = record.beatSeconds, stamped.count == raw.count {
            if zip(stamped, stamped.dropFirst()).allSatisfy({ $0 < $1 }) {
                beatTimes = stamped
            } else {
                notes.append("the record's timestamps do not increase beat by beat; its intervals place the beats instead")
            }
        }
        let recordSeconds = beatTimes.last ?? 0
        guard raw.count >= Self.minimumBeatCount, recordSeconds >= Self.minimumRecordSeconds else {
            throw .badData("the record is too short: \(raw.count) beat\(raw.count == 1 ? "" : "s") over \(Self.clock(recordSeconds)); at least \(Self.minimumBeatCount) beats and \(Int(Self.minimumRecordSeconds)) s are needed")
        }
        let cleaned = cleaner.clean(raw)
        let fraction = Double(cleaned.artefactIndices.count) / Double(raw.count)
        guard fraction <= Self.artefactLimit else {
            throw .badData("\(cleaned.artefactIndices.count) of \(raw.count) beats (\(Int((fraction * 100).rounded())) %) are artefacts, more than \(Int(Self.artefactLimit * 100)) %: check the strap's contact and record again")
        }
        let gaps = Self.gaps(beatTimes: beatTimes, intervalsMilliseconds: raw, limitSeconds: Self.gapSeconds)
        let rate = ResonanceReport.sampleRateHz
        let sampleCount = Int(recordSeconds * rate)
        let spline = CubicSpline(xs: beatTimes, ys: cleaned.intervalsMilliseconds)
        let intervals = spline.sample(from: 0, step: 1 / rate, count: sampleCount)
        let heartRate = intervals.map { 60_000 / $0 }

        let sessionSeconds = breathing.durationSeconds
        let offset: Double
        let placement: ResonanceReport.Placement
        switch start {
        case let .secondsIntoRecord(seconds):
            offset = seconds
            placement = .given
        case let .clock(time):
            guard let origin = record.startClock else {
                throw .usage("the record has no timestamps, so --start cannot be a clock time; give seconds into the record, or --align auto")
            }
            offset = time.seconds(since: origin)
            placement = .given
        case .automatic:
            // The session may begin before the recorder (up to its first settling time) or end at the record's end.
            let earliest = -(settleSeconds + Self.coverageToleranceSeconds)
            let latest = recordSeconds + Self.coverageToleranceSeconds - sessionSeconds
            guard latest >= earliest else {
                throw .badData("the record (\(Self.clock(recordSeconds))) is shorter than the session (\(Self.clock(sessionSeconds))): it cannot hold the whole session")
            }
            let reference = breathing.levels(sampleRateHz: rate, count: Int(sessionSeconds * rate))
            let longestBreath = breathing.steps.map { $0.breathsPerMinute > 0 ? 60 / $0.breathsPerMinute : 0 }.max() ?? 10
            guard var found = SessionAligner().align(heartRate: heartRate, breathing: reference, sampleRateHz: rate, earliestSeconds: earliest, latestSeconds: latest, breathSeconds: longestBreath) else {
                throw .badData("could not align the record with the session")
            }
            guard found.correlation >= Self.minimumAlignmentCorrelation else {
                throw .badData("the heart rate does not follow the paced breathing anywhere in the record (best correlation \(Self.decimal(found.correlation))): give --start")
            }
            if let chosen = chooseCandidate(found.candidates, spline: spline) {
                found.choose(chosen.candidate)
                found.heartDelaySeconds = chosen.delaySeconds
            }
            offset = found.offsetSeconds
            placement = .found(found)
        }
        let firstAnalysed = (breathing.steps.first?.startSeconds ?? 0) + settleSeconds
        let lastAnalysed = breathing.steps.last?.endSeconds ?? sessionSeconds
        if offset + lastAnalysed <= 0 || offset + firstAnalysed >= recordSeconds {
            throw .badData("the record (\(Self.clock(recordSeconds))) does not overlap the session, which starts \(Self.signedSeconds(offset)) into it")
        }
        if offset + firstAnalysed < -Self.coverageToleranceSeconds || offset + lastAnalysed > recordSeconds + Self.coverageToleranceSeconds {
            let from = max(0, -offset), to = min(sessionSeconds, recordSeconds - offset)
            throw .badData("the record covers only \(Self.clock(from))–\(Self.clock(to)) of the session (\(Self.clock(sessionSeconds))), which starts \(Self.signedSeconds(offset)) into it")
        }

        if !gaps.isEmpty {
            let listed = gaps.prefix(6).map { "\(Self.decimal($0.upperBound - $0.lowerBound)) s at \(Self.clock($0.lowerBound))" }
            let lost = gaps.reduce(0) { $0 + $1.upperBound - $1.lowerBound }
            notes.append("\(gaps.count) gap\(gaps.count == 1 ? "" : "s") in the record where beats were lost (\(Self.decimal(lost)) s in all): " + listed.joined(separator: ", ") + (gaps.count > 6 ? ", …" : ""))
        }
        let artefacts = Set(cleaned.artefactIndices)
        var steps = breathing.steps.map { step in
            var metrics = metrics(of: step, offset: offset, spline: spline)
            let from = offset + metrics.startSeconds, to = offset + metrics.endSeconds
            // The beats that end inside the window, and the variability of their (corrected) intervals.
            let inside = beatTimes.indices.filter { beatTimes[$0] > from && beatTimes[$0] <= to }
            metrics.beatCount = inside.count
            metrics.artefactCount = inside.filter { artefacts.contains($0) }.count
            let values = inside.map { cleaned.intervalsMilliseconds[$0] }
            if values.count >= 2 {
                let mean = values.reduce(0, +) / Double(values.count)
                metrics.sdnnMilliseconds = (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
                // Successive differences only between beats that follow each other in the record.
                let differences = zip(inside, inside.dropFirst()).filter { $1 == $0 + 1 }.map { cleaned.intervalsMilliseconds[$1] - cleaned.intervalsMilliseconds[$0] }
                if !differences.isEmpty {
                    metrics.rmssdMilliseconds = (differences.reduce(0) { $0 + $1 * $1 } / Double(differences.count)).squareRoot()
                }
            }
            if let gap = gaps.first(where: { $0.upperBound > from && $0.lowerBound < to }) {
                metrics.excludedReason = "a gap of \(Self.decimal(gap.upperBound - gap.lowerBound)) s in the record at \(Self.clock(gap.lowerBound)) (beats lost)"
            } else if metrics.beatCount > 0, Double(metrics.artefactCount) > Self.stepArtefactLimit * Double(metrics.beatCount) {
                metrics.excludedReason = "\(metrics.artefactCount) of its \(metrics.beatCount) beats are artefacts (\(Int((Double(metrics.artefactCount) * 100 / Double(metrics.beatCount)).rounded())) %, more than \(Int(Self.stepArtefactLimit * 100)) %)"
            }
            if let reason = metrics.excludedReason { notes.append("\(metrics.label) left out: \(reason)") }
            return metrics
        }
        var decision = ResonanceVerdict.decide(&steps)
        if case let .found(alignment) = placement, !alignment.isClear, decision.clear, let best = decision.bestIndex {
            // A place in the record that another fits nearly as well: the steps may be misplaced.
            decision.clear = false
            decision.text = "\(Self.rateText(steps[best].breathsPerMinute)) breaths/min, likely: the session's place in the record is unclear; give --start to be sure"
        }
        return ResonanceReport(
            offsetSeconds: offset, placement: placement, beatCount: raw.count, artefactCount: cleaned.artefactIndices.count,
            recordSeconds: recordSeconds, formatDescription: record.formatDescription, steps: steps, decision: decision,
            notes: notes, heartRate: heartRate
        )
    }

    /// Among the correlation's peaks, the one where the heart behaves as a baroreflex does: in phase with the breath
    /// at the step it swings most in (within `HeartLag.phaseToleranceDegrees`), lagging more at faster paces by a
    /// delay within `HeartLag.delayRangeSeconds`; of those, the best correlated. Nil (keep the highest peak) when
    /// none fits or the session has one pace.
    func chooseCandidate(_ candidates: [SessionAligner.Candidate], spline: CubicSpline) -> (candidate: SessionAligner.Candidate, delaySeconds: Double)? {
        guard breathing.steps.count > 1 else { return nil }
        var fitting: [(candidate: SessionAligner.Candidate, delaySeconds: Double)] = []
        for candidate in candidates.prefix(5) {
            let steps = breathing.steps.map { metrics(of: $0, offset: candidate.offsetSeconds, spline: spline) }
            guard let lag = HeartLag.fit(steps) else { continue }
            if abs(lag.phaseAtStrongestDegrees) <= HeartLag.phaseToleranceDegrees, HeartLag.delayRangeSeconds.contains(lag.delaySeconds) {
                fitting.append((candidate, lag.delaySeconds))
            }
        }
        return fitting.max { $0.candidate.correlation < $1.candidate.correlation }
    }

    /// Where the record lost beats, seconds from its first beat: a stamp later than the one before it by more
    /// than its own interval and `limitSeconds` (a few beats), or one interval longer than `limitSeconds`.
    static func gaps(beatTimes: [Double], intervalsMilliseconds: [Double], limitSeconds: Double) -> [Range<Double>] {
        var gaps: [Range<Double>] = []
        for index in beatTimes.indices {
            let interval = intervalsMilliseconds[index] / 1000
            let previous = index > 0 ? beatTimes[index - 1] : 0
            let beatStart = beatTimes[index] - interval
            if beatStart - previous > limitSeconds {
                gaps.append(previous..<beatStart)
            } else if interval > limitSeconds {
                gaps.append(beatStart..<beatTimes[index])
            }
        }
        return gaps
    }

    /// The figures of one step: the RR series resampled at 4 Hz over exactly the step's window (less the
    /// settling time), placed at `offset`. The window is sampled from its own start, not from the record's
    /// 4 Hz grid, so a shift of the start by less than a sample moves the samples, never the window's length.
    func metrics(of step: PacedBreathing.Step, offset: Double, spline: CubicSpline) -> StepMetrics {
        let rate = ResonanceReport.sampleRateHz
        let windowStart = min(step.startSeconds + settleSeconds, step.endSeconds)
        // Rounded to the nearest sample: the steps' ends carry microsecond fractions of the schedule's frames.
        let count = Int(((step.endSeconds - windowStart) * rate).rounded())
        guard count >= 8 else {
            return StepMetrics(label: step.label, breathsPerMinute: step.breathsPerMinute, startSeconds: windowStart, endSeconds: step.endSeconds, meanHeartRate: 0, peakToTrough: 0, lowFrequencyPower: 0, peakFrequencyHz: 0, peakDensity: 0, phaseDegrees: 180)
        }
        let window = spline.sample(from: offset + windowStart, step: 1 / rate, count: count)
        let heart = window.map { 60_000 / $0 }
        let meanHeartRate = heart.reduce(0, +) / Double(heart.count)

        var swings: [Double] = []
        var breathSwings: [Double] = []
        for (breathStart, breathEnd) in zip(step.breathStartSeconds, step.breathStartSeconds.dropFirst()) where breathStart >= windowStart {
            let low = max(0, Int(((breathStart - windowStart) * rate - 1e-6).rounded(.up)))
            let high = min(count, Int(((breathEnd - windowStart) * rate + 1e-6).rounded(.down)))
            guard high - low >= 2 else { continue }
            let breath = heart[low..<high]
            swings.append((breath.max() ?? 0) - (breath.min() ?? 0))
            breathSwings.append(Self.swingAtFrequency(breath, frequencyHz: step.breathsPerMinute / 60, sampleRateHz: rate))
        }
        let spectrum = WelchSpectrum(samples: window, sampleRateHz: rate)
        let peak = spectrum.peak(in: Self.lowFrequencyBand)

        // Each signal's component at the breathing frequency: its angle is the signal's phase there.
        let frequency = step.breathsPerMinute / 60
        var heartCos = 0.0, heartSin = 0.0, breathCos = 0.0, breathSin = 0.0
        let breathLevels = (0..<count).map { breathing.level(atSeconds: windowStart + Double($0) / rate) }
        let breathMean = breathLevels.reduce(0, +) / Double(breathLevels.count)
        for slot in 0..<count {
            let angle = 2 * Double.pi * frequency * (windowStart + Double(slot) / rate)
            let (c, s) = (cos(angle), sin(angle))
            let heartValue = heart[slot] - meanHeartRate
            let breathValue = breathLevels[slot] - breathMean
            heartCos += heartValue * c
            heartSin += heartValue * s
            breathCos += breathValue * c
            breathSin += breathValue * s
        }
        // For x(t) = cos(ωt − θ) the projections on cos ωt and sin ωt are ∝ cos θ and sin θ: the angle is the delay.
        var lag = (atan2(heartSin, heartCos) - atan2(breathSin, breathCos)) * 180 / Double.pi
        while lag > 180 { lag -= 360 }
        while lag <= -180 { lag += 360 }

        let lowFrequencyPower = spectrum.power(in: Self.lowFrequencyBand)
        let highFrequencyPower = spectrum.power(in: Self.highFrequencyBand)
        var metrics = StepMetrics(
            label: step.label, breathsPerMinute: step.breathsPerMinute, startSeconds: windowStart, endSeconds: step.endSeconds,
            meanHeartRate: meanHeartRate, peakToTrough: swings.isEmpty ? 0 : swings.reduce(0, +) / Double(swings.count),
            lowFrequencyPower: lowFrequencyPower, peakFrequencyHz: peak.frequencyHz, peakDensity: peak.density,
            phaseDegrees: lag
        )
        metrics.breathSwings = breathSwings
        metrics.lowFrequencyShare = lowFrequencyPower + highFrequencyPower > 0 ? lowFrequencyPower / (lowFrequencyPower + highFrequencyPower) : 0
        return metrics
    }

    /// Twice the amplitude of the sinusoid at `frequencyHz` best fitting `values` (one whole breath, mean removed):
    /// the breath's swing at the paced rate, beats a minute.
    static func swingAtFrequency(_ values: ArraySlice<Double>, frequencyHz: Double, sampleRateHz: Double) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        var cosine = 0.0, sine = 0.0, cc = 0.0, ss = 0.0, cs = 0.0, yc = 0.0, ys = 0.0
        for (slot, value) in values.enumerated() {
            let angle = 2 * Double.pi * frequencyHz * Double(slot) / sampleRateHz
            let (c, s) = (cos(angle), sin(angle))
            cosine += c
            sine += s
            cc += c * c
            ss += s * s
            cs += c * s
            yc += (value - mean) * c
            ys += (value - mean) * s
        }
        // Least squares for y ≈ a·cos + b·sin (samples need not span the period exactly).
        let count = Double(values.count)
        cc -= cosine * cosine / count
        ss -= sine * sine / count
        cs -= cosine * sine / count
        let determinant = cc * ss - cs * cs
        guard determinant > 1e-12 else { return 0 }
        let a = (yc * ss - ys * cs) / determinant
        let b = (ys * cc - yc * cs) / determinant
        return 2 * (a * a + b * b).squareRoot()
    }

    /// A rate as people write it: 6, 5.5, 4.75.
    public static func rateText(_ rate: Double) -> String {
        var text = String((rate * 1000).rounded() / 1000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// "m:ss", or "h:mm:ss" from an hour, for seconds.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let hours = whole / 3600, minutes = whole / 60 % 60, rest = whole % 60
        let tail = (rest < 10 ? "0" : "") + "\(rest)"
        return hours > 0 ? "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + tail : "\(minutes):" + tail
    }

    static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return (hundredths < 0 ? "-" : "") + "\(abs(hundredths) / 100)." + (abs(hundredths) % 100 < 10 ? "0" : "") + "\(abs(hundredths) % 100)"
    }

    static func signedSeconds(_ seconds: Double) -> String {
        (seconds < 0 ? "-" : "") + clock(abs(seconds))
    }
}
