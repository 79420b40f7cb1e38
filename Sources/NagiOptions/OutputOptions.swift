import AudioFile

/// `-o`, `--format` and `--quality`: where audio goes and how it is encoded.
///
/// `render` writes one file (`-o FILE`, the format from its extension, WAV by default); `course
/// export` fills a folder (`-o DIR`, FLAC by default). The specs differ only in those words.
package struct OutputOptions {
    /// `-o FILE|-` (`render`): a path, the command line's alone. `folderOutput` is the same option for a folder, read
    /// through this key.
    package static let output = Option<String>(
        ["-o", "--output"], valueName: "FILE|-",
        help: "The file to write (default: <pattern>.wav here). Its extension picks the format: .wav, .flac, .ogg, .opus, .mp3 or .raw. - writes to standard output (WAV unless --format says otherwise; not to a terminal).",
        completion: .file)
    /// `-o DIR` (`course export`).
    package static let folderOutput = Option<String>(["-o", "--output"], valueName: "DIR", help: "The folder for the tracks, created if missing (default: ./<course name>).", completion: .folder)
    /// `--format` for one file (`render`); `folderFormat` is the same option without raw, read through this key.
    package static let format = Option<AudioFileFormat>(
        ["--format"], valueName: "F",
        help: "The format, for standard output or a path without an extension (/dev/null, a named pipe); it must agree with the extension. raw: headerless PCM, interleaved, little-endian, --bits 16 (default), 24 or float.",
        overHTTP: true)
    /// `--format` for a folder of tracks: raw PCM is left out, since tracks carry tags and a playlist needs files a
    /// player opens.
    package static let folderFormat = Option<AudioFileFormat>(
        ["--format"], valueName: "F", help: "flac (default: lossless, tagged, half the size of WAV), wav, ogg, opus or mp3.",
        choices: AudioFileFormat.allCases.filter { $0 != .raw }, overHTTP: true)
    /// `--quality`, the user's 0...10.
    package static let quality = Option<Double>(["--quality"], valueName: "Q", help: "0 (smallest) to 10 (best) for ogg, opus and mp3; compression effort for flac. Default 7.", decimalIn: 0...10, overHTTP: true)

    /// The group for a command writing one file (`render`).
    package static let fileGroup = OptionGroup(title: "Output", options: [output.spec, Self.format.spec, Self.quality.spec])
    /// The group for a command filling a folder (`course export`).
    package static let folderGroup = OptionGroup(title: "Output", options: [folderOutput.spec, folderFormat.spec, Self.quality.spec])

    /// `-o` as given.
    package var path: String?
    /// `--format` as given.
    package var format: AudioFileFormat?
    /// 0...1 for libsndfile (1 best), from the user's 0...10.
    package var quality: Double?

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            format = try arguments[Self.format]
            quality = try arguments[Self.quality].map { $0 / 10 }
        } catch {
            throw .arguments(error)
        }
        path = arguments.text(of: Self.output)
        if let path, path.isEmpty {
            throw .arguments(.invalidValue(option: "-o", value: path, expected: "a path"))
        }
    }
}
