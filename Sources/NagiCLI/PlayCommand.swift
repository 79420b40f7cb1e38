import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import LiveAudio
import NagiDocuments
import Synth

/// The renderer is the live player's source as it is: the same pulled function as `render`.
extension Renderer: PCMFrameSource {}

/// `nagi play`: the session live through ALSA, with a terminal view and keys.
enum PlayCommand {
    /// The option groups `play` and `course next` share.
    /// (`play` adds `PaceOptions`; a lesson names its own pattern.)
    static let liveGroups = [LiveOptions.group] + SessionOptions.lengthAndRateGroups + [SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group]

    static let spec = CommandSpec(
        name: "play",
        summary: "Play a breathing session live through ALSA, with a view of the breath in the terminal.",
        positionals: [SessionOptions.patternPositional(defaultPattern: "4-7-8")],
        groups: [PaceOptions.group] + liveGroups,
        options: [OptionSpec(names: ["--quiet"], help: "No view and no messages, only errors.")],
        discussion: """
        Keys: space pauses (with a short fade) and resumes from the same point; q or Esc ends gracefully \
        and exits 1 (stopped early), where playing to the end exits 0. The view fits the terminal's width. \
        Ctrl-C fades out within 300 ms and exits 130. The sound is, frame for frame, what `nagi render` \
        writes for the same options. With no sound card, use `nagi render` to write a file instead.

        Examples:
          nagi play box --minutes 5
          nagi play coherent --device pulse --soundscape night
          nagi play 4-7-8 --device "file:'/tmp/capture.raw',raw" --bits float
          nagi play 4-7-8 --cues both --count voice
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog, defaultPattern: "4-7-8")
        let settings = try LiveSettings(arguments)
        let soundscape = try settings.synthesis.soundscape.resolve(catalog: catalog)
        if try !play(session: options.session, name: options.name, sampleRate: options.sampleRate, soundscape: soundscape.soundscape, settings: settings) {
            throw .stoppedEarly
        }
    }

    /// What `play` and `course next` read from their command line besides the session, read once.
    struct LiveSettings {
        var live: LiveOptions
        var synthesis: SynthesisOptions
        var guidance: GuidanceOptions
        var beat: BeatOptions
        var loudness: LoudnessOptions
        var bed: BedOptions
        var quiet: Bool

        /// `lesson` (in `course next`) supplies the guidance the command line leaves unset.
        init(_ arguments: ParsedArguments, lesson: Course.Lesson? = nil) throws(CLIError) {
            live = try LiveOptions(arguments)
            synthesis = try SynthesisOptions(arguments)
            guidance = try GuidanceOptions(arguments, lesson: lesson)
            beat = try BeatOptions(arguments)
            loudness = try LoudnessOptions(arguments)
            bed = try BedOptions(arguments)
            quiet = arguments.isSet("--quiet")
        }
    }

    /// Plays `session` (already at its final length) with `settings`; returns whether it was played to the
    /// end. Throws `.interrupted` after a graceful fade on SIGINT / SIGTERM.
    static func play(session: Session, name: String, sampleRate rate: Int, soundscape: Soundscape, settings: LiveSettings, lesson: Course.Lesson? = nil) throws(CLIError) -> Bool {
        let (live, synthesis, guidance, quiet) = (settings.live, settings.synthesis, settings.guidance, settings.quiet)
        let schedule: Schedule
        do {
            schedule = try Schedule(session: session, sampleRate: rate)
        } catch {
            throw .breath(error)
        }
        let format: PCMSampleFormat = switch synthesis.bits {
        case "16": .signed16
        case "24": .signed24in32
        default: .float32
        }

        let beat = settings.beat.beatFor(lesson: lesson?.beat)
        try BeatOptions.check(beat, channelCount: synthesis.channelCount)
        // Measured and opened exactly as `render` does, so the live sound stays the rendered one.
        let bedMix = try settings.bed.mix(soundscape: soundscape, lesson: lesson, schedule: schedule, channelCount: synthesis.channelCount)
        let bed = try bedMix.map { mix throws(CLIError) in try BedPrefetcher(path: mix.path, sampleRate: rate, channelCount: synthesis.channelCount) }
        // flite, libsoxr and the cue pack before the device opens: playback never waits for them.
        var renderSettings = try GuideAssembler().settings(for: guidance, schedule: schedule, soundscape: soundscape, channelCount: synthesis.channelCount, seed: synthesis.seed)
        renderSettings.bed = bedMix
        renderSettings.beat = beat
        nagi_install_stop_handlers()
        // The same first pass and gain as `render`: live equals rendered.
        if let target = settings.loudness.target(lesson: lesson?.loudnessLUFS) {
            let outcome = try LoudnessPass.measure(schedule: schedule, settings: renderSettings, targetLUFS: target)
            renderSettings.loudnessGainDecibels = outcome.gainDecibels
            if outcome.fallsShort { Console.err(outcome.shortfallLine(naming: "play") + "\n") }
        }
        let renderer = Renderer(schedule: schedule, settings: renderSettings, bed: bed)
        let device: ALSAPlaybackDevice
        do {
            device = try ALSAPlaybackDevice(deviceName: live.deviceName, sampleRate: rate, channelCount: synthesis.channelCount, format: format, latencyMilliseconds: live.latencyMilliseconds)
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
        let stoppedEarly: Bool
        if case .stopped(reason: .user) = summary.endedBy { stoppedEarly = true } else { stoppedEarly = false }
        if case .stopped(reason: .signal) = summary.endedBy {} else {
            view.finish(heardFrame: summary.heardFrame, ending: stoppedEarly ? .stoppedEarly : .finished)
        }
        keys?.restore()
        if let failure = bed?.failure { throw .bed(failure) }
        if !quiet {
            Console.err(view.practisedLine(heardFrame: summary.heardFrame, underrunCount: summary.underrunCount, stoppedEarly: stoppedEarly) + "\n")
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
