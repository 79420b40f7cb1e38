import Breath

/// `--rate HZ`: the sample rate every schedule, render and playback of a command uses.
struct SampleRateOptions {
    static let group = OptionGroup(
        title: "Sample rate",
        options: [OptionSpec(names: ["--rate"], valueName: "HZ", help: "Sample rate in Hz, 8000 to 192000 (default 48000).")]
    )

    /// The rate when `--rate` is not given.
    static let defaultSampleRate = 48000

    /// Frames per second.
    var sampleRate: Int

    init(_ arguments: ParsedArguments) throws(CLIError) {
        do {
            sampleRate = try arguments.int("--rate", in: Schedule.sampleRateRange) ?? Self.defaultSampleRate
        } catch {
            throw .arguments(error)
        }
    }
}
