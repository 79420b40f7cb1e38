import Breath
import NagiDocuments
import NagiKit
import Synth

/// `nagi describe` (and `nagi serve`'s `/api/describe`): the phases of a session with exact times and frames, as a
/// table or JSON, read from the command's options.
package struct DescribeOptions {
    /// The terminal's choice of layout; a request asks `/api/describe`, which answers JSON.
    package static let json = Flag(["--json"], help: "Print one JSON object instead of the table.")
    package static let cues = Option<CueMode>(["--cues"], valueName: "C", help: "Show the words spoken with these cues (chimes, voice, both, none), as render and play would speak them: a \"speaks\" column. Without --cues or --count the JSON's \"speaks\" lists what --cues voice says.", overHTTP: true)
    // Taken (as render takes it) so that `--cues voice --no-cues`, or a request's `cues=voice&no-cues=1`, is
    // refused with render's sentence rather than read as --cues voice.
    package static let noCues = Flag(["--no-cues"], help: "The same as --cues none.", overHTTP: true)
    package static let count = Option<CountMode>(["--count"], valueName: "K", help: "Show the counted words too (none, ticks, voice), each with its frame.", overHTTP: true)
    package static let framing = FramingOptions(countdownHelp: "Show the phases as render and play place them after a get-ready countdown of N seconds (see render --help): a \"before\" line, and every time and frame that much later.", endBellHelp: "Show the end bell after the release: an \"after\" line.")

    package static let spec = CommandSpec(
        name: "describe",
        summary: "Show a session's phases with exact start and end times and frames.",
        positionals: [SessionOptions.patternPositional],
        groups: SessionOptions.groups,
        options: [json.spec, cues.spec, noCues.spec, count.spec, framing.countdown.spec, framing.endBell.spec],
        exclusiveGroups: GuidanceOptions.group.exclusiveGroups,
        discussion: """
        Given an audio file nagi wrote (.wav, .flac, .ogg, .opus, .mp3), describe prints what a player \
        reads from it instead, through TagLib: its tags, chapters, gains and cover (and a WAV file's cue \
        points): nagi describe album/01*.mp3.

        Every phase boundary is round(cumulative microseconds × rate / 1000000) from the session start, \
        so the frames shown are exactly where `nagi render` and `nagi play` change phase. With --cues or \
        --count, a "speaks" column lists the words each phase speaks; the JSON's "speaks" gives each \
        phrase with its first frame (a word longer than the rest of its phase is left out when rendered). \
        With --countdown or --end-bell (and the same --cues and --count as the render), a "before" line \
        and an "after" line show what sounds outside the breathing, and the times and frames are the \
        rendered file's; the JSON adds "before" and "after" objects and "renderFrames".

        Examples:
          nagi describe 4-7-8
          nagi describe box --cycles 3 --rate 44100
          nagi describe wim-hof --json
          nagi describe --bpm 6 --ratio 2:3
          nagi describe resonance-steps --ratio 2:3
          nagi describe 4-7-8 --cues voice --count voice
          nagi describe box --countdown 3 --cues voice --end-bell
        """
    )

    /// PATTERN (or `--bpm`) at its length and rate.
    package let session: SessionOptions
    /// Its exact schedule.
    package let schedule: Schedule
    /// What each phase speaks under the chosen guidance.
    package let words: [[PhaseWords.Spoken]]
    /// Whether `--cues` or `--count` asked for the words (a "speaks" column).
    package let showsWords: Bool
    /// Where a countdown and an end bell lie, as the render would place them.
    package let framing: SessionFraming

    /// Reads `describe`'s options for a session (not an audio file's path, which the command line reads itself).
    package init(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(NagiError) {
        let cues: CueMode?, count: CountMode?, framing: (countdownSeconds: Int, endBell: Bool)
        do {
            cues = arguments[Self.noCues] ? CueMode.none : try arguments[Self.cues]
            count = try arguments[Self.count]
            framing = try Self.framing.read(arguments)
        } catch {
            throw .arguments(error)
        }
        try self.init(
            session: try SessionOptions(arguments, catalog: catalog), cues: cues, count: count, countdownSeconds: framing.countdownSeconds,
            endBell: framing.endBell, catalog: catalog)
    }

    /// The description of `session` as the guide `cues` and `count` speak it (nil: not chosen), with a countdown and
    /// an end bell as a render would place them.
    package init(session: SessionOptions, cues chosenCues: CueMode?, count chosenCount: CountMode?, countdownSeconds: Int, endBell: Bool, catalog: PresetCatalog) throws(NagiError) {
        self.session = session
        schedule = try session.schedule()
        let cues = chosenCues ?? (chosenCount != nil ? .chimes : .voice)
        let count = chosenCount ?? .none
        // Words do not depend on the soundscape; the default one gives the plan its tick pitches (and the framing
        // its release and closing silence).
        let soundscape = try SoundscapeOptions.resolve(nil, catalog: catalog).soundscape
        words = PhaseWords.spoken(in: schedule, soundscape: soundscape, cues: cues, count: count)
        showsWords = chosenCues != nil || chosenCount != nil
        // The framing under the cues the render would use: chimes unless the cues are chosen.
        var settings = RenderSettings(soundscape: soundscape, channelCount: 1, cues: chosenCues ?? .chimes, count: count)
        (settings.countdownSeconds, settings.endBell) = (countdownSeconds, endBell)
        framing = SessionFraming(schedule: schedule, settings: settings)
    }

    /// The JSON `--json` prints.
    package var json: String { Self.json(schedule, options: session, words: words, framing: framing) }

    /// The table printed without `--json`.
    package var table: String { Self.table(schedule, options: session, words: showsWords ? words : nil, framing: framing) }

    /// What sounds outside the breathing, for the "before" and "after" lines: each sound at its time in the file.
    package static func framingSounds(_ framing: SessionFraming, sampleRate: Int, before: Bool) -> String {
        let sounds = framing.events.filter { ($0.phaseIndex < 0) == before }.map { event in
            let what = switch event.sound {
            case let .phrase(words): "\"\(words)\""
            case .chime: "bell"
            case .tick: "tick"
            case .pack: "clip"
            }
            return what + " at " + Microseconds.formatSeconds(event.frame * Microseconds.perSecond / Int64(sampleRate)) + " s"
        }
        return sounds.isEmpty ? "silence" : sounds.joined(separator: ", ")
    }

    /// Seconds of `frames` at `sampleRate`, as describe prints a length ("5 s").
    private static func seconds(_ frames: Int64, sampleRate: Int) -> String {
        Microseconds.formatSeconds(frames * Microseconds.perSecond / Int64(sampleRate)) + " s"
    }

    /// The readable table and summary.
    /// `words`, when given, fills a "speaks" column: what each phase speaks under the chosen guidance.
    /// With a `framing` that is not empty, a "before" line leads the table, an "after" line follows it, and every
    /// time and frame is the rendered file's (the lead-in later).
    package static func table(_ schedule: Schedule, options: SessionOptions, words: [[PhaseWords.Spoken]]? = nil, framing: SessionFraming? = nil) -> String {
        let leadInFrames = framing?.leadInFrameCount ?? 0
        let leadIn = framing?.leadInMicroseconds(sampleRate: schedule.sampleRate) ?? 0
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
                Microseconds.formatClock(leadIn + phase.startMicroseconds),
                Microseconds.formatClock(leadIn + phase.endMicroseconds),
                String(leadInFrames + phase.startFrame),
                String(leadInFrames + phase.endFrame),
                Microseconds.formatSeconds(phase.durationMicroseconds) + " s",
            ]
            if showsRounds { row.insert(phase.roundIndex.map { String($0 + 1) } ?? "", at: 1) }
            if showsStages { row.append(phase.stageLabel ?? "") }
            if showsWords { row.append(phase.spokenWords ?? "") }
            if let words { row.append(words[index].map(\.words).joined(separator: ", ")) }
            rows.append(row)
        }
        let rightAligned: Set<Int> = showsRounds ? [0, 1, 2, 6, 7, 8] : [0, 1, 5, 6, 7]
        var text = TerminalText.printable(header(options: options)) + " at \(schedule.sampleRate) Hz\n"
        let rate = schedule.sampleRate
        if let framing, framing.leadInFrameCount > 0 {
            text += "before: \(seconds(framing.leadInFrameCount, sampleRate: rate)) (frames 0 to \(framing.leadInFrameCount)): \(framingSounds(framing, sampleRate: rate, before: true))\n"
        }
        text += TextTable.render(rows, rightAligned: rightAligned)
        if let framing, framing.endingFrameCount > 0 {
            text += "after: \(seconds(framing.endingFrameCount, sampleRate: rate)) from the release's end (frames \(framing.endingStartFrame) to \(framing.totalFrameCount)): \(framingSounds(framing, sampleRate: rate, before: false))\n"
        }
        text += countsLine(schedule, session: options.session) + " · \(Microseconds.formatClock(schedule.totalMicroseconds)) (\(Microseconds.formatSeconds(schedule.totalMicroseconds)) s, \(schedule.totalFrames) frames)"
        if let framing, !framing.isEmpty {
            text += " of breathing; the file \(seconds(framing.totalFrameCount, sampleRate: rate)) (\(framing.totalFrameCount) frames)"
        }
        return text + "\n"
    }

    /// "Box breathing — box", or only the name for an untitled pattern (not "e — e").
    package static func header(options: SessionOptions) -> String {
        guard let title = options.session.title, title != options.name else { return options.name }
        return "\(title) — \(options.name)"
    }

    /// What a person counts: rounds (a session that is one repeated group, as Wim Hof's), breaths
    /// (`Schedule.breathCount`: a double inhale is one) and breaths per minute, e.g. "4 rounds · 124 breaths · 11.00 breaths/min".
    package static func countsLine(_ schedule: Schedule, session: Session) -> String {
        var parts: [String] = []
        if session.stages.count == 1, case let .group(count, _) = session.stages[0] {
            parts.append(NumberText.count(count, "round"))
        }
        parts.append(NumberText.count(schedule.breathCount, "breath"))
        parts.append(Microseconds.formatSeconds(Int64((schedule.breathsPerMinute * 100).rounded()) * 10_000) + " breaths/min")
        return parts.joined(separator: " · ")
    }

    /// One JSON object: the contract keys `sampleRate`, `totalFrames`, `phases[].kind/startFrame/endFrame`, and more.
    /// `say` is a phase's own words, `round` its repetition of the outermost repeated group (from 1), and
    /// `stageLabel` / `stageAnnouncement` mark a labelled stage's first phase; each is null where it does not apply.
    /// `speaks` lists each phrase the phase speaks under the chosen guidance with its first frame. An open hold
    /// (held live until enter) carries `"open": true` and its stated length.
    /// With a `framing` that is not empty, frames and seconds are the rendered file's and "before", "after" and
    /// "renderFrames" say what lies outside the breathing.
    package static func json(_ schedule: Schedule, options: SessionOptions, words: [[PhaseWords.Spoken]], framing: SessionFraming? = nil) -> String {
        let leadInFrames = framing?.leadInFrameCount ?? 0
        let leadIn = framing?.leadInMicroseconds(sampleRate: schedule.sampleRate) ?? 0
        let phases = schedule.phases.enumerated().map { index, phase in
            Described.Phase(
                kind: phase.kind.rawValue, cycle: phase.cycleIndex + 1,
                startFrame: Int64(leadInFrames) + phase.startFrame, endFrame: Int64(leadInFrames) + phase.endFrame,
                startSeconds: JSONDecimal(microseconds: leadIn + phase.startMicroseconds), endSeconds: JSONDecimal(microseconds: leadIn + phase.endMicroseconds),
                seconds: JSONDecimal(microseconds: phase.durationMicroseconds),
                fromLevel: JSONDecimal(phase.startLevel), toLevel: JSONDecimal(phase.endLevel),
                say: JSONNullable(phase.spokenWords), round: JSONNullable(phase.roundIndex.map { $0 + 1 }),
                stageLabel: JSONNullable(phase.stageLabel), stageAnnouncement: JSONNullable(phase.stageAnnouncement),
                speaks: words[index].map { Described.Sound(frame: Int64(leadInFrames) + Int64($0.frame), words: $0.words) },
                open: phase.isOpen ? true : nil)
        }
        var described = Described(
            title: options.title, pattern: options.name, easing: schedule.easing.name, sampleRate: schedule.sampleRate,
            totalFrames: schedule.totalFrames, totalSeconds: JSONDecimal(microseconds: schedule.totalMicroseconds),
            cycles: schedule.cycleCount, breaths: schedule.breathCount, breathsPerMinute: JSONDecimal(schedule.breathsPerMinute), phases: phases)
        if let framing, !framing.isEmpty {
            func sounds(_ before: Bool) -> [Described.Sound] {
                framing.events.filter { ($0.phaseIndex < 0) == before }.map { event in
                    switch event.sound {
                    case let .phrase(words): Described.Sound(frame: event.frame, words: words)
                    case .chime: Described.Sound(frame: event.frame, sound: "bell")
                    case .tick: Described.Sound(frame: event.frame, sound: "tick")
                    case .pack: Described.Sound(frame: event.frame, sound: "clip")
                    }
                }
            }
            described.renderFrames = framing.totalFrameCount
            described.before = Described.Span(startFrame: 0, endFrame: framing.leadInFrameCount, sounds: sounds(true))
            described.after = Described.Span(startFrame: framing.endingStartFrame, endFrame: framing.endingStartFrame + framing.endingFrameCount, sounds: sounds(false))
        }
        return JSONOutput.line(described)
    }

    /// The object `json` writes; `renderFrames`, `before` and `after` only with a framing.
    struct Described: Encodable {
        var title, pattern, easing: String, sampleRate: Int, totalFrames: Int64, totalSeconds: JSONDecimal
        var cycles, breaths: Int, breathsPerMinute: JSONDecimal
        var renderFrames: Int64?, before: Span?, after: Span?
        var phases: [Phase]

        /// What sounds outside the breathing, before its first phase or after its release.
        struct Span: Encodable {
            var startFrame, endFrame: Int64, sounds: [Sound]
        }

        /// One sound at its frame: words spoken, or a named sound.
        struct Sound: Encodable {
            var frame: Int64
            var words: String? = nil
            var sound: String? = nil
        }

        struct Phase: Encodable {
            var kind: String, cycle: Int, startFrame, endFrame: Int64
            var startSeconds, endSeconds, seconds, fromLevel, toLevel: JSONDecimal
            var say: JSONNullable<String>, round: JSONNullable<Int>, stageLabel, stageAnnouncement: JSONNullable<String>
            var speaks: [Sound]
            /// Only on an open hold.
            var open: Bool?
        }
    }
}
