import NagiOptions
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import NagiKit

/// `nagi course`: list, show, export as an album, and follow a course lesson by lesson.
enum CourseCommand {
    static let spec = CommandSpec(
        name: "course",
        summary: "List, show, export and follow structured courses (\"21 days for beginners\").",
        discussion: """
        Examples:
          nagi course list
          nagi course show beginner-21
          nagi course export beginner-21 -o ~/Music/beginner-21 --format flac
          nagi course next beginner-21
          nagi course status beginner-21
        """,
        subcommands: [
            CommandSpec(name: "list", summary: "List the courses with their lesson counts and total lengths."),
            CommandSpec(name: "show", summary: "Show a course's lessons: patterns, lengths, soundscapes and the total.", positionals: [CourseOptions.courseArgument]),
            CourseExport.spec,
            CourseFollow.nextSpec,
            CourseFollow.statusSpec,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let path = arguments.commandPath
        guard path.count >= 2 else {
            throw .arguments(.missingArgument("COMMAND (list, show, export, next or status)"))
        }
        switch path[1] {
        case "list": try list()
        case "show": try show(arguments)
        case "export": try CourseExport.run(arguments)
        case "next": try CourseFollow.next(arguments)
        case "status": try CourseFollow.status(arguments)
        default: throw .usage("unknown course command '\(path[1])'")
        }
    }

    static func list() throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        var rows: [[String]] = [["course", "lessons", "total", "title"]]
        for name in catalog.names(in: .courses) {
            do {
                let course = try CourseDecoder(catalog: catalog).course(named: name)
                let total = try CourseOptions.lessonLengths(course).reduce(0, +)
                rows.append([name, String(course.lessons.count), String(Microseconds.formatClock(total).dropLast(4)), course.title])
            } catch let error as NagiError {
                rows.append([name, "-", "-", "(invalid: \(error.message))"])
            } catch let error as BreathError {
                rows.append([name, "-", "-", "(invalid: \(NagiError.breath(error).message))"])
            } catch {
                rows.append([name, "-", "-", "(invalid)"])
            }
        }
        Console.out(TextTable.render(rows, rightAligned: [1, 2]))
    }

    static func show(_ arguments: ParsedArguments) throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseOptions.loadCourse(arguments, catalog: catalog)
        let lengths = try CourseOptions.lessonLengths(course)
        var text = TerminalText.printable("\(course.title) (\(course.name))") + "\n"
        if let description = course.description { text += TerminalText.printable(description) + "\n" }
        text += "\n"
        var rows: [[String]] = [["#", "lesson", "pattern", "length", "soundscape"]]
        for (index, lesson) in course.lessons.enumerated() {
            rows.append([String(index + 1), lesson.title, lesson.patternLabel, String(Microseconds.formatClock(lengths[index]).dropLast(4)), lesson.soundscape ?? SoundscapeResolver.defaultName])
        }
        text += TextTable.render(rows, rightAligned: [0, 3])
        text += "\(NumberText.count(course.lessons.count, "lesson")) · total \(Microseconds.formatClock(lengths.reduce(0, +)).dropLast(4))\n"
        Console.out(text)
    }
}
