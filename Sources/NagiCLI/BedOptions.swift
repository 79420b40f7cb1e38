import BedSource
import Breath
import Synth

/// `--bed FILE` and `--bed-level DB`: a user's recording under the session, and where it sits. Read and
/// checked here; `mix` opens and measures the recording before anything is written.
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
    /// The most of a recording measured for its loudness (its opening two minutes), seconds.
    static let measuredSeconds = 120

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

    /// The bed that applies, opened, checked and measured: `--bed` over the lesson's over the soundscape's,
    /// and the level likewise. nil when none names a bed.
    /// - Throws: `.usage` for a level with no bed; `.bed` for a recording that cannot be used (66, 65, 74).
    func mix(soundscape: Soundscape, lesson: Course.Lesson? = nil, sampleRate: Int, channelCount: Int) throws(CLIError) -> BedMix? {
        guard let chosenPath = path ?? lesson?.bed ?? soundscape.bed else {
            if levelDecibels != nil {
                throw .usage("--bed-level sets the level of a bed, but there is none; add --bed FILE")
            }
            return nil
        }
        let level = levelDecibels ?? lesson?.bedLevelDecibels ?? soundscape.bedLevelDecibels ?? BedMix.defaultLevelDecibels
        let loudness = try Self.loudness(of: chosenPath, sampleRate: sampleRate, channelCount: channelCount)
        return BedMix(path: chosenPath, gainDecibels: BedMix.gainDecibels(loudness: loudness, levelDecibels: level))
    }

    /// The recording's integrated loudness over its opening `measuredSeconds`, in the render's channels, LUFS.
    /// Measured at the recording's own rate (loudness does not depend on it), so no resampling is spent on it;
    /// the first open also checks the file is a usable bed at the render's rate.
    static func loudness(of path: String, sampleRate: Int, channelCount: Int) throws(CLIError) -> Double {
        do throws(BedStreamError) {
            let check = try BedStream(path: path, sampleRate: sampleRate, channelCount: channelCount)
            let measured = check.sourceSampleRate == sampleRate
                ? check : try BedStream(path: path, sampleRate: check.sourceSampleRate, channelCount: channelCount)
            return try BedLoudness.integratedLoudness(of: measured, maximumFrames: measuredSeconds * measured.sampleRate)
        } catch {
            throw .bed(error)
        }
    }
}
