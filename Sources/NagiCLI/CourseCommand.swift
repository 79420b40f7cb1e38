import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import NagiKit

/// `nagi course`: list, show, export as an album, and follow a course lesson by lesson.
enum CourseCommand {
    static let courseArgument = PositionalSpec(name: "NAME", help: "A course preset name (see `nagi course list`) or a path to a course JSON file.", completion: .courses)

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
            CommandSpec(name: "show", summary: "Show a course's lessons: patterns, lengths, soundscapes and the total.", positionals: [courseArgument]),
            CourseExport.spec,
            CourseFollow.nextSpec,
            CourseFollow.statusSpec,
        ]
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
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

    /// Loads the course named by the first positional: a preset name or a JSON path.
    static func loadCourse(_ arguments: ParsedArguments, catalog: PresetCatalog) throws(CLIError) -> Course {
        guard let reference = arguments.positionals.first else {
            throw .arguments(.missingArgument("NAME"))
        }
        let decoder = CourseDecoder(catalog: catalog)
        do throws(BreathError) {
            if PresetCatalog.isFilePath(reference) {
                let (value, file) = try PresetEnvironment.parseFile(reference)
                var course = try BreathError.reportingContent { () throws(ContentError) in try decoder.decode(value, file: file) }
                // A lesson's bed relative to the course file is found from any working directory.
                let folder = FileSystem.folder(of: reference)
                for index in course.lessons.indices {
                    if let bed = course.lessons[index].bed, !bed.hasPrefix("/") { course.lessons[index].bed = folder + "/" + bed }
                }
                if let cover = course.cover, !cover.hasPrefix("/") { course.cover = folder + "/" + cover }
                return course
            }
            return try decoder.course(named: reference)
        } catch {
            throw .breath(error)
        }
    }

    /// The length of each lesson in microseconds (rate-independent), checked to schedule.
    static func lessonLengths(_ course: Course) throws(CLIError) -> [Int64] {
        var lengths: [Int64] = []
        for lesson in course.lessons {
            do {
                lengths.append(try SessionExpander.totalMicroseconds(of: lesson.session.stages))
            } catch {
                throw .breath(error)
            }
        }
        return lengths
    }

    static func list() throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        var rows: [[String]] = [["course", "lessons", "total", "title"]]
        for name in catalog.names(in: .courses) {
            do {
                let course = try CourseDecoder(catalog: catalog).course(named: name)
                let total = try lessonLengths(course).reduce(0, +)
                rows.append([name, String(course.lessons.count), String(Microseconds.formatClock(total).dropLast(4)), course.title])
            } catch let error as CLIError {
                rows.append([name, "-", "-", "(invalid: \(error.message))"])
            } catch let error as BreathError {
                rows.append([name, "-", "-", "(invalid: \(CLIError.breath(error).message))"])
            } catch {
                rows.append([name, "-", "-", "(invalid)"])
            }
        }
        Console.out(TextTable.render(rows, rightAligned: [1, 2]))
    }

    static func show(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let course = try loadCourse(arguments, catalog: catalog)
        let lengths = try lessonLengths(course)
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
