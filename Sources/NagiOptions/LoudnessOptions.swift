import NagiDocuments
import NagiKit

/// `--loudness LUFS`: the whole output's integrated loudness, for `render`, `play` and the course commands.
/// Without it the soundscape's calibrated gains stand (about −20 LUFS).
package struct LoudnessOptions: Equatable {
    package static let loudness = Option<Double>(["--loudness"], valueName: "LUFS", help: "Make the whole output this loud, -30 to -10 LUFS (e.g. -16 for phones and podcasts, -23 for broadcast): measured with an EBU R 128 meter in a first pass, then one gain on everything in the second, with the true peak kept at or under -1 dBTP (a target that needs more is reached as far as that allows, and said so). Without it the soundscape's calibrated level stands, about -20 LUFS.", decimalIn: CourseDecoder.loudnessRange, overHTTP: true)

    package static let group = OptionGroup(title: "Loudness", options: [loudness.spec])

    /// The target in LUFS; nil without `--loudness`.
    package var targetLUFS: Double?

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            targetLUFS = try arguments[Self.loudness]
        } catch {
            throw .arguments(error)
        }
    }
}
