import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import LiveAudio
import Synth

/// The renderer is the live player's source as it is: the same pulled function as `render`.
extension Renderer: PCMFrameSource {}

/// `nagi play`: the session live through ALSA, with a terminal view and keys.
enum PlayCommand {
    /// The options `play` and `course next` share.
    static let liveOptions: [OptionSpec] = [
        OptionSpec(names: ["--device"], valueName: "NAME", help: "The ALSA PCM to play on: default (the default), pulse, hw:0, plughw:0, or file:'x.raw',raw to capture."),
        OptionSpec(names: ["--latency"], valueName: "MS", help: "The device buffer in milliseconds, 50 to 1000 (default 200)."),
    ] + SessionOptions.lengthOptions + [SessionOptions.rateOption] + SynthesisOptions.specs + [
        OptionSpec(names: ["--quiet"], help: "No view and no messages, only errors."),
    ]

    static let spec = CommandSpec(
        name: "play",
        summary: "Play a breathing session live through ALSA, with a view of the breath in the terminal.",
        positionals: [PositionalSpec(name: "PATTERN", help: SessionOptions.patternPositional.help + " Default: 4-7-8.", isOptional: true)],
        options: SessionOptions.paceOptions + liveOptions,
        exclusiveGroups: SessionOptions.exclusiveGroups,
        discussion: """
        Keys: space pauses (with a short fade) and resumes from the same point; q or Esc ends gracefully. \
        Ctrl-C fades out within 300 ms and exits 130. The sound is, frame for frame, what `nagi render` \
        writes for the same options. With no sound card, use `nagi render` to write a file instead.

        Examples:
          nagi play box --minutes 5
          nagi play coherent --device pulse --soundscape night
          nagi play 4-7-8 --device "file:'/tmp/capture.raw',raw" --bits float
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog, defaultPattern: "4-7-8")
        _ = try play(session: options.session, name: options.name, soundscapeReference: arguments.value("--soundscape"), arguments: arguments, catalog: catalog)
    }

    /// Plays `session` (already at its final length) with the live options in `arguments`; returns whether
    /// it was played to the end. Throws `.interrupted` after a graceful fade on SIGINT / SIGTERM.
    static func play(session: Session, name: String, soundscapeReference: String?, arguments: ParsedArguments, catalog: PresetCatalog) throws(CLIError) -> Bool {
        let rate: Int
        let latency: Int
        do throws(ArgumentError) {
            rate = try arguments.int("--rate", in: Schedule.sampleRateRange) ?? 48000
            latency = try arguments.int("--latency", in: 50...1000) ?? 200
        } catch {
            throw .arguments(error)
        }
        let schedule: Schedule
        do {
            schedule = try Schedule(session: session, sampleRate: rate)
        } catch {
            throw .breath(error)
        }
        let synthesis = try SynthesisOptions(arguments, catalog: catalog, soundscapeReference: .some(soundscapeReference))
        let format: PCMSampleFormat = switch synthesis.bits {
        case "16": .signed16
        case "24": .signed24in32
        default: .float32
        }
        let deviceName = arguments.value("--device") ?? "default"
        let quiet = arguments.isSet("--quiet")

        nagi_install_stop_handlers()
        let renderer = Renderer(schedule: schedule, settings: RenderSettings(soundscape: synthesis.soundscape, channelCount: synthesis.channelCount, seed: synthesis.seed, cues: synthesis.cuesEnabled ? .chimes : .none))
        let device: ALSAPlaybackDevice
        do {
            device = try ALSAPlaybackDevice(deviceName: deviceName, sampleRate: rate, channelCount: synthesis.channelCount, format: format, latencyMilliseconds: latency)
        } catch {
            throw .unavailable(error.message)
        }
        defer { device.close() }

        let showView = !quiet && Console.standardOutputIsTerminal
        let keys = showView ? TerminalKeys() : nil
        defer { keys?.restore() }
        let view = LiveView(schedule: schedule, title: session.title ?? name, mode: quiet ? .silent : (showView ? .terminal : .lines))
        let loop = PlaybackLoop(source: renderer, sink: device)
        let summary: PlaybackSummary
        do {
            summary = try loop.run(control: {
                let signal = nagi_stop_signal()
                if signal != 0 { return .stop(reason: .signal(signal)) }
                return keys?.nextCommand()
            }, observer: { progress in
                view.update(progress)
            })
        } catch {
            keys?.restore()
            throw .io(error.message)
        }
        keys?.restore()
        if !quiet {
            Console.err(view.practisedLine(heardFrame: summary.heardFrame, underrunCount: summary.underrunCount) + "\n")
        }
        switch summary.endedBy {
        case .finished:
            return true
        case .stopped(reason: .user):
            return false
        case let .stopped(reason: .signal(signal)):
            throw .interrupted(signal: signal)
        }
    }
}
