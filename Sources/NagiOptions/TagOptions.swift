import AudioFile
import NagiKit
import NagiBase

/// `--artist`, `--album`, `--cover` and `--chapters`: what a music player shows of a file, for `render` and
/// `course export`.
package struct TagOptions {
    package static let artist = Option<String>(["--artist"], valueName: "A", help: "The artist tag (default: nagi, or the course's artist).", overHTTP: true)
    package static let album = Option<String>(["--album"], valueName: "A", help: "The album tag (default: none for render, the course's album or title for course export).", overHTTP: true)
    /// A path: the command line's alone.
    package static let cover = Option<String>(["--cover"], valueName: "FILE", help: "A PNG or JPEG picture, at most 4 MiB, embedded as the front cover (in every track of a course export).", completion: .file)
    package static let chapters = Option<ChapterMarks>(["--chapters"], valueName: "C", help: "Chapters a player lists and jumps to: phases (every phase), stages (each labelled stage, or each round) or none. Default: stages when the session has them, else phases. At most 999; more are not written.", overHTTP: true)

    package static let group = OptionGroup(title: "Tags", options: [Self.artist.spec, Self.album.spec, Self.cover.spec, Self.chapters.spec])

    package var artist: String?
    package var album: String?
    package var cover: CoverArt?
    package var chapters: ChapterMarks?

    /// Reads the options; the cover is read and checked here, before anything is created.
    /// - Parameter coverPath: a cover named elsewhere (a course's), used when `--cover` is absent.
    package init(_ arguments: ParsedArguments, coverPath: String? = nil) throws(NagiError) {
        artist = try Self.displayText(Self.artist, in: arguments)
        album = try Self.displayText(Self.album, in: arguments)
        do {
            chapters = try arguments[Self.chapters]
        } catch {
            throw .arguments(error)
        }
        if let path = arguments.text(of: Self.cover) ?? coverPath {
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
    package static func displayText(_ option: Option<String>, in arguments: ParsedArguments) throws(NagiError) -> String? {
        guard let text = arguments.text(of: option) else { return nil }
        if let problem = DisplayText.problem(in: text) { throw .usage("\(option.name) \(TerminalText.printable(text)): \(problem)") }
        return text
    }
}
