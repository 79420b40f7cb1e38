import NagiKit

/// `--bed FILE` and `--bed-level DB`: a user's recording under the session, and where it sits. Read and
/// checked here; the engine opens and measures the recording before anything is written.
struct BedOptions: Equatable {
    static let group = OptionGroup(
        title: "Bed",
        options: [
            OptionSpec(names: ["--bed"], valueName: "FILE", help: "A recording to lay under the whole session (WAV, FLAC, Ogg, Opus, MP3...; 1 to 8 channels): streamed, resampled, looped with a crossfade when shorter than the session, faded with it, quieter as it goes on, and ducked under a spoken guide. It replaces a bed named by the soundscape or the lesson.", completion: .file),
            OptionSpec(names: ["--bed-level"], valueName: "DB", help: "The bed's loudness in LU against the session's -20 LUFS, from -40 to 0 (default \(NumberText.fixed(BedMix.defaultLevelDecibels, decimals: 0))). The bed is measured first (EBU R128), so a quiet and a loud recording sit at the same place."),
        ]
    )

    /// The recording given on the command line, if any.
    var path: String?
    /// The level given on the command line, if any, LU against −20 LUFS.
    var levelDecibels: Double?

    init(path: String? = nil, levelDecibels: Double? = nil) {
        self.path = path
        self.levelDecibels = levelDecibels
    }

    init(_ arguments: ParsedArguments) throws(CLIError) {
        do {
            levelDecibels = try arguments.decimal("--bed-level", in: BedMix.levelRange)
        } catch {
            throw .arguments(error)
        }
        path = arguments.value("--bed")
        if let path, path.isEmpty {
            throw .arguments(.invalidValue(option: "--bed", value: path, expected: "the path of an audio file"))
        }
    }

    /// The bed that applies: `--bed` over the lesson's over the soundscape's, and the level likewise (opened
    /// and measured when the soundtrack is prepared). nil when none names a bed.
    /// - Throws: `.usage` for a level with no bed.
    func bed(soundscape: Soundscape, lesson: Course.Lesson? = nil) throws(CLIError) -> SoundtrackRequest.Bed? {
        guard let chosenPath = SoundtrackRequest.chosen(path, lesson: lesson?.bed, soundscape: soundscape.bed) else {
            if levelDecibels != nil {
                throw .usage("--bed-level sets the level of a bed, but there is none; add --bed FILE")
            }
            return nil
        }
        let level = SoundtrackRequest.chosen(levelDecibels, lesson: lesson?.bedLevelDecibels, soundscape: soundscape.bedLevelDecibels)
        return SoundtrackRequest.Bed(path: chosenPath, levelDecibels: level ?? BedMix.defaultLevelDecibels)
    }
}
