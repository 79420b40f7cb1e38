import Breath

/// The promises a Schedule makes, checked from scratch: contiguous phases, boundaries at
/// round(cumulative µs × rate / 10⁶) computed without overflow, levels finite in [0, 1], limits kept.
///
/// Shared by the tests (`#expect(violations.isEmpty)`) and the fuzz targets, which trap on the first
/// violation; scripts/fuzz.sh compiles this file into each target.
public struct ScheduleInvariants {
    /// What failed, one line each (at most `limit`).
    public private(set) var violations: [String] = []
    private static let limit = 20

    private mutating func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition && violations.count < Self.limit { violations.append(message()) }
    }

    /// The violations of `schedule`, built from `session` when given (its measured length must match).
    public static func violations(of schedule: Schedule, session: Session?, context: String, allowZeroLength: Bool = false) -> [String] {
        var invariants = ScheduleInvariants()
        invariants.check(schedule, session: session, context: context, allowZeroLength: allowZeroLength)
        return invariants.violations
    }

    /// The frame for `microseconds` at `sampleRate`, rounded half up, split so no product overflows.
    public static func expectedFrame(microseconds: Int64, sampleRate: Int) -> Int64 {
        let rate = Int64(sampleRate)
        let wholeSeconds = microseconds / 1_000_000
        let remainder = microseconds % 1_000_000
        return wholeSeconds * rate + (remainder * rate + 500_000) / 1_000_000
    }

    /// `allowZeroLength` admits phases of 0 µs, which only sessions built through the API can hold.
    mutating func check(_ schedule: Schedule, session: Session?, context: String, allowZeroLength: Bool) {
        let rate = schedule.sampleRate
        let phases = schedule.phases
        require(!phases.isEmpty || allowZeroLength, "\(context): no phases")
        require(phases.count <= SessionExpander.phaseLimit, "\(context): \(phases.count) phases")
        var cumulative: Int64 = 0
        var previousEnd: Int64 = 0
        var previousCycle = 0
        var previousLevel = 0.0
        for (index, phase) in phases.enumerated() {
            require(phase.durationMicroseconds > 0 || (allowZeroLength && phase.durationMicroseconds == 0), "\(context): phase \(index) lasts \(phase.durationMicroseconds) µs")
            require(phase.startMicroseconds == cumulative, "\(context): phase \(index) starts at \(phase.startMicroseconds), expected \(cumulative)")
            cumulative += phase.durationMicroseconds
            require(cumulative <= Microseconds.sessionLimit, "\(context): \(cumulative) µs passes the 24 h limit")
            require(phase.startFrame == previousEnd, "\(context): phase \(index) starts on frame \(phase.startFrame), previous ended \(previousEnd)")
            let expected = Self.expectedFrame(microseconds: cumulative, sampleRate: rate)
            require(phase.endFrame == expected, "\(context): phase \(index) ends on \(phase.endFrame), round(cum·rate/1e6) = \(expected)")
            require(phase.endFrame >= phase.startFrame, "\(context): phase \(index) ends before it starts")
            require(phase.startLevel.isFinite && (0...1).contains(phase.startLevel), "\(context): phase \(index) start level \(phase.startLevel)")
            require(phase.endLevel.isFinite && (0...1).contains(phase.endLevel), "\(context): phase \(index) end level \(phase.endLevel)")
            require(phase.startLevel == previousLevel, "\(context): phase \(index) starts at level \(phase.startLevel), previous ended at \(previousLevel)")
            require(phase.cycleIndex >= previousCycle, "\(context): cycle index falls at phase \(index)")
            previousEnd = phase.endFrame
            previousCycle = phase.cycleIndex
            previousLevel = phase.endLevel
        }
        require(schedule.totalFrames == previousEnd, "\(context): totalFrames \(schedule.totalFrames) != last endFrame \(previousEnd)")
        require(schedule.totalMicroseconds == cumulative, "\(context): totalMicroseconds \(schedule.totalMicroseconds) != \(cumulative)")
        require(schedule.cycleCount == (phases.isEmpty ? 0 : previousCycle + 1), "\(context): cycleCount \(schedule.cycleCount), last cycle index \(previousCycle)")
        if let session {
            if let measured = try? SessionExpander.totalMicroseconds(of: session.stages) {
                require(measured == cumulative, "\(context): measured \(measured) µs, expanded \(cumulative) µs")
            } else {
                require(false, "\(context): a scheduled session fails to measure")
            }
        }
        checkLevels(schedule, context: context)
    }

    /// Samples the level curve (at most ~600 phases, evenly spread): finite, in [0, 1], between the
    /// phase's start and end levels, and found in the right phase.
    mutating func checkLevels(_ schedule: Schedule, context: String) {
        let phases = schedule.phases
        let stride = max(1, phases.count / 600)
        var index = 0
        while index < phases.count {
            let phase = phases[index]
            let low = min(phase.startLevel, phase.endLevel) - 1e-12
            let high = max(phase.startLevel, phase.endLevel) + 1e-12
            if phase.frameCount > 0 {
                for frame in [phase.startFrame, phase.startFrame + phase.frameCount / 3, phase.startFrame + phase.frameCount / 2, phase.endFrame - 1] {
                    let found = schedule.phaseIndex(containing: frame)
                    require(found == index, "\(context): frame \(frame) found in phase \(found), expected \(index)")
                    let level = schedule.level(at: frame)
                    require(level.isFinite && level >= 0 && level <= 1, "\(context): level \(level) at frame \(frame)")
                    require(level >= low && level <= high, "\(context): level \(level) at frame \(frame) outside phase \(index)'s \(phase.startLevel)...\(phase.endLevel)")
                }
            }
            index += stride
        }
        let end = schedule.level(at: schedule.totalFrames)
        require(end.isFinite && (0...1).contains(end), "\(context): level \(end) at the end")
        let progress = schedule.sessionProgress(at: schedule.totalFrames / 2)
        require(progress.isFinite && (0...1).contains(progress), "\(context): session progress \(progress)")
        require(schedule.breathsPerMinute.isFinite && schedule.breathsPerMinute >= 0, "\(context): breaths per minute \(schedule.breathsPerMinute)")
    }
}
