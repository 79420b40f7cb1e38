import Breath
import NagiDocuments

/// `nagi describe`: the phases of a session with exact times and frames, as a table or JSON.
enum DescribeCommand {
    static let spec = CommandSpec(
        name: "describe",
        summary: "Show a session's phases with exact start and end times and frames.",
        positionals: [SessionOptions.patternPositional],
        options: SessionOptions.lengthOptions + [
            SessionOptions.rateOption,
            OptionSpec(names: ["--json"], help: "Print one JSON object instead of the table."),
        ],
        exclusiveGroups: SessionOptions.exclusiveGroups,
        discussion: """
        Every phase boundary is round(cumulative microseconds × rate / 1000000) from the session start, \
        so the frames shown are exactly where `nagi render` and `nagi play` change phase.

        Examples:
          nagi describe 4-7-8
          nagi describe box --cycles 3 --rate 44100
          nagi describe wim-hof --json
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let options = try SessionOptions(arguments, catalog: PresetEnvironment.catalog())
        let schedule = try options.schedule()
        if arguments.isSet("--json") {
            Console.out(json(schedule, options: options))
        } else {
            Console.out(table(schedule, options: options))
        }
    }

    /// The readable table and summary.
    static func table(_ schedule: Schedule, options: SessionOptions) -> String {
        var rows: [[String]] = [["#", "cycle", "phase", "start", "end", "start frame", "end frame", "length"]]
        rows.reserveCapacity(schedule.phases.count + 1)
        for (index, phase) in schedule.phases.enumerated() {
            rows.append([
                String(index + 1),
                String(phase.cycleIndex + 1),
                phase.kind.rawValue,
                Microseconds.formatClock(phase.startMicroseconds),
                Microseconds.formatClock(phase.endMicroseconds),
                String(phase.startFrame),
                String(phase.endFrame),
                Microseconds.formatSeconds(phase.durationMicroseconds) + " s",
            ])
        }
        var text = "\(options.title) — \(options.name) at \(schedule.sampleRate) Hz\n" + TextTable.render(rows, rightAligned: [0, 1, 5, 6, 7])
        let bpm = Microseconds.formatSeconds(Int64((schedule.breathsPerMinute * 100).rounded()) * 10_000)
        text += "\(schedule.cycleCount) cycles · \(bpm) breaths/min · \(Microseconds.formatClock(schedule.totalMicroseconds)) (\(Microseconds.formatSeconds(schedule.totalMicroseconds)) s, \(schedule.totalFrames) frames)\n"
        return text
    }

    /// One JSON object: the contract keys `sampleRate`, `totalFrames`, `phases[].kind/startFrame/endFrame`, and more.
    static func json(_ schedule: Schedule, options: SessionOptions) -> String {
        var phases: [String] = []
        phases.reserveCapacity(schedule.phases.count)
        for phase in schedule.phases {
            phases.append(
                "{\"kind\": \(JSONText.quote(phase.kind.rawValue)), \"cycle\": \(phase.cycleIndex + 1), "
                + "\"startFrame\": \(phase.startFrame), \"endFrame\": \(phase.endFrame), "
                + "\"startSeconds\": \(Microseconds.formatSeconds(phase.startMicroseconds)), "
                + "\"endSeconds\": \(Microseconds.formatSeconds(phase.endMicroseconds)), "
                + "\"seconds\": \(Microseconds.formatSeconds(phase.durationMicroseconds)), "
                + "\"fromLevel\": \(JSONText.number(phase.startLevel)), \"toLevel\": \(JSONText.number(phase.endLevel))}"
            )
        }
        var text = "{\"title\": \(JSONText.quote(options.title)), \"pattern\": \(JSONText.quote(options.name)), "
        text += "\"easing\": \(JSONText.quote(schedule.easing.name)), "
        text += "\"sampleRate\": \(schedule.sampleRate), \"totalFrames\": \(schedule.totalFrames), "
        text += "\"totalSeconds\": \(Microseconds.formatSeconds(schedule.totalMicroseconds)), "
        text += "\"cycles\": \(schedule.cycleCount), \"breathsPerMinute\": \(JSONText.number(schedule.breathsPerMinute)), "
        text += "\"phases\": [\n  " + phases.joined(separator: ",\n  ") + "\n]}\n"
        return text
    }
}
