import AudioFile
import NagiKit
import NagiBase

/// `--artist`, `--album`, `--cover` and `--chapters`: what a music player shows of a file, for `render` and
/// `course export`.
package struct TagOptions {
    package static let group = OptionGroup(
        title: "Tags",
        options: [
            OptionSpec(names: ["--artist"], valueName: "A", help: "The artist tag (default: nagi, or the course's artist)."),
            OptionSpec(names: ["--album"], valueName: "A", help: "The album tag (default: none for render, the course's album or title for course export)."),
            OptionSpec(names: ["--cover"], valueName: "FILE", help: "A PNG or JPEG picture, at most 4 MiB, embedded as the front cover (in every track of a course export).", completion: .file),
            OptionSpec(names: ["--chapters"], valueName: "C", help: "Chapters a player lists and jumps to: phases (every phase), stages (each labelled stage, or each round) or none. Default: stages when the session has them, else phases. At most 999; more are not written.", allowedValues: ChapterMarks.allCases.map(\.rawValue)),
        ]
    )

    package var artist: String?
    package var album: String?
    package var cover: CoverArt?
    package var chapters: ChapterMarks?

    /// Reads the options; the cover is read and checked here, before anything is created.
    /// - Parameter coverPath: a cover named elsewhere (a course's), used when `--cover` is absent.
    package init(_ arguments: ParsedArguments, coverPath: String? = nil) throws(NagiError) {
        artist = try Self.displayText("--artist", in: arguments)
        album = try Self.displayText("--album", in: arguments)
        do {
            chapters = try arguments.choice("--chapters").flatMap(ChapterMarks.init(rawValue:))
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
    package static func displayText(_ option: String, in arguments: ParsedArguments) throws(NagiError) -> String? {
        guard let text = arguments.value(option) else { return nil }
        if let problem = DisplayText.problem(in: text) { throw .usage("\(option) \(TerminalText.printable(text)): \(problem)") }
        return text
    }
}
