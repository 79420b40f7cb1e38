import Breath
import NagiDocuments
import Synth

/// The sound options `render`, `play` and the course commands share: channels, sample format,
/// soundscape and seed.
package struct SynthesisOptions {
    package static let channels = Option<Int>(spec: OptionSpec(names: ["--channels"], valueName: "N", help: "1 (mono) or 2 (stereo, the default).", allowedValues: ["1", "2"], overHTTP: true)) { text throws(InvalidOptionValue) in
        guard let count = Int(text), (1...2).contains(count) else { throw InvalidOptionValue(expected: ParsedArguments.describeWholeNumbers(in: 1...2)) }
        return count
    }
    package static let bits = Option<String>(["--bits"], valueName: "B", help: "Sample format: 16 (the default for files), 24 or float (the default for play): wav, raw and live playback take all three, flac 16 or 24 (FLAC stores integers only).", allowedValues: ["16", "24", "float"], overHTTP: true)
    package static let seed = Option<Int>(["--seed"], valueName: "N", help: "Seed for the noise (default 1); the same seed gives the same bytes.", wholeNumberIn: 0...Int.max, overHTTP: true)

    package static let group = OptionGroup(title: "Sound", options: [channels.spec, Self.bits.spec] + SoundscapeOptions.group.options + [Self.seed.spec])

    package var channelCount: Int
    /// "16", "24" or "float", as given (nil when not given).
    package var bits: String?
    package var soundscape: SoundscapeOptions
    package var seed: UInt64

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            channelCount = try arguments[Self.channels] ?? 2
            bits = try arguments[Self.bits]
            seed = UInt64(try arguments[Self.seed] ?? 1)
        } catch {
            throw .arguments(error)
        }
        soundscape = SoundscapeOptions(arguments)
    }
}
