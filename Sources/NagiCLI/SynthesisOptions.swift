import Breath
import NagiDocuments
import Synth

/// The sound options `render` and `play` share: channels, sample format, soundscape, cues and seed.
struct SynthesisOptions {
    var channelCount: Int
    /// "16", "24" or "float", as given (nil when not given).
    var bits: String?
    var soundscape: Soundscape
    var soundscapeName: String
    var cuesEnabled: Bool
    var seed: UInt64

    static let specs: [OptionSpec] = [
        OptionSpec(names: ["--channels"], valueName: "N", help: "1 (mono) or 2 (stereo, the default).", allowedValues: ["1", "2"]),
        OptionSpec(names: ["--bits"], valueName: "B", help: "Sample format: 16, 24 or float.", allowedValues: ["16", "24", "float"]),
        OptionSpec(names: ["--soundscape"], valueName: "NAME|FILE", help: "horizon (default), night, dusk, rain, auto (by the local hour), or a soundscape JSON file."),
        OptionSpec(names: ["--no-cues"], help: "Leave out the soft chimes at each phase change (nothing else changes)."),
        OptionSpec(names: ["--seed"], valueName: "N", help: "Seed for the noise (default 1); the same seed gives the same bytes."),
    ]

    /// Reads the options; `soundscapeReference` replaces `--soundscape` when a caller (a course lesson)
    /// decides which soundscape applies.
    init(_ arguments: ParsedArguments, catalog: PresetCatalog, soundscapeReference: String?? = nil) throws(CLIError) {
        do {
            channelCount = try arguments.int("--channels", in: 1...2) ?? 2
            bits = try arguments.choice("--bits")
            let seedValue = try arguments.int("--seed", in: 0...Int.max) ?? 1
            seed = UInt64(seedValue)
        } catch {
            throw .arguments(error)
        }
        cuesEnabled = !arguments.isSet("--no-cues")
        (soundscape, soundscapeName) = try SoundscapeResolver.resolve(soundscapeReference ?? arguments.value("--soundscape"), catalog: catalog)
    }
}
