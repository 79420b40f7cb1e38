import Breath

/// The breathing a session paced, in seconds from its start: its steps (labelled stages, or the whole
/// session) with their breaths, and the horizon level (0 exhaled, 1 inhaled) at any moment.
public struct PacedBreathing: Sendable {
    /// One step of the session: a labelled stage, or the whole session when it has none.
    public struct Step: Sendable, Equatable {
        /// The stage's label ("6.5 breaths/min"), or the session's name.
        public var label: String
        public var startSeconds: Double
        public var endSeconds: Double
        /// Breaths a minute: the step's breaths over its length.
        public var breathsPerMinute: Double
        /// When each breath of the step starts, and the step's end after the last.
        public var breathStartSeconds: [Double]
    }

    public let schedule: Schedule
    public let steps: [Step]

    /// The breathing of `schedule`; `name` labels the one step of a session without labelled stages.
    public init(schedule: Schedule, name: String) {
        self.schedule = schedule
        let phases = schedule.phases
        var ranges: [(label: String, phases: Range<Int>)] = []
        for (index, phase) in phases.enumerated() {
            if let label = phase.stageLabel, let count = phase.stagePhaseCount {
                ranges.append((label, index..<min(phases.count, index + count)))
            }
        }
        if ranges.isEmpty { ranges = [(name, 0..<phases.count)] }
        steps = ranges.map { range in
            let slice = phases[range.phases]
            let start = Double(slice.first?.startMicroseconds ?? 0) / 1e6
            let end = Double(slice.last?.endMicroseconds ?? 0) / 1e6
            var breathStarts: [Double] = []
            var lastCycle = -1
            for phase in slice where phase.cycleIndex != lastCycle {
                breathStarts.append(Double(phase.startMicroseconds) / 1e6)
                lastCycle = phase.cycleIndex
            }
            let perMinute = end > start ? Double(breathStarts.count) * 60 / (end - start) : 0
            breathStarts.append(end)
            return Step(label: range.label, startSeconds: start, endSeconds: end, breathsPerMinute: (perMinute * 1000).rounded() / 1000, breathStartSeconds: breathStarts)
        }
    }

    /// The session's length in seconds.
    public var durationSeconds: Double { Double(schedule.totalMicroseconds) / 1e6 }

    /// The horizon level `seconds` after the session start (held at the ends outside it).
    public func level(atSeconds seconds: Double) -> Double {
        let frame = Int64((min(max(0, seconds), durationSeconds) * Double(schedule.sampleRate)).rounded())
        return schedule.level(at: min(frame, max(0, schedule.totalFrames - 1)))
    }

    /// The level sampled every 1/`sampleRateHz` s from the session start, `count` values.
    public func levels(sampleRateHz: Double, count: Int) -> [Double] {
        (0..<count).map { level(atSeconds: Double($0) / sampleRateHz) }
    }
}
