/// The promises a Schedule makes, checked from scratch: contiguous phases, boundaries at
/// round(cumulative µs × rate / 10⁶) computed without overflow, levels finite in [0, 1], limits kept.
enum ScheduleInvariants {
    /// The frame for `microseconds` at `sampleRate`, rounded half up, split so no product overflows.
    static func expectedFrame(microseconds: Int64, sampleRate: Int) -> Int64 {
        let rate = Int64(sampleRate)
        let wholeSeconds = microseconds / 1_000_000
        let remainder = microseconds % 1_000_000
        return wholeSeconds * rate + (remainder * rate + 500_000) / 1_000_000
    }

    /// Schedules `session` at `sampleRate` and checks it; a session beyond the limits may only throw
    /// `.limitExceeded`, and a session the decoder already measured (`mustSucceed`) may not throw at all.
    static func scheduleAndCheck(_ session: Session, sampleRate: Int, mustSucceed: Bool, context: String, allowZeroLength: Bool = false) {
        let schedule: Schedule
        do {
            schedule = try Schedule(session: session, sampleRate: sampleRate)
        } catch {
            fuzzCheck(!mustSucceed, "\(context): a session the decoder accepted failed to schedule at \(sampleRate) Hz: \(error)")
            fuzzCheckClean(error, allowed: { if case .limitExceeded = $0 { true } else { false } }, context)
            return
        }
        check(schedule, session: session, context: "\(context) @\(sampleRate) Hz", allowZeroLength: allowZeroLength)
    }

    /// `allowZeroLength` admits phases of 0 µs, which only sessions built through the API can hold.
    static func check(_ schedule: Schedule, session: Session, context: String, allowZeroLength: Bool = false) {
        let rate = schedule.sampleRate
        let phases = schedule.phases
        fuzzCheck(!phases.isEmpty || allowZeroLength, "\(context): no phases")
        fuzzCheck(phases.count <= SessionExpander.phaseLimit, "\(context): \(phases.count) phases")
        var cumulative: Int64 = 0
        var previousEnd: Int64 = 0
        var previousCycle = 0
        var previousLevel = 0.0
        for (index, phase) in phases.enumerated() {
            fuzzCheck(phase.durationMicroseconds > 0 || (allowZeroLength && phase.durationMicroseconds == 0), "\(context): phase \(index) lasts \(phase.durationMicroseconds) µs")
            fuzzCheck(phase.startMicroseconds == cumulative, "\(context): phase \(index) starts at \(phase.startMicroseconds), expected \(cumulative)")
            cumulative += phase.durationMicroseconds
            fuzzCheck(cumulative <= Microseconds.sessionLimit, "\(context): \(cumulative) µs passes the 24 h limit")
            fuzzCheck(phase.startFrame == previousEnd, "\(context): phase \(index) starts on frame \(phase.startFrame), previous ended \(previousEnd)")
            let expected = expectedFrame(microseconds: cumulative, sampleRate: rate)
            fuzzCheck(phase.endFrame == expected, "\(context): phase \(index) ends on \(phase.endFrame), round(cum·rate/1e6) = \(expected)")
            fuzzCheck(phase.endFrame >= phase.startFrame, "\(context): phase \(index) ends before it starts")
            fuzzCheck(phase.startLevel.isFinite && (0...1).contains(phase.startLevel), "\(context): phase \(index) start level \(phase.startLevel)")
            fuzzCheck(phase.endLevel.isFinite && (0...1).contains(phase.endLevel), "\(context): phase \(index) end level \(phase.endLevel)")
            fuzzCheck(phase.startLevel == previousLevel, "\(context): phase \(index) starts at level \(phase.startLevel), previous ended at \(previousLevel)")
            fuzzCheck(phase.cycleIndex >= previousCycle, "\(context): cycle index falls at phase \(index)")
            previousEnd = phase.endFrame
            previousCycle = phase.cycleIndex
            previousLevel = phase.endLevel
        }
        fuzzCheck(schedule.totalFrames == previousEnd, "\(context): totalFrames \(schedule.totalFrames) != last endFrame \(previousEnd)")
        fuzzCheck(schedule.totalMicroseconds == cumulative, "\(context): totalMicroseconds \(schedule.totalMicroseconds) != \(cumulative)")
        fuzzCheck(schedule.cycleCount == (phases.isEmpty ? 0 : previousCycle + 1), "\(context): cycleCount \(schedule.cycleCount), last cycle index \(previousCycle)")
        if let measured = try? SessionExpander.totalMicroseconds(of: session.stages) {
            fuzzCheck(measured == cumulative, "\(context): measured \(measured) µs, expanded \(cumulative) µs")
        } else {
            fuzzCheck(false, "\(context): a scheduled session fails to measure")
        }
        checkLevels(schedule, context: context)
    }

    /// Samples the level curve (at most ~600 phases, evenly spread): finite, in [0, 1], between the
    /// phase's start and end levels, and found in the right phase.
    static func checkLevels(_ schedule: Schedule, context: String) {
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
                    fuzzCheck(found == index, "\(context): frame \(frame) found in phase \(found), expected \(index)")
                    let level = schedule.level(at: frame)
                    fuzzCheck(level.isFinite && level >= 0 && level <= 1, "\(context): level \(level) at frame \(frame)")
                    fuzzCheck(level >= low && level <= high, "\(context): level \(level) at frame \(frame) outside phase \(index)'s \(phase.startLevel)...\(phase.endLevel)")
                }
            }
            index += stride
        }
        let end = schedule.level(at: schedule.totalFrames)
        fuzzCheck(end.isFinite && (0...1).contains(end), "\(context): level \(end) at the end")
        let progress = schedule.sessionProgress(at: schedule.totalFrames / 2)
        fuzzCheck(progress.isFinite && (0...1).contains(progress), "\(context): session progress \(progress)")
        fuzzCheck(schedule.breathsPerMinute.isFinite && schedule.breathsPerMinute >= 0, "\(context): breaths per minute \(schedule.breathsPerMinute)")
    }
}
