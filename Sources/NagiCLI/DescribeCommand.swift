import Breath

/// `nagi describe`: the phases of a session with exact times and frames, as a table or JSON.
enum DescribeCommand {
    static let spec = CommandSpec(
        name: "describe",
        summary: "Show a session's phases with exact start and end times and frames.",
        positionals: [SessionOptions.patternPositional],
        options: SessionOptions.paceOptions + SessionOptions.lengthOptions + [
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
          nagi describe --bpm 6 --ratio 2:3
          nagi describe resonance-steps --ratio 2:3
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
        // The round, stage and words columns appear only when some phase has them, so plain patterns keep
        // their narrow table.
        let showsRounds = schedule.phases.contains { $0.roundIndex != nil }
        let showsStages = schedule.phases.contains { $0.stageLabel != nil }
        let showsWords = schedule.phases.contains { $0.spokenWords != nil }
        var header = ["#", "cycle", "phase", "start", "end", "start frame", "end frame", "length"]
        if showsRounds { header.insert("round", at: 1) }
        if showsStages { header.append("stage") }
        if showsWords { header.append("says") }
        var rows: [[String]] = [header]
        rows.reserveCapacity(schedule.phases.count + 1)
        for (index, phase) in schedule.phases.enumerated() {
            var row = [
                String(index + 1),
                String(phase.cycleIndex + 1),
                phase.kind.rawValue,
                Microseconds.formatClock(phase.startMicroseconds),
                Microseconds.formatClock(phase.endMicroseconds),
                String(phase.startFrame),
                String(phase.endFrame),
                Microseconds.formatSeconds(phase.durationMicroseconds) + " s",
            ]
            if showsRounds { row.insert(phase.roundIndex.map { String($0 + 1) } ?? "", at: 1) }
            if showsStages { row.append(phase.stageLabel ?? "") }
            if showsWords { row.append(phase.spokenWords ?? "") }
            rows.append(row)
        }
        let rightAligned: Set<Int> = showsRounds ? [0, 1, 2, 6, 7, 8] : [0, 1, 5, 6, 7]
        var text = "\(options.title) — \(options.name) at \(schedule.sampleRate) Hz\n" + TextTable.render(rows, rightAligned: rightAligned)
        let bpm = Microseconds.formatSeconds(Int64((schedule.breathsPerMinute * 100).rounded()) * 10_000)
        text += "\(schedule.cycleCount) cycles · \(bpm) breaths/min · \(Microseconds.formatClock(schedule.totalMicroseconds)) (\(Microseconds.formatSeconds(schedule.totalMicroseconds)) s, \(schedule.totalFrames) frames)\n"
        return text
    }

    /// One JSON object: the contract keys `sampleRate`, `totalFrames`, `phases[].kind/startFrame/endFrame`, and more.
    /// `say` is a phase's own words, `round` its repetition of the outermost repeated group (from 1), and
    /// `stageLabel` / `stageAnnouncement` mark a labelled stage's first phase; each is null where it does not apply.
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
                + "\"fromLevel\": \(JSONText.number(phase.startLevel)), \"toLevel\": \(JSONText.number(phase.endLevel)), "
                + "\"say\": \(optional(phase.spokenWords)), \"round\": \(phase.roundIndex.map { String($0 + 1) } ?? "null"), "
                + "\"stageLabel\": \(optional(phase.stageLabel)), \"stageAnnouncement\": \(optional(phase.stageAnnouncement))}"
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

    /// A JSON string, or null.
    private static func optional(_ text: String?) -> String {
        text.map(JSONText.quote) ?? "null"
    }
}
