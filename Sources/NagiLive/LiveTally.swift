import NagiKit
import Breath
import LiveAudio

/// What the listener has really practised in a live session whose place may jump (skips, an open hold ended
/// by enter): the breaths completed and each open hold's length, followed from the heard frame.
///
/// A move of the heard frame is natural when it advances as far as the frames heard do; any other move crossed a
/// jump, which was made at a phase boundary or inside an open hold (`PlaybackProgress.lastJump` says where).
struct LiveTally {
    typealias Retention = LiveSession.Retention

    private let schedule: Schedule
    /// The phase heard at the last report; `phases.count` once the breathing is over (the release).
    private var phaseIndex = 0
    private var heardFrame: Int64 = 0
    private var heardFrameWithoutJumps: Int64 = 0
    private var lastJump: PlaybackJump?
    /// Breath cycles heard to their end.
    private(set) var completedBreaths = 0
    /// Every open hold that has ended, in order.
    private(set) var retentions: [Retention] = []
    /// Whether the place ever jumped.
    private(set) var hasJumped = false

    init(schedule: Schedule) {
        self.schedule = schedule
    }

    /// Frames held so far when the heard frame is inside an open hold; nil elsewhere.
    var heldFrameCount: Int64? {
        guard phaseIndex < schedule.phases.count, heardFrame >= 0, heardFrame < schedule.totalFrames else { return nil }
        let phase = schedule.phases[phaseIndex]
        return phase.isOpen ? heardFrame - phase.startFrame : nil
    }

    /// Follows one report; returns the open hold that ended with it, if one did.
    mutating func follow(_ progress: PlaybackProgress) -> Retention? {
        guard !schedule.phases.isEmpty else { return nil }
        let natural = progress.heardFrame - heardFrame == progress.heardFrameWithoutJumps - heardFrameWithoutJumps
        let frame = progress.heardFrame
        let index = frame >= schedule.totalFrames ? schedule.phases.count : schedule.phaseIndex(containing: frame)
        defer {
            heardFrame = frame
            heardFrameWithoutJumps = progress.heardFrameWithoutJumps
            lastJump = progress.lastJump ?? lastJump
            phaseIndex = index
        }
        if !natural { hasJumped = true }
        guard index != phaseIndex || (!natural && frame < heardFrame) else { return nil }
        guard phaseIndex < schedule.phases.count else {
            // Back from the release into the breathing cannot happen (skips go forward from there): nothing to count.
            return nil
        }
        let left = schedule.phases[phaseIndex]
        var retention: Retention?
        if natural {
            // Every cycle boundary crossed was heard.
            let nextCycle = index < schedule.phases.count ? schedule.phases[index].cycleIndex : schedule.cycleCount
            completedBreaths += max(0, nextCycle - left.cycleIndex)
            if left.isOpen && index > phaseIndex {
                retention = Retention(round: roundNumber(of: phaseIndex), frameCount: left.frameCount, ending: .maximum)
            }
        } else {
            // A jump at the end of the phase left completes its cycle when the cycle ends there.
            let jumpFrame = (progress.lastJump ?? lastJump)?.atFrame ?? left.endFrame
            let cycleEnds = phaseIndex + 1 >= schedule.phases.count || schedule.phases[phaseIndex + 1].cycleIndex != left.cycleIndex
            if left.isOpen {
                retention = Retention(round: roundNumber(of: phaseIndex), frameCount: max(0, min(left.frameCount, jumpFrame - left.startFrame)), ending: .enter)
                completedBreaths += cycleEnds ? 1 : 0
            } else if jumpFrame >= left.endFrame, cycleEnds {
                completedBreaths += 1
            }
        }
        if let retention { retentions.append(retention) }
        return retention
    }

    /// The open hold the listener was in when the session was stopped, as held so far; nil outside one.
    mutating func stopped() -> Retention? {
        guard let held = heldFrameCount else { return nil }
        let retention = Retention(round: roundNumber(of: phaseIndex), frameCount: held, ending: .stop)
        retentions.append(retention)
        return retention
    }

    /// The round of phase `index` from 1, or its place among the open holds when the session has no rounds.
    private func roundNumber(of index: Int) -> Int {
        if let round = schedule.phases[index].roundIndex { return round + 1 }
        return schedule.phases[..<index].filter(\.isOpen).count + 1
    }
}
