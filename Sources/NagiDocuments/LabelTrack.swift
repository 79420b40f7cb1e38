import Breath

/// An Audacity label track: one line per phase, `start<TAB>end<TAB>label`, seconds with six decimals; a
/// labelled stage (a resonance-steps rate) also gets a line spanning the whole stage, just before its first phase.
/// Labels are the words a listener uses: inhale, hold, exhale.
public enum LabelTrack {
    /// The label track text for `schedule`, every time `offsetMicroseconds` later (a countdown's lead-in).
    public static func text(for schedule: Schedule, offsetMicroseconds: Int64 = 0) -> String {
        var lines = ""
        lines.reserveCapacity(schedule.phases.count * 32)
        for (index, phase) in schedule.phases.enumerated() {
            if let label = phase.stageLabel {
                let lastIndex = min(schedule.phases.count, index + (phase.stagePhaseCount ?? 1)) - 1
                lines += "\(sixDecimals(offsetMicroseconds + phase.startMicroseconds))\t\(sixDecimals(offsetMicroseconds + schedule.phases[lastIndex].endMicroseconds))\t\(oneLine(label))\n"
            }
            lines += "\(sixDecimals(offsetMicroseconds + phase.startMicroseconds))\t\(sixDecimals(offsetMicroseconds + phase.endMicroseconds))\t\(phase.kind.displayName)\n"
        }
        return lines
    }

    /// Seconds with exactly six decimals ("4.000000").
    public static func sixDecimals(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }

    /// A label as one field: labels are printable text already (`SpokenText`), but a tab would split the line.
    private static func oneLine(_ label: String) -> String {
        String(label.map { $0 == "\t" ? " " : $0 })
    }
}
