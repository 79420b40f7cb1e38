import NagiOptions
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import NagiKit

/// `nagi course next` and `nagi course status`: a learner's way through a course.
enum CourseFollow {
    static let reset = Flag(["--reset"], help: "Forget this course's progress and start over.")

    static let nextSpec = CommandSpec(
        name: "next",
        summary: "Play the first lesson not yet completed; it counts as done when played to the end.",
        positionals: [CourseOptions.courseArgument],
        groups: PlayCommand.liveGroups,
        options: [PlayCommand.quiet.spec],
        discussion: """
        A lesson counts as done only when played to the end at its own length: one shortened or \
        lengthened with --cycles or --minutes is practice, not recorded. An explicit --soundscape \
        replaces the lesson's own, and so do --cues, --count and --voice a lesson's "cues", "count" and "voice". Quitting early (q or Esc) records nothing and exits 1. Progress is \
        kept in $XDG_STATE_HOME/nagi/ (default ~/.local/state/nagi/).
        """
    )

    static let statusSpec = CommandSpec(
        name: "status",
        summary: "Show lessons done, the next lesson and the days practised; --reset starts over.",
        positionals: [CourseOptions.courseArgument],
        options: [reset.spec]
    )

    static func status(_ arguments: ParsedArguments) throws(NagiError) {
        let course = try CourseOptions.loadCourse(arguments, catalog: PresetEnvironment.catalog())
        if arguments[reset] {
            try ProgressStore.reset(course: course.name)
            Console.out(TerminalText.printable("\(course.title): progress reset; next is lesson 1, \(course.lessons[0].title)") + "\n")
            return
        }
        let record = try ProgressStore.load(course: course.name)
        let count = course.lessons.count
        var text = TerminalText.printable("\(course.title) (\(course.name))") + "\n"
        text += "done: \(record.completedCount(lessonCount: count)) / \(count)\n"
        if let next = record.nextLessonIndex(lessonCount: count) {
            text += TerminalText.printable("next: lesson \(next + 1), \(course.lessons[next].title)") + "\n"
        } else {
            text += "next: none — the course is complete\n"
        }
        let dates = record.datesPractised
        text += "practised: " + (dates.isEmpty ? "not yet" : dates.joined(separator: ", ")) + "\n"
        Console.out(text)
    }

    /// How a hint names the course so that the command it suggests finds it: the path given (a course read from a
    /// file has no name nagi could look up), shell-quoted when it needs it, or the preset name.
    static func commandWord(_ arguments: ParsedArguments, course: Course) -> String {
        guard let reference = arguments.positionals.first, PresetCatalog.isFilePath(reference) else { return course.name }
        let plain = reference.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+".unicodeScalars.contains(scalar)
        }
        return plain ? reference : "'" + reference.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    static func next(_ arguments: ParsedArguments) throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseOptions.loadCourse(arguments, catalog: catalog)
        let length = try SessionLengthOptions(arguments)
        let sampleRate = try SampleRateOptions(arguments).sampleRate
        var record = try ProgressStore.load(course: course.name)
        let nextIndex = record.nextLessonIndex(lessonCount: course.lessons.count)
        // The lesson's own cues, count and voice apply where the command line sets none.
        let settings = try PlayCommand.LiveSettings(arguments, forLesson: true)
        guard let index = nextIndex else {
            Console.out(TerminalText.printable("\(course.title) is complete: all \(NumberText.count(course.lessons.count, "lesson")) done. `nagi course status \(commandWord(arguments, course: course)) --reset` starts over.") + "\n")
            return
        }
        let lesson = course.lessons[index]
        let session = try length.apply(to: lesson.session)
        let (soundscape, soundscapeName) = try settings.sound.synthesis.soundscape.resolve(lesson: lesson.soundscape, catalog: catalog)
        if !settings.quiet {
            Console.err(TerminalText.printable("\(course.title): lesson \(index + 1) of \(course.lessons.count), \(lesson.title) (soundscape \(soundscapeName))") + "\n")
        }
        let outcome = try PlayCommand.play(session: session, name: lesson.patternLabel, sampleRate: sampleRate, soundscape: soundscape, settings: settings, lesson: lesson)
        guard outcome.finished else { throw .stoppedEarly }
        if length.overridesLength {
            if !settings.quiet {
                Console.err("lesson \(index + 1) played at a length of your own (--cycles or --minutes); not recorded as done\n")
            }
        } else {
            record.completions.append(CourseProgress.Completion(lessonIndex: index, title: lesson.title, completedAt: ProgressStore.timestamp(for: Date()), startedAt: outcome.startedAt, retentionMilliseconds: outcome.retentionMilliseconds, skipCount: outcome.skipCount))
            try ProgressStore.save(record)
            if !settings.quiet {
                Console.err("lesson \(index + 1) done (\(record.completedCount(lessonCount: course.lessons.count)) / \(course.lessons.count))\n")
            }
        }
    }
}
