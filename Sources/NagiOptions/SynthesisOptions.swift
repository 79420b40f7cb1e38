import Breath
import NagiDocuments
import Synth

/// The sound options `render`, `play` and the course commands share: channels, sample format,
/// soundscape and seed.
package struct SynthesisOptions {
    package static let group = OptionGroup(
        title: "Sound",
        options: [
            OptionSpec(names: ["--channels"], valueName: "N", help: "1 (mono) or 2 (stereo, the default).", allowedValues: ["1", "2"]),
            OptionSpec(names: ["--bits"], valueName: "B", help: "Sample format: 16 (the default for files), 24 or float (the default for play): wav, raw and live playback take all three, flac 16 or 24 (FLAC stores integers only).", allowedValues: ["16", "24", "float"]),
        ] + SoundscapeOptions.group.options + [
            OptionSpec(names: ["--seed"], valueName: "N", help: "Seed for the noise (default 1); the same seed gives the same bytes."),
        ]
    )

    package var channelCount: Int
    /// "16", "24" or "float", as given (nil when not given).
    package var bits: String?
    package var soundscape: SoundscapeOptions
    package var seed: UInt64

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            channelCount = try arguments.int("--channels", in: 1...2) ?? 2
            bits = try arguments.choice("--bits")
            seed = UInt64(try arguments.int("--seed", in: 0...Int.max) ?? 1)
        } catch {
            throw .arguments(error)
        }
        soundscape = SoundscapeOptions(arguments)
    }
}
