import Breath

/// `--rate HZ`: the sample rate every schedule, render and playback of a command uses.
package struct SampleRateOptions {
    package static let rate = Option<Int>(["--rate"], valueName: "HZ", help: "Sample rate in Hz, 8000 to 192000 (default 48000).", wholeNumberIn: Schedule.sampleRateRange, overHTTP: true)

    package static let group = OptionGroup(title: "Sample rate", options: [rate.spec])

    /// The rate when `--rate` is not given.
    package static let defaultSampleRate = 48000

    /// Frames per second.
    package var sampleRate: Int

    package init(_ arguments: ParsedArguments) throws(NagiError) {
        do {
            sampleRate = try arguments[Self.rate] ?? Self.defaultSampleRate
        } catch {
            throw .arguments(error)
        }
    }
}
