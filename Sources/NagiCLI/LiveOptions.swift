import NagiKit
import NagiLive
import NagiOptions

/// `--device`, `--latency`, `--volume` and `--log`: where and how live playback plays (`play`, `course next`).
struct LiveOptions {
    static let device = Option<String>(["--device"], valueName: "NAME", help: "The ALSA PCM to play on: default (the default), pulse, hw:0, plughw:0, or file:'x.raw',raw to capture.")
    static let latency = Option<Int>(["--latency"], valueName: "MS", help: "The device buffer in milliseconds, 50 to 1000 (default 200).", wholeNumberIn: 50...1000)
    static let volume = Option<Double>(["--volume"], valueName: "DB", help: "The volume to start at, -30 to +6 dB (default 0); + and - move it in 2 dB steps while playing, ahead of the true-peak limiter, so it never passes the ceiling.", decimalIn: LiveSession.volumeRange)
    static let log = Option<String>(["--log"], valueName: "FILE", help: "Append each open hold's length to FILE as a JSON line as it ends: {\"ended\":\"enter\",\"retentionMs\":61234,\"round\":1} (ended: enter, maximum or stop).", completion: .file)

    static let group = OptionGroup(title: "Live playback", options: [device.spec, latency.spec, volume.spec, log.spec])

    var deviceName: String
    var latencyMilliseconds: Int
    /// The volume at the start, dB.
    var volumeDecibels: Double
    /// Where open holds are logged, if anywhere.
    var logPath: String?


    init(_ arguments: ParsedArguments) throws(NagiError) {
        deviceName = arguments.text(of: Self.device) ?? "default"
        do {
            latencyMilliseconds = try arguments[Self.latency] ?? 200
            volumeDecibels = try arguments[Self.volume] ?? 0
        } catch {
            throw .arguments(error)
        }
        logPath = arguments.text(of: Self.log)
        if logPath?.isEmpty == true { throw .usage("--log needs a file name") }
    }
}
