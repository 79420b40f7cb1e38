import AudioFile
import Breath
import Glibc
import NagiDocuments
import TextRules

/// `--artist`, `--album`, `--cover` and `--chapters`: what a music player shows of a file, for `render` and
/// `course export`.
struct TagOptions {
    static let group = OptionGroup(
        title: "Tags",
        options: [
            OptionSpec(names: ["--artist"], valueName: "A", help: "The artist tag (default: nagi, or the course's artist)."),
            OptionSpec(names: ["--album"], valueName: "A", help: "The album tag (default: none for render, the course's album or title for course export)."),
            OptionSpec(names: ["--cover"], valueName: "FILE", help: "A PNG or JPEG picture, at most 4 MiB, embedded as the front cover (in every track of a course export).", completion: .file),
            OptionSpec(names: ["--chapters"], valueName: "C", help: "Chapters a player lists and jumps to: phases (every phase), stages (each labelled stage, or each round) or none. Default: stages when the session has them, else phases. At most 999; more are not written.", allowedValues: ChapterMode.allCases.map(\.rawValue)),
        ]
    )

    /// What `--chapters` marks.
    enum ChapterMode: String, CaseIterable {
        case phases, stages, none
    }

    var artist: String?
    var album: String?
    var cover: CoverArt?
    var chapterMode: ChapterMode?

    /// Reads the options; the cover is read and checked here, before anything is created.
    /// - Parameter coverPath: a cover named elsewhere (a course's), used when `--cover` is absent.
    init(_ arguments: ParsedArguments, coverPath: String? = nil) throws(CLIError) {
        artist = try Self.displayText("--artist", in: arguments)
        album = try Self.displayText("--album", in: arguments)
        do {
            chapterMode = try arguments.choice("--chapters").flatMap(ChapterMode.init(rawValue:))
        } catch {
            throw .arguments(error)
        }
        if let path = arguments.value("--cover") ?? coverPath {
            do {
                cover = try CoverArt(contentsOf: path)
            } catch {
                throw .audioFile(error)
            }
        }
    }

    /// The value of a text option that reaches the tags (`--title`, `--artist`, `--album`): one line of visible
    /// text under `DisplayText`'s rule, else 64. A tag carries it into every player's display, where an escape
    /// sequence, a newline or a bidi override is never meant.
    static func displayText(_ option: String, in arguments: ParsedArguments) throws(CLIError) -> String? {
        guard let text = arguments.value(option) else { return nil }
        if let problem = DisplayText.problem(in: text) { throw .usage("\(option) \(TerminalText.printable(text)): \(problem)") }
        return text
    }

    /// The chapters for `schedule` under `--chapters` (or its default), every one `leadInFrames` later (a
    /// countdown, which an "Opening" chapter then covers; an ending has none of its own: it closes the last), and
    /// a note when there are more than a file holds: then none are written (a partial list would end the player's
    /// chapters mid-session).
    func chapters(for schedule: Schedule, leadInFrames: Int64 = 0) -> (chapters: [AudioChapter], note: String?) {
        let stages = Self.stageChapters(schedule, leadInFrames: leadInFrames)
        let mode = chapterMode ?? (stages.isEmpty ? .phases : .stages)
        let chapters: [AudioChapter]
        switch mode {
        case .none: return ([], nil)
        case .stages: chapters = stages
        case .phases:
            let phases = schedule.phases.map { AudioChapter(startFrame: leadInFrames + $0.startFrame, title: Self.phaseTitle($0.kind)) }
            chapters = leadInFrames > 0 ? [AudioChapter(startFrame: 0, title: Self.openingTitle)] + phases : phases
        }
        guard chapters.count <= AudioChapter.maximumCount else {
            let advice = mode == .phases && !stages.isEmpty ? "; --chapters stages gives \(stages.count)" : ""
            return ([], "no chapters written: the session has \(chapters.count) \(mode.rawValue), a file holds at most \(AudioChapter.maximumCount)\(advice)")
        }
        return (chapters, nil)
    }

    /// "Inhale", "Hold", "Exhale".
    static func phaseTitle(_ kind: PhaseKind) -> String {
        let name = kind.displayName
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The chapter before the first phase or stage: a countdown, or the phases before the first stage.
    static let openingTitle = "Opening"

    /// A chapter at each labelled stage, else at each round of a repeated group, `leadInFrames` after its
    /// schedule frame; an opening chapter covers what comes before the first. Empty when the session has neither.
    static func stageChapters(_ schedule: Schedule, leadInFrames: Int64 = 0) -> [AudioChapter] {
        var chapters: [AudioChapter] = []
        var lastRound: Int?
        let labelled = schedule.phases.contains { $0.stageLabel != nil }
        for phase in schedule.phases {
            if labelled {
                if let label = phase.stageLabel { chapters.append(AudioChapter(startFrame: leadInFrames + phase.startFrame, title: label)) }
            } else if let round = phase.roundIndex, round != lastRound {
                chapters.append(AudioChapter(startFrame: leadInFrames + phase.startFrame, title: "Round \(round + 1)"))
                lastRound = round
            }
        }
        if let first = chapters.first, first.startFrame > 0 {
            chapters.insert(AudioChapter(startFrame: 0, title: Self.openingTitle), at: 0)
        }
        return chapters
    }
}

extension TagOptions {
    /// The genre nagi writes unless a course names its own.
    static let defaultGenre = "Meditation"

    /// "4-7-8 · 19 breaths · horizon": the pattern, its breaths and the soundscape.
    static func comment(pattern: String, schedule: Schedule, soundscape: String) -> String {
        let inhaleCount = schedule.phases.reduce(0) { $0 + ($1.kind == .inhale ? 1 : 0) }
        let breaths = inhaleCount > 0 ? inhaleCount : schedule.cycleCount
        return "\(pattern) · \(NumberText.count(breaths, "breath")) · \(soundscape)"
    }

    /// The year of the render, UTC ("2026").
    static var currentYear: String {
        var now = time(nil)
        var parts = tm()
        guard gmtime_r(&now, &parts) != nil else { return "" }
        return String(Int(parts.tm_year) + 1900)
    }
}
