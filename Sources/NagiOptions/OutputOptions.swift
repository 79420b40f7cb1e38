import AudioFile

/// `-o`, `--format` and `--quality`: where audio goes and how it is encoded.
///
/// `render` writes one file (`-o FILE`, the format from its extension, WAV by default); `course
/// export` fills a folder (`-o DIR`, FLAC by default). The specs differ only in those words.
package struct OutputOptions {
    /// The group for a command writing one file (`render`).
    package static let fileGroup = group(
        outputValueName: "FILE|-",
        outputHelp: "The file to write (default: <pattern>.wav here). Its extension picks the format: .wav, .flac, .ogg, .opus, .mp3 or .raw. - writes to standard output (WAV unless --format says otherwise; not to a terminal).",
        outputCompletion: .file,
        formats: AudioFileFormat.allCases,
        formatHelp: "The format, for standard output or a path without an extension (/dev/null, a named pipe); it must agree with the extension. raw: headerless PCM, interleaved, little-endian, --bits 16 (default), 24 or float.")
    /// The group for a command filling a folder (`course export`).
    /// Raw PCM is left out: tracks carry tags and a playlist needs files a player opens.
    package static let folderGroup = group(
        outputValueName: "DIR", outputHelp: "The folder for the tracks, created if missing (default: ./<course name>).", outputCompletion: .folder,
        formats: AudioFileFormat.allCases.filter { $0 != .raw },
        formatHelp: "flac (default: lossless, tagged, half the size of WAV), wav, ogg, opus or mp3.")

    private static func group(outputValueName: String, outputHelp: String, outputCompletion: CompletionKind, formats: [AudioFileFormat], formatHelp: String) -> OptionGroup {
        OptionGroup(
            title: "Output",
            options: [
                OptionSpec(names: ["-o", "--output"], valueName: outputValueName, help: outputHelp, completion: outputCompletion),
                OptionSpec(names: ["--format"], valueName: "F", help: formatHelp, allowedValues: formats.map(\.rawValue)),
                OptionSpec(names: ["--quality"], valueName: "Q", help: "0 (smallest) to 10 (best) for ogg, opus and mp3; compression effort for flac. Default 7."),
            ]
        )
    }

    /// `-o` as given.
    package var path: String?
    /// `--format` as given.
    package var format: AudioFileFormat?
    /// 0...1 for libsndfile (1 best), from the user's 0...10.
    package var quality: Double?

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            format = try arguments.choice("--format").flatMap(AudioFileFormat.init(rawValue:))
            quality = try arguments.decimal("--quality", in: 0...10).map { $0 / 10 }
        } catch {
            throw .arguments(error)
        }
        path = arguments.value("--output")
        if let path, path.isEmpty {
            throw .arguments(.invalidValue(option: "-o", value: path, expected: "a path"))
        }
    }
}
