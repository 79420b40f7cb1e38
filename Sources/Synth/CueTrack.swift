import Breath

/// When the chimes sound: one cue on the first frame of every phase that lasts, read from the cue bank.
/// Keeps the window of cues that can reach the next block, so each block looks at one or two cues at most.
struct CueTrack {
    private let bank: CueBank
    /// The start frame and chime table of every cue, in order.
    private let starts: [Int64]
    private let tableIndexes: [Int]
    /// The cues that may sound in the next block: `first..<end`.
    private var first = 0
    private var end = 0
    /// Whether the scratch holds samples (so it is cleared once when the last cue ends).
    private var scratchInUse = false

    /// The cues of `schedule`'s phases; none when `enabled` is false.
    init(schedule: Schedule, bank: CueBank, enabled: Bool) {
        self.bank = bank
        var starts: [Int64] = []
        var tableIndexes: [Int] = []
        if enabled {
            for phase in schedule.phases where phase.frameCount > 0 {
                starts.append(phase.startFrame)
                tableIndexes.append(CueBank.tableIndex(for: phase.kind))
            }
        }
        self.starts = starts
        self.tableIndexes = tableIndexes
    }

    /// Fills `scratch` (`frames` samples) with the chimes sounding in `blockStart..<blockStart + frames`,
    /// each read from its table at `frame − cueStart` and scaled by a gain interpolated from `startGain` to
    /// `endGain` (zeros when none sounds), and returns a bound of the scratch's peak.
    mutating func mix(
        into scratch: UnsafeMutablePointer<Float>, blockStart: Int64, frames: Int, startGain: Double, endGain: Double,
        ramp: UnsafePointer<Float>
    ) -> Float {
        let blockEnd = blockStart + Int64(frames)
        let length = Int64(bank.length)
        while end < starts.count && starts[end] < blockEnd { end += 1 }
        while first < end && starts[first] + length <= blockStart { first += 1 }
        guard first < end else {
            if scratchInUse {
                scratch.update(repeating: 0, count: frames)
                scratchInUse = false
            }
            return 0
        }
        scratch.update(repeating: 0, count: frames)
        scratchInUse = true
        let gain = Float(startGain)
        let slope = Float((endGain - startGain) / Double(frames))
        var peak: Float = 0
        for cue in first..<end {
            let cueStart = starts[cue]
            let from = max(blockStart, cueStart)
            let to = min(blockEnd, cueStart + length)
            guard from < to else { continue }
            let tableIndex = tableIndexes[cue]
            let table = UnsafePointer(bank.tables[tableIndex].base) + Int(from - cueStart)
            let offset = Int(from - blockStart)
            let target = scratch + offset
            let offsets = ramp + offset
            for index in 0..<Int(to - from) {
                target[index] += table[index] * (gain + offsets[index] * slope)
            }
            peak += bank.peaks[tableIndex] * max(abs(gain), abs(gain + Float(frames) * slope))
        }
        return peak
    }
}
