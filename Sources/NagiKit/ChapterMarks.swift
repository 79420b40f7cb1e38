import AudioFile
import Breath

/// Which moments of a session a tagged file lists as chapters, for a player to show and jump to.
public enum ChapterMarks: String, Sendable, CaseIterable {
    /// Every phase: "Inhale", "Hold", "Exhale".
    case phases
    /// Each labelled stage, or each round of a repeated group.
    case stages
    /// No chapters.
    case none

    /// The chapter before the first phase or stage: a countdown, or the phases before the first stage.
    public static let openingTitle = "Opening"

    /// The chapters `marks` (nil: stages when the session has them, else phases) give `schedule`, every one
    /// `leadInFrames` later (a countdown, which an "Opening" chapter then covers; an ending has none of its own: it
    /// closes the last), and a note when there are more than a file holds: then none are written (a partial list
    /// would end the player's chapters mid-session). The note is only for chapters asked for by name (`marks` not nil):
    /// a long session under the default has simply none, which is not worth a warning on every long render.
    static func chapters(_ marks: ChapterMarks?, for schedule: Schedule, leadInFrames: Int64 = 0) -> (chapters: [AudioChapter], note: String?) {
        let stages = stageChapters(schedule, leadInFrames: leadInFrames)
        let mode = marks ?? (stages.isEmpty ? .phases : .stages)
        let chapters: [AudioChapter]
        switch mode {
        case .none: return ([], nil)
        case .stages: chapters = stages
        case .phases:
            let phases = schedule.phases.map { AudioChapter(startFrame: leadInFrames + $0.startFrame, title: phaseTitle($0.kind)) }
            chapters = leadInFrames > 0 ? [AudioChapter(startFrame: 0, title: openingTitle)] + phases : phases
        }
        guard chapters.count <= AudioChapter.maximumCount else {
            guard marks != nil else { return ([], nil) }
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
            chapters.insert(AudioChapter(startFrame: 0, title: openingTitle), at: 0)
        }
        return chapters
    }
}
