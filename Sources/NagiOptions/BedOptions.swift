import Synth
import NagiDocuments
import NagiKit

/// `--bed FILE` and `--bed-level DB`: a user's recording under the session, and where it sits. Read and
/// checked here; the engine opens and measures the recording before anything is written.
package struct BedOptions: Equatable {
    package static let bed = Option<String>(["--bed"], valueName: "FILE", help: "A recording to lay under the whole session (WAV, FLAC, Ogg, Opus, MP3...; 1 to 8 channels): streamed, resampled, looped with a crossfade when shorter than the session, faded with it, quieter as it goes on, and ducked under a spoken guide. It replaces a bed named by the soundscape or the lesson.", completion: .file, overHTTP: true)
    package static let bedLevel = Option<Double>(["--bed-level"], valueName: "DB", help: "The bed's loudness in LU against the session's -20 LUFS, from -40 to 0 (default \(NumberText.fixed(BedMix.defaultLevelDecibels, decimals: 0))). The bed is measured first (EBU R128), so a quiet and a loud recording sit at the same place.", decimalIn: BedMix.levelRange, overHTTP: true)

    package static let group = OptionGroup(title: "Bed", options: [bed.spec, bedLevel.spec])

    /// The recording given on the command line, if any.
    package var path: String?
    /// The level given on the command line, if any, LU against −20 LUFS.
    package var levelDecibels: Double?

    package init(path: String? = nil, levelDecibels: Double? = nil) {
        self.path = path
        self.levelDecibels = levelDecibels
    }

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            levelDecibels = try arguments[Self.bedLevel]
        } catch {
            throw .arguments(error)
        }
        path = arguments.text(of: Self.bed)
        if let path, path.isEmpty {
            throw .arguments(.invalidValue(option: Self.bed.name, value: path, expected: "the path of an audio file"))
        }
    }
}
