import NagiSystem
import NagiBase
import AudioFile
import NagiKit

/// Where `render` writes and in which format: `-o`, `--format`, `--quality`, checked before anything is created.
package struct OutputChoice {
    /// A file path, or `standardOutputPath` for standard output.
    package var path: String
    package var format: AudioFileFormat
    /// 0...1 for libsndfile (1 best), from the user's 0...10.
    package var quality: Double?

    /// What `-o` (and `--labels`, and `plot -o`) take to mean standard output.
    package static let standardOutputPath = TextFileOutput.standardOutputPath

    package init(path: String, format: AudioFileFormat, quality: Double?) {
        self.path = path
        self.format = format
        self.quality = quality
    }

    /// Reads `-o`, `--format` and `--quality`. Strict: an extension that names another format than `--format`, or
    /// a file name whose extension names no format while `--format` is absent, is refused (64); so is audio for
    /// a terminal (`standardOutputIsTerminal`). Standard output (`-o -`) is WAV unless `--format` says otherwise.
    package init(_ arguments: ParsedArguments, defaultStem: String, standardOutputIsTerminal: Bool) throws(NagiError) {
        let formatChoice: AudioFileFormat?
        do {
            formatChoice = try arguments[OutputOptions.format]
            quality = try arguments[OutputOptions.quality].map { $0 / 10 }
        } catch {
            throw .arguments(error)
        }
        guard let given = arguments.text(of: OutputOptions.output) else {
            format = formatChoice ?? .wav
            path = "\(defaultStem).\(format.fileExtension)"
            return
        }
        guard !given.isEmpty else { throw .arguments(.invalidValue(option: "-o", value: given, expected: "a file path")) }
        path = given
        if given == Self.standardOutputPath {
            if standardOutputIsTerminal {
                throw .usage("-o - writes audio to standard output, which is a terminal; pipe it into a program (nagi render -o - | sox -t wav - out.flac) or name a file")
            }
            format = formatChoice ?? .wav
            return
        }
        if FileKind.of(given) == .folder {
            // Said before libsndfile or the rename would say it in their words.
            let example = FilePath(given).appending("\(defaultStem).\((formatChoice ?? .wav).fileExtension)").string
            throw .cannotCreate("-o '\(given)' is a folder; name the file to write, such as \(example)")
        }
        format = try Self.format(of: given, formatChoice: formatChoice)
    }

    /// The format for a file path: the one its extension names, which `--format` (when given) must agree with.
    /// A path with no extension (/dev/null, a named pipe), or one whose extension names no audio format
    /// (`p.fifo`), takes `--format`, which it then needs.
    package static func format(of path: String, formatChoice: AudioFileFormat?) throws(NagiError) -> AudioFileFormat {
        let formats = AudioFileFormat.allCases.map { "." + $0.fileExtension }.joined(separator: ", ")
        guard let fileExtension = extensionText(of: path) else {
            if let formatChoice { return formatChoice }
            throw .usage("-o \(path) has no extension to choose the format; end it in \(formats), or add --format")
        }
        guard let named = AudioFileFormat(fileExtension: fileExtension) else {
            // An extension that names no audio format (p.fifo, out.xyz) says nothing against --format, which wins.
            if let formatChoice { return formatChoice }
            throw .usage("-o \(path): .\(fileExtension) names no format nagi writes (\(formats)); change the extension or add --format")
        }
        if let formatChoice, formatChoice != named {
            throw .usage("--format \(formatChoice.rawValue) contradicts -o \(path), which says \(named.rawValue); name it .\(formatChoice.fileExtension) or drop --format")
        }
        return named
    }

    /// The extension of a path's last component without the dot, nil when it has none (or is a hidden name such
    /// as ".wav", which has no stem).
    package static func extensionText(of path: String) -> String? {
        FilePath(path).fileExtension
    }

    /// Whether the output is standard output.
    package var isStandardOutput: Bool { path == Self.standardOutputPath }

    /// How messages name the output: the path, or "standard output".
    package var displayName: String { isStandardOutput ? "standard output" : path }

    /// The sample encoding `--bits` (as given) asks of a `format` file, checked against the format with `--quality`:
    /// `--bits` applies to wav, flac and raw, `--quality` to flac, ogg, opus and mp3 (64 otherwise).
    package static func encoding(format: AudioFileFormat, bits: String?, quality: Double?) throws(NagiError) -> SampleEncoding {
        if format.isLossy, let bits {
            throw .usage("--bits \(bits) applies to wav, flac and raw; \(format.rawValue) is a lossy format with no bit depth")
        }
        if format == .wav || format == .raw, quality != nil {
            throw .usage("--quality applies to flac, ogg, opus and mp3; \(format.rawValue) is uncompressed")
        }
        return bits.flatMap(SampleEncoding.init(rawValue:)) ?? .pcm16
    }
}
