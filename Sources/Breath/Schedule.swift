/// A session expanded into phases with exact frame boundaries at one sample rate, and the horizon level
/// as a function of the frame index.
public struct Schedule: Sendable {
    /// The sample rates nagi accepts, in Hz.
    public static let sampleRateRange = 8000...192_000

    /// Frames per second.
    public let sampleRate: Int
    /// Every phase in order; phase k + 1 starts on the frame phase k ends.
    public let phases: [ScheduledPhase]
    /// How the level moves within a phase.
    public let easing: Easing
    /// The end of the last phase, in frames.
    public let totalFrames: Int64
    /// The end of the last phase, in microseconds.
    public let totalMicroseconds: Int64
    /// How many breath cycles the session holds.
    public let cycleCount: Int
    /// How many breaths a person counts: each breath in, a double inhale (the sigh's top-up) one breath; the
    /// cycles when the session never breathes in. Describe's text and JSON, the comment tag and the breaths a
    /// minute all read this one count.
    public let breathCount: Int

    /// Expands `session` at `sampleRate`. Every boundary is round(cumulative µs × rate / 10⁶), computed in
    /// integers from the session start, so no rounding accumulates.
    public init(session: Session, sampleRate: Int) throws(BreathError) {
        guard Self.sampleRateRange.contains(sampleRate) else {
            throw .limitExceeded(reason: "sample rate \(sampleRate) Hz is outside 8000...192000 Hz")
        }
        let timed = try SessionExpander.expand(session.stages)
        var scheduled: [ScheduledPhase] = []
        scheduled.reserveCapacity(timed.count)
        var cumulative: Int64 = 0
        var level = 0.0
        var startFrame: Int64 = 0
        for timedPhase in timed {
            let phase = timedPhase.phase
            let end = cumulative + phase.durationMicroseconds
            let endFrame = Self.frame(atMicroseconds: end, sampleRate: sampleRate)
            let target = phase.targetLevel ?? phase.kind.defaultTargetLevel ?? level
            scheduled.append(ScheduledPhase(
                kind: phase.kind,
                startMicroseconds: cumulative,
                durationMicroseconds: phase.durationMicroseconds,
                startFrame: startFrame,
                endFrame: endFrame,
                startLevel: level,
                endLevel: target,
                cycleIndex: timedPhase.cycleIndex,
                spokenWords: phase.spokenWords,
                isOpen: phase.isOpen,
                roundIndex: timedPhase.roundIndex,
                stageLabel: timedPhase.stageLabel?.label,
                stageAnnouncement: timedPhase.stageLabel?.announcement,
                stagePhaseCount: timedPhase.stagePhaseCount
            ))
            cumulative = end
            startFrame = endFrame
            level = target
        }
        self.sampleRate = sampleRate
        self.phases = scheduled
        self.easing = session.easing
        self.totalFrames = startFrame
        self.totalMicroseconds = cumulative
        self.cycleCount = (timed.last?.cycleIndex ?? -1) + 1
        self.breathCount = Self.breathCount(of: scheduled, cycleCount: cycleCount)
    }

    /// Inhales that follow no inhale (a 0 s phase between them is skipped), or `cycleCount` when there are none.
    private static func breathCount(of phases: [ScheduledPhase], cycleCount: Int) -> Int {
        var count = 0
        var previous: PhaseKind?
        for phase in phases where phase.durationMicroseconds > 0 {
            if phase.kind == .inhale && previous != .inhale { count += 1 }
            previous = phase.kind
        }
        return count > 0 ? count : cycleCount
    }

    /// The frame at which `microseconds` from the session start falls: round half up, in integers.
    /// Exact for 24 hours at 192 kHz (1.7 × 10¹⁶, far inside Int64).
    public static func frame(atMicroseconds microseconds: Int64, sampleRate: Int) -> Int64 {
        (microseconds * Int64(sampleRate) + Microseconds.perSecond / 2) / Microseconds.perSecond
    }

    /// The index of the phase sounding at `frame` (the last phase for frames at or past the end; zero-length
    /// phases are never returned for a frame inside the session).
    public func phaseIndex(containing frame: Int64) -> Int {
        var low = 0
        var high = phases.count - 1
        guard high >= 0 else { return 0 }
        if frame >= totalFrames { return high }
        // The last phase whose startFrame <= frame; zero-length phases share a start with the next one.
        while low < high {
            let middle = (low + high + 1) / 2
            if phases[middle].startFrame <= frame { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The horizon level L in [0, 1] at `frame`: eased from the phase's start level to its end level.
    public func level(at frame: Int64) -> Double {
        guard !phases.isEmpty else { return 0 }
        return level(at: frame, inPhase: phaseIndex(containing: frame))
    }

    /// The level at `frame` inside phase `index` (the renderer tracks the index itself, block by block).
    ///
    /// Called for every control block, so the phase's fields are read in place: a copy of the whole phase
    /// retains and releases its four optional strings, which was most of the cost of a seek.
    public func level(at frame: Int64, inPhase index: Int) -> Double {
        let startLevel = phases[index].startLevel
        let endLevel = phases[index].endLevel
        return startLevel + (endLevel - startLevel) * easing.value(at: progress(at: frame, inPhase: index))
    }

    /// How far `frame` is through phase `index`, in [0, 1].
    public func progress(at frame: Int64, inPhase index: Int) -> Double {
        let startFrame = phases[index].startFrame
        let frameCount = phases[index].endFrame - startFrame
        guard frameCount > 0 else { return 1 }
        let offset = frame - startFrame
        if offset <= 0 { return 0 }
        if offset >= frameCount { return 1 }
        return Double(offset) / Double(frameCount)
    }

    /// How far `frame` is through the whole session, in [0, 1].
    public func sessionProgress(at frame: Int64) -> Double {
        guard totalFrames > 0 else { return 1 }
        return min(1, max(0, Double(frame) / Double(totalFrames)))
    }

    /// Breaths per minute over the whole session (`breathCount`).
    public var breathsPerMinute: Double {
        guard totalMicroseconds > 0 else { return 0 }
        return Double(breathCount) * 60_000_000 / Double(totalMicroseconds)
    }
}
