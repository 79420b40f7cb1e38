import NagiKit
import Breath
import LiveAudio

/// Where `n`, `b` and enter take the listener: the jumps of live playback, decided from the schedule alone.
///
/// A skip unit is a round (Wim Hof's), else a labelled stage (resonance steps), else a breath cycle (a single
/// pattern or ramp). `n` goes to the next unit's first frame and `b` to the current one's, both at the next phase
/// boundary (so no breath is cut); `n` in the last unit goes to the end of the breathing (the release plays and the
/// session ends, as if played through). In an open hold the boundary is now: the listener decides when it ends,
/// and enter ends it, going on to the phase after it.
struct LiveNavigator {
    private let schedule: Schedule
    /// The first phase of each skip unit, in order.
    private let unitStarts: [Int]
    /// Frames a boundary must lie past the next frame to be reached without cutting the fade before a jump.
    private let leadFrameCount: Int64

    init(schedule: Schedule, leadFrameCount: Int64) {
        self.schedule = schedule
        self.leadFrameCount = leadFrameCount
        let phases = schedule.phases
        var starts: [Int] = []
        let hasRounds = phases.contains { $0.roundIndex != nil }
        let hasStages = phases.contains { $0.stageLabel != nil }
        for index in phases.indices {
            let phase = phases[index]
            let isStart: Bool
            if index == 0 {
                isStart = true
            } else if hasRounds {
                isStart = phase.roundIndex != phases[index - 1].roundIndex
            } else if hasStages {
                isStart = phase.stageLabel != nil
            } else {
                isStart = phase.cycleIndex != phases[index - 1].cycleIndex
            }
            if isStart { starts.append(index) }
        }
        unitStarts = starts
    }

    /// The jump `key` asks for when the next frame to play is `nextFrame`; nil when it asks for none.
    func jump(for key: LiveKey, nextFrame: Int64) -> PlaybackJump? {
        guard !schedule.phases.isEmpty, nextFrame < schedule.totalFrames else { return nil }
        let phases = schedule.phases
        let current = schedule.phaseIndex(containing: nextFrame)
        if key == .endHold {
            guard phases[current].isOpen else { return nil }
            return PlaybackJump(atFrame: nextFrame, toFrame: phases[current].endFrame)
        }
        guard key == .nextStage || key == .stageStart else { return nil }
        // The phase that ends where the jump is made, and that frame.
        var ending = current
        var atFrame: Int64
        if phases[current].isOpen {
            atFrame = nextFrame
        } else {
            while phases[ending].endFrame < nextFrame + leadFrameCount, ending + 1 < phases.count {
                ending += 1
            }
            atFrame = phases[ending].endFrame
            if phases[ending].isOpen { atFrame = phases[ending].startFrame + leadFrameCount }
        }
        let unit = unitIndex(ofPhase: ending)
        let toFrame: Int64
        if key == .nextStage {
            toFrame = unit + 1 < unitStarts.count ? phases[unitStarts[unit + 1]].startFrame : schedule.totalFrames
        } else {
            toFrame = phases[unitStarts[unit]].startFrame
        }
        // Going on to where playback goes anyway is no jump.
        return toFrame == atFrame ? nil : PlaybackJump(atFrame: atFrame, toFrame: toFrame)
    }

    /// The skip unit phase `index` belongs to.
    private func unitIndex(ofPhase index: Int) -> Int {
        var low = 0
        var high = unitStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if unitStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
