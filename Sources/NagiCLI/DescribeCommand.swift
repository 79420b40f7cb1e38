import Breath
import NagiDocuments
import NagiKit
import Synth

/// `nagi describe`: the phases of a session with exact times and frames, as a table or JSON.
enum DescribeCommand {
    static let spec = CommandSpec(
        name: "describe",
        summary: "Show a session's phases with exact start and end times and frames.",
        positionals: [SessionOptions.patternPositional],
        groups: SessionOptions.groups,
        options: [
            OptionSpec(names: ["--json"], help: "Print one JSON object instead of the table."),
            OptionSpec(names: ["--cues"], valueName: "C", help: "Show the words spoken with these cues (chimes, voice, both, none), as render and play would speak them: a \"speaks\" column. Without --cues or --count the JSON's \"speaks\" lists what --cues voice says.", allowedValues: GuidanceOptions.Cues.allCases.map(\.rawValue)),
            OptionSpec(names: ["--count"], valueName: "K", help: "Show the counted words too (none, ticks, voice), each with its frame.", allowedValues: GuidanceOptions.Count.allCases.map(\.rawValue)),
        ],
        discussion: """
        Given an audio file nagi wrote (.wav, .flac, .ogg, .opus, .mp3), describe prints what a player \
        reads from it instead, through TagLib: its tags, chapters, gains and cover (and a WAV file's cue \
        points): nagi describe album/01*.mp3.

        Every phase boundary is round(cumulative microseconds × rate / 1000000) from the session start, \
        so the frames shown are exactly where `nagi render` and `nagi play` change phase. With --cues or \
        --count, a "speaks" column lists the words each phase speaks; the JSON's "speaks" gives each \
        phrase with its first frame (a word longer than the rest of its phase is left out when rendered).

        Examples:
          nagi describe 4-7-8
          nagi describe box --cycles 3 --rate 44100
          nagi describe wim-hof --json
          nagi describe --bpm 6 --ratio 2:3
          nagi describe resonance-steps --ratio 2:3
          nagi describe 4-7-8 --cues voice --count voice
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        if let path = arguments.positionals.first, let format = FileTagsText.audioFormat(of: path) {
            Console.out(try FileTagsText.text(path: path, format: format))
            return
        }
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog)
        let schedule = try options.schedule()
        let cues: CueMode, count: CountMode
        do {
            cues = try arguments.choice("--cues").flatMap(CueMode.init(rawValue:)) ?? (arguments.isSet("--count") ? .chimes : .voice)
            count = try arguments.choice("--count").flatMap(CountMode.init(rawValue:)) ?? .none
        } catch {
            throw .arguments(error)
        }
        // Words do not depend on the soundscape; the default one gives the plan its tick pitches.
        let soundscape = try SoundscapeOptions.resolve(nil, catalog: catalog).soundscape
        let words = PhaseWords.spoken(in: schedule, soundscape: soundscape, cues: cues, count: count)
        let showsWords = arguments.isSet("--cues") || arguments.isSet("--count")
        if arguments.isSet("--json") {
            Console.out(json(schedule, options: options, words: words))
        } else {
            Console.out(table(schedule, options: options, words: showsWords ? words : nil))
        }
    }

    /// The readable table and summary.
    /// `words`, when given, fills a "speaks" column: what each phase speaks under the chosen guidance.
    static func table(_ schedule: Schedule, options: SessionOptions, words: [[PhaseWords.Spoken]]? = nil) -> String {
        // The round, stage and words columns appear only when some phase has them, so plain patterns keep
        // their narrow table.
        let showsRounds = schedule.phases.contains { $0.roundIndex != nil }
        let showsStages = schedule.phases.contains { $0.stageLabel != nil }
        let showsWords = schedule.phases.contains { $0.spokenWords != nil }
        var headings = ["#", "cycle", "phase", "start", "end", "start frame", "end frame", "length"]
        if showsRounds { headings.insert("round", at: 1) }
        if showsStages { headings.append("stage") }
        if showsWords { headings.append("says") }
        if words != nil { headings.append("speaks") }
        var rows: [[String]] = [headings]
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
            if let words { row.append(words[index].map(\.words).joined(separator: ", ")) }
            rows.append(row)
        }
        let rightAligned: Set<Int> = showsRounds ? [0, 1, 2, 6, 7, 8] : [0, 1, 5, 6, 7]
        var text = TerminalText.printable(header(options: options)) + " at \(schedule.sampleRate) Hz\n" + TextTable.render(rows, rightAligned: rightAligned)
        text += countsLine(schedule, session: options.session) + " · \(Microseconds.formatClock(schedule.totalMicroseconds)) (\(Microseconds.formatSeconds(schedule.totalMicroseconds)) s, \(schedule.totalFrames) frames)\n"
        return text
    }

    /// "Box breathing — box", or only the name for an untitled pattern (not "e — e").
    static func header(options: SessionOptions) -> String {
        guard let title = options.session.title, title != options.name else { return options.name }
        return "\(title) — \(options.name)"
    }

    /// What a person counts: rounds (a session that is one repeated group, as Wim Hof's), breaths
    /// (inhales; cycles for a pattern without one) and breaths per minute, e.g. "4 rounds · 124 breaths · 11.00 breaths/min".
    static func countsLine(_ schedule: Schedule, session: Session) -> String {
        var parts: [String] = []
        if session.stages.count == 1, case let .group(count, _) = session.stages[0] {
            parts.append(NumberText.count(count, "round"))
        }
        let inhaleCount = schedule.phases.reduce(0) { $0 + ($1.kind == .inhale ? 1 : 0) }
        let breaths = inhaleCount > 0 ? inhaleCount : schedule.cycleCount
        parts.append(NumberText.count(breaths, "breath"))
        let perMinute = schedule.totalMicroseconds > 0 ? Double(breaths) * 60_000_000 / Double(schedule.totalMicroseconds) : 0
        parts.append(Microseconds.formatSeconds(Int64((perMinute * 100).rounded()) * 10_000) + " breaths/min")
        return parts.joined(separator: " · ")
    }

    /// One JSON object: the contract keys `sampleRate`, `totalFrames`, `phases[].kind/startFrame/endFrame`, and more.
    /// `say` is a phase's own words, `round` its repetition of the outermost repeated group (from 1), and
    /// `stageLabel` / `stageAnnouncement` mark a labelled stage's first phase; each is null where it does not apply.
    /// `speaks` lists each phrase the phase speaks under the chosen guidance with its first frame.
    static func json(_ schedule: Schedule, options: SessionOptions, words: [[PhaseWords.Spoken]]) -> String {
        var phases: [String] = []
        phases.reserveCapacity(schedule.phases.count)
        for (index, phase) in schedule.phases.enumerated() {
            let speaks = words[index].map { "{\"frame\": \($0.frame), \"words\": \(JSONText.quote($0.words))}" }.joined(separator: ", ")
            phases.append(
                "{\"kind\": \(JSONText.quote(phase.kind.rawValue)), \"cycle\": \(phase.cycleIndex + 1), "
                + "\"startFrame\": \(phase.startFrame), \"endFrame\": \(phase.endFrame), "
                + "\"startSeconds\": \(Microseconds.formatSeconds(phase.startMicroseconds)), "
                + "\"endSeconds\": \(Microseconds.formatSeconds(phase.endMicroseconds)), "
                + "\"seconds\": \(Microseconds.formatSeconds(phase.durationMicroseconds)), "
                + "\"fromLevel\": \(JSONText.number(phase.startLevel)), \"toLevel\": \(JSONText.number(phase.endLevel)), "
                + "\"say\": \(optional(phase.spokenWords)), \"round\": \(phase.roundIndex.map { String($0 + 1) } ?? "null"), "
                + "\"stageLabel\": \(optional(phase.stageLabel)), \"stageAnnouncement\": \(optional(phase.stageAnnouncement)), "
                + "\"speaks\": [\(speaks)]}"
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
