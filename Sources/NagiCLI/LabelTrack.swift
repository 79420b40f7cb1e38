import Breath

/// An Audacity label track: one line per phase, `start<TAB>end<TAB>label`, seconds with six decimals.
/// Labels are the words a listener uses: inhale, hold, exhale.
enum LabelTrack {
    /// The label track text for `schedule`.
    static func text(for schedule: Schedule) -> String {
        var lines = ""
        lines.reserveCapacity(schedule.phases.count * 32)
        for phase in schedule.phases {
            lines += "\(sixDecimals(phase.startMicroseconds))\t\(sixDecimals(phase.endMicroseconds))\t\(phase.kind.displayName)\n"
        }
        return lines
    }

    /// Seconds with exactly six decimals ("4.000000").
    static func sixDecimals(_ microseconds: Int64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
    }
}
