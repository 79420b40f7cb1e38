import Breath
import FoundationEssentials
import Glibc
import NagiDocuments

/// `nagi course next` and `nagi course status`: a learner's way through a course.
enum CourseFollow {
    static let nextSpec = CommandSpec(
        name: "next",
        summary: "Play the first lesson not yet completed; it counts as done when played to the end.",
        positionals: [CourseCommand.courseArgument],
        options: PlayCommand.liveOptions,
        discussion: "Progress is kept in $XDG_STATE_HOME/nagi/ (default ~/.local/state/nagi/)."
    )

    static let statusSpec = CommandSpec(
        name: "status",
        summary: "Show lessons done, the next lesson and the days practised; --reset starts over.",
        positionals: [CourseCommand.courseArgument],
        options: [OptionSpec(names: ["--reset"], help: "Forget this course's progress and start over.")]
    )

    static func status(_ arguments: ParsedArguments) throws(CLIError) {
        let course = try CourseCommand.loadCourse(arguments, catalog: PresetEnvironment.catalog())
        if arguments.isSet("--reset") {
            try ProgressStore.reset(course: course.name)
            Console.out("\(course.title): progress reset; next is lesson 1, \(course.lessons[0].title)\n")
            return
        }
        let record = try ProgressStore.load(course: course.name)
        let count = course.lessons.count
        var text = "\(course.title) (\(course.name))\n"
        text += "done: \(record.completedCount(lessonCount: count)) / \(count)\n"
        if let next = record.nextLessonIndex(lessonCount: count) {
            text += "next: lesson \(next + 1), \(course.lessons[next].title)\n"
        } else {
            text += "next: none — the course is complete\n"
        }
        let dates = record.datesPractised
        text += "practised: " + (dates.isEmpty ? "not yet" : dates.joined(separator: ", ")) + "\n"
        Console.out(text)
    }

    static func next(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseCommand.loadCourse(arguments, catalog: catalog)
        var record = try ProgressStore.load(course: course.name)
        guard let index = record.nextLessonIndex(lessonCount: course.lessons.count) else {
            Console.out("\(course.title) is complete: all \(course.lessons.count) lessons done. `nagi course status \(course.name) --reset` starts over.\n")
            return
        }
        let lesson = course.lessons[index]
        if !arguments.isSet("--quiet") {
            Console.err("\(course.title): lesson \(index + 1) of \(course.lessons.count), \(lesson.title)\n")
        }
        var session = lesson.session
        if let length = try SessionOptions.length(arguments) {
            do {
                session = try session.withLength(length)
            } catch {
                throw .breath(error)
            }
        }
        let finished = try PlayCommand.play(session: session, name: lesson.patternLabel, soundscapeReference: arguments.value("--soundscape") ?? lesson.soundscape, arguments: arguments, catalog: catalog)
        if finished {
            record.completions.append(CourseProgress.Completion(lessonIndex: index, title: lesson.title, completedAt: ProgressStore.timestamp(for: Date())))
            try ProgressStore.save(record)
            if !arguments.isSet("--quiet") {
                Console.err("lesson \(index + 1) done (\(record.completedCount(lessonCount: course.lessons.count)) / \(course.lessons.count))\n")
            }
        }
    }
}
