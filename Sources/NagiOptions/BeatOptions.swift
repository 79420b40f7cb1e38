import Breath
import NagiDocuments
import Synth

/// `--beat HZ|FROM:TO` and `--beat-style binaural|isochronic`: a beat carried by the main tone, for
/// `render`, `play` and the course commands. Read and checked here; the renderer takes the typed `Beat`.
package struct BeatOptions: Equatable {
    /// `--beat`: one rate in Hz, or a glide FROM:TO.
    package static let beat = Option<(startHz: Double, endHz: Double)>(spec: OptionSpec(names: ["--beat"], valueName: "HZ|FROM:TO", help: "Add a beat to the tone, 0.5 to 40 times a second; FROM:TO glides from one rate to the other across the session (e.g. 10:6). The horizon still moves the pitch; the beat rides on it. Nothing more is claimed for it than what it is: a sound.", overHTTP: true)) { text throws(InvalidOptionValue) in
        guard let rates = CourseDecoder.beatRates(text) else {
            throw InvalidOptionValue(expected: "a rate in Hz or FROM:TO, each from 0.5 to 40 (e.g. 10 or 10:6)")
        }
        return rates
    }
    package static let beatStyle = Option<Beat.Style>(["--beat-style"], valueName: "S", help: "binaural (the default: the left and right tones differ by the beat, heard as a slow wobble on headphones; needs two channels) or isochronic (the tone's level pulses at the beat with soft edges; any speakers, mono too).", overHTTP: true)

    package static let group = OptionGroup(title: "Beat", options: [Self.beat.spec, beatStyle.spec])

    /// The beat asked for on the command line; nil without `--beat`.
    package var beat: Beat?
    /// Whether `--beat-style` was given (a lesson's own style yields to it).
    package var styleGiven: Bool
    package var style: Beat.Style

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            let style = try arguments[Self.beatStyle] ?? .binaural
            self.style = style
            beat = try arguments[Self.beat].map { Beat(style: style, startHz: $0.startHz, endHz: $0.endHz) }
        } catch {
            throw .arguments(error)
        }
        styleGiven = arguments.isSet(Self.beatStyle)
        if beat == nil, styleGiven {
            throw .usage("--beat-style sets how a beat sounds, but no --beat gives one; add --beat HZ")
        }
    }
}
