import NagiOptions
import CNagiSystem
import LiveAudio
import NagiKit
import NagiLive

/// `nagi play`: the session live through ALSA, with a terminal view and keys.
enum PlayCommand {
    static let retention = Option<String>(["--retention"], valueName: "R", help: "open: each retention (a hold after the breath out that is a stage of its own, as in wim-hof) lasts until enter, at most 5 minutes; stated: as long as the session says (the default).", allowedValues: ["stated", "open"])
    /// `play`'s and `course next`'s `--quiet` (no view).
    static let quiet = Flag(["--quiet"], help: "No view and no messages, only errors.")

    /// The option groups `play` and `course next` share.
    /// (`play` adds `PaceOptions`; a lesson names its own pattern.)
    static let liveGroups = [LiveOptions.group] + SessionOptions.lengthAndRateGroups + [SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group]

    static let spec = CommandSpec(
        name: "play",
        summary: "Play a breathing session live through ALSA, with a view of the breath in the terminal.",
        positionals: [SessionOptions.patternPositional],
        groups: [PaceOptions.group] + liveGroups,
        options: [retention.spec, quiet.spec],
        discussion: """
        Keys: space pauses (with a short fade) and resumes from the same point; + (or =, or the up arrow) \
        and - (or the down arrow) move the volume 2 dB, ramped over 50 ms, from -30 to +6 dB; n goes on \
        to the next stage (a round, a labelled stage, else a breath) and b back to the start of the \
        current one, both at the next phase boundary so no breath is cut (n in the last one ends the \
        session there); enter ends an open hold (a phase with "open": true, or --retention open) and \
        breathes on; other keys do nothing. q or Esc ends gracefully \
        and exits 1 (stopped early), where playing to the end exits 0. The view fits the terminal's width. \
        Ctrl-C fades out within 300 ms and exits 130. The sound is, frame for frame, what `nagi render` \
        writes for the same options. With no sound card, use `nagi render` to write a file instead.

        Examples:
          nagi play box --minutes 5
          nagi play coherent --device pulse --soundscape night
          nagi play 4-7-8 --device "file:'/tmp/capture.raw',raw" --bits float
          nagi play 4-7-8 --cues both --count voice
          nagi play wim-hof --retention open --log holds.jsonl
        """
    )

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog)
        let settings = try LiveSettings(arguments)
        var session = options.session
        let retention: String?
        do { retention = try arguments[Self.retention] } catch { throw .arguments(error) }
        if retention == "open" {
            guard let open = session.withOpenRetention() else {
                throw .usage("--retention open: '\(ErrorLine.printable(options.name))' has no retention (a hold after the breath out that is a stage of its own, as in wim-hof)")
            }
            session = open
        }
        let soundscape = try settings.sound.synthesis.soundscape.resolve(catalog: catalog)
        let outcome = try play(session: session, name: options.name, sampleRate: options.sampleRate, soundscape: soundscape.soundscape, settings: settings)
        if let startedAt = outcome.startedAt {
            try SessionStartRecord.save(name: options.name, startedAt: startedAt)
        }
        if !outcome.finished { throw .stoppedEarly }
    }

    /// The advice after a device fault: the command line's, not the device layer's.
    static let renderInstead = "; `nagi render` writes a file instead."

    /// What `play` and `course next` read from their command line besides the session, read once.
    struct LiveSettings {
        var live: LiveOptions
        var sound: SoundOptions
        var guidance: GuidanceOptions
        var quiet: Bool

        /// `lesson` (in `course next`) supplies the guidance the command line leaves unset.
        init(_ arguments: ParsedArguments, forLesson: Bool = false) throws(NagiError) {
            live = try LiveOptions(arguments)
            sound = try SoundOptions(arguments)
            guidance = try GuidanceOptions(arguments, forLessons: forLesson)
            quiet = arguments[PlayCommand.quiet]
        }
    }

    /// How a played session ended.
    struct Outcome {
        /// Whether it was played to the end.
        var finished: Bool
        /// When its first frame was heard (the device's delay taken off), ISO 8601 local time with
        /// milliseconds; nil if nothing was heard.
        var startedAt: String?
        /// Each open hold's length in milliseconds, in order.
        var retentionMilliseconds: [Int64] = []
        /// How many skips (n, b) were made.
        var skipCount = 0
    }

    /// Plays `session` (already at its final length) with `settings`, prints when it started, and says whether
    /// it was played to the end. Throws `.interrupted` after a graceful fade on SIGINT / SIGTERM.
    static func play(session: Session, name: String, sampleRate rate: Int, soundscape: Soundscape, settings: LiveSettings, lesson: Course.Lesson? = nil) throws(NagiError) -> Outcome {
        let (live, synthesis, quiet) = (settings.live, settings.sound.synthesis, settings.quiet)
        let schedule: Schedule
        do {
            // Open holds are scheduled at their longest; enter ends one early by a jump to its end.
            schedule = try Schedule(session: session.withOpenPhasesLasting(Phase.openMaximumMicroseconds), sampleRate: rate)
        } catch {
            throw .breath(error)
        }
        try SessionOptions.refuseSubsamplePhases(schedule)
        let log = try live.logPath.map { path throws(NagiError) in try RetentionLog(path: path) }
        let format: PCMSampleFormat = switch synthesis.bits {
        case "16": .signed16
        case "24": .signed24in32
        default: .float32
        }

        // Prepared exactly as `render` prepares it (the same loudness pass and gain), so the live sound stays the
        // rendered one; flite, libsoxr, the cue pack and the bed's measurement before the device opens: playback
        // never waits for them.
        Console.installStopHandlers()
        let soundtrack = try Preparation.prepare(
            try settings.sound.request(guidance: settings.guidance, schedule: schedule, soundscape: soundscape, lesson: lesson), showsLoudnessPass: !quiet)
        if let outcome = soundtrack.loudness, outcome.fallsShort { Console.err(outcome.shortfallLine(naming: "play") + "\n") }
        let device: ALSAPlaybackDevice
        do {
            device = try ALSAPlaybackDevice(deviceName: live.deviceName, sampleRate: rate, channelCount: synthesis.channelCount, format: format, latencyMilliseconds: live.latencyMilliseconds)
        } catch {
            throw .unavailable(error.message + Self.renderInstead)
        }
        defer { device.close() }
        let liveSession: LiveSession
        do { liveSession = try LiveSession(soundtrack: soundtrack, sink: device, volumeDecibels: live.volumeDecibels) } catch { throw NagiError(error) }

        let showView = !quiet && Console.standardOutputIsTerminal
        let keys = showView ? TerminalKeys() : nil
        defer { keys?.restore() }
        let view = LiveView(schedule: schedule, title: session.title ?? name, mode: quiet ? .silent : (showView ? .terminal : .lines))
        view.volumeDecibels = liveSession.volumeDecibels
        let outcome: LiveSession.Outcome
        do {
            outcome = try liveSession.run(commands: { keys?.nextKey() }, stopSignal: CommandContext.current.stopSignal, events: { event in
                switch event {
                case let .progress(breathing, heldFrameCount, volumeDecibels):
                    // A countdown's lead-in (negative frames) and the ending have states of their own in the view.
                    view.heldFrameCount = heldFrameCount
                    view.volumeDecibels = volumeDecibels
                    view.update(breathing)
                case let .retentionEnded(retention):
                    log?.record(round: retention.round, retentionMilliseconds: retention.frameCount * 1000 / Int64(rate), ending: retention.ending)
                }
            })
        } catch {
            keys?.restore()
            if case let .writeFailed(reason) = error { throw .io(reason + Self.renderInstead) }
            throw NagiError(error)
        }
        let stoppedEarly = !outcome.finished && outcome.stopSignal == nil
        if outcome.stopSignal == nil {
            view.finish(heardFrame: max(0, outcome.heardFrame), ending: stoppedEarly ? .stoppedEarly(key: keys?.stopKeyName ?? "q") : .finished)
        } else {
            view.endLine()
        }
        keys?.restore()
        let startedAt = outcome.startedAt.map(SessionStartRecord.timestamp(of:))
        if !quiet {
            Console.err(view.practisedLine(heardFrame: max(0, outcome.heardFrame), underrunCount: outcome.underrunCount, stoppedEarly: stoppedEarly, breaths: outcome.completedBreaths, playedFrameCount: outcome.completedBreaths == nil ? nil : max(0, outcome.heardFrameWithoutJumps)) + "\n")
            if let startedAt { Console.err("session started at \(startedAt)\n") }
        }
        if let signal = outcome.stopSignal { throw .interrupted(signal: signal) }
        return Outcome(finished: outcome.finished, startedAt: startedAt, retentionMilliseconds: outcome.retentions.map { $0.frameCount * 1000 / Int64(rate) }, skipCount: outcome.skipCount)
    }
}
