/// `--device` and `--latency`: where and how live playback plays (`play`, `course next`).
struct LiveOptions {
    static let group = OptionGroup(
        title: "Live playback",
        options: [
            OptionSpec(names: ["--device"], valueName: "NAME", help: "The ALSA PCM to play on: default (the default), pulse, hw:0, plughw:0, or file:'x.raw',raw to capture."),
            OptionSpec(names: ["--latency"], valueName: "MS", help: "The device buffer in milliseconds, 50 to 1000 (default 200)."),
        ]
    )

    var deviceName: String
    var latencyMilliseconds: Int

    init(_ arguments: ParsedArguments) throws(CLIError) {
        deviceName = arguments.value("--device") ?? "default"
        do {
            latencyMilliseconds = try arguments.int("--latency", in: 50...1000) ?? 200
        } catch {
            throw .arguments(error)
        }
    }
}
