import CNagiSystem
import LiveAudio
import NagiKit

/// The engine's renderer is the live player's source as it is: the same pulled function as `render`.
extension SoundtrackRenderer: PCMFrameSource {}

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
        options: [
            OptionSpec(names: ["--retention"], valueName: "R", help: "open: each retention (a hold after the breath out that is a stage of its own, as in wim-hof) lasts until enter, at most 5 minutes; stated: as long as the session says (the default).", allowedValues: ["stated", "open"]),
            OptionSpec(names: ["--quiet"], help: "No view and no messages, only errors."),
        ],
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

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let options = try SessionOptions(arguments, catalog: catalog, defaultPattern: "4-7-8")
        let settings = try LiveSettings(arguments)
        var session = options.session
        let retention: String?
        do { retention = try arguments.choice("--retention") } catch { throw .arguments(error) }
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
        init(_ arguments: ParsedArguments, lesson: Course.Lesson? = nil) throws(CLIError) {
            live = try LiveOptions(arguments)
            sound = try SoundOptions(arguments)
            guidance = try GuidanceOptions(arguments, lesson: lesson)
            quiet = arguments.isSet("--quiet")
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
    static func play(session: Session, name: String, sampleRate rate: Int, soundscape: Soundscape, settings: LiveSettings, lesson: Course.Lesson? = nil) throws(CLIError) -> Outcome {
        let (live, synthesis, quiet) = (settings.live, settings.sound.synthesis, settings.quiet)
        let schedule: Schedule
        do {
            // Open holds are scheduled at their longest; enter ends one early by a jump to its end.
            schedule = try Schedule(session: session.withOpenPhasesLasting(Phase.openMaximumMicroseconds), sampleRate: rate)
        } catch {
            throw .breath(error)
        }
        let log = try live.logPath.map { path throws(CLIError) in try RetentionLog(path: path) }
        let format: PCMSampleFormat = switch synthesis.bits {
        case "16": .signed16
        case "24": .signed24in32
        default: .float32
        }

        // Prepared exactly as `render` prepares it (the same loudness pass and gain), so the live sound stays the
        // rendered one; flite, libsoxr, the cue pack and the bed's measurement before the device opens: playback
        // never waits for them.
        nagi_install_stop_handlers()
        let soundtrack = try settings.sound.prepare(guidance: settings.guidance, schedule: schedule, soundscape: soundscape, lesson: lesson, showsLoudnessPass: !quiet)
        if let outcome = soundtrack.loudness, outcome.fallsShort { Console.err(outcome.shortfallLine(naming: "play") + "\n") }
        let renderer: SoundtrackRenderer
        do { renderer = try soundtrack.makeRenderer() } catch { throw CLIError(error) }
        let device: ALSAPlaybackDevice
        do {
            device = try ALSAPlaybackDevice(deviceName: live.deviceName, sampleRate: rate, channelCount: synthesis.channelCount, format: format, latencyMilliseconds: live.latencyMilliseconds)
        } catch {
            throw .unavailable(error.message + Self.renderInstead)
        }
        defer { device.close() }

        let showView = !quiet && Console.standardOutputIsTerminal
        let keys = showView ? TerminalKeys() : nil
        defer { keys?.restore() }
        let view = LiveView(schedule: schedule, title: session.title ?? name, mode: quiet ? .silent : (showView ? .terminal : .lines))
        // The view and the summary follow the breathing: the countdown's lead-in is not practice, and the view
        // waits on the first phase through it.
        let leadInFrames = soundtrack.plan.guide.framing.leadInFrameCount
        func breathingFrame(_ heardFrame: Int64) -> Int64 { max(0, heardFrame - leadInFrames) }
        let loop = PlaybackLoop(source: renderer, sink: device)
        let navigator = LiveNavigator(schedule: schedule, leadFrameCount: Int64(loop.jumpFadeFrameCount))
        var tally = LiveTally(schedule: schedule)
        renderer.setLiveGain(decibels: live.volumeDecibels)
        view.volumeDecibels = renderer.liveGainDecibels
        // The control and the observer run on this thread between blocks: the volume is set, and jumps are
        // decided, from the last report's frames.
        var written: Int64 = 0
        var skipCount = 0
        // A jump asked for replaces one not yet made: a skip is counted when its jump is made, not when asked.
        var lastAsked: (jump: PlaybackJump, isSkip: Bool)?
        var madeJumpCount = 0
        func milliseconds(_ frameCount: Int64) -> Int64 { frameCount * 1000 / Int64(rate) }
        // The first report with a frame heard dates the session's first frame: now less the frames heard since.
        var startedAt: String?
        let summary: PlaybackSummary
        do {
            summary = try loop.run(control: {
                let signal = nagi_stop_signal()
                if signal != 0 { return .stop(reason: .signal(signal)) }
                while let key = keys?.nextKey() {
                    switch key {
                    case .togglePause: return .togglePause
                    case .stop: return .stop(reason: .user)
                    case .volumeUp, .volumeDown:
                        renderer.setLiveGain(decibels: LiveOptions.stepped(renderer.liveGainDecibels, up: key == .volumeUp))
                        view.volumeDecibels = renderer.liveGainDecibels
                    case .nextStage, .stageStart, .endHold:
                        // Decided on the breathing's clock; nothing to skip during the countdown's lead-in.
                        if written >= leadInFrames, let jump = navigator.jump(for: key, nextFrame: written - leadInFrames) {
                            let asked = PlaybackJump(atFrame: jump.atFrame + leadInFrames, toFrame: jump.toFrame + leadInFrames)
                            lastAsked = (asked, key != .endHold)
                            return .jump(asked)
                        }
                    }
                }
                return nil
            }, observer: { progress in
                if startedAt == nil, progress.heardFrameWithoutJumps > 0 {
                    startedAt = SessionStartRecord.timestamp(secondsAgo: Double(progress.heardFrameWithoutJumps) / Double(rate))
                }
                written = progress.writtenFrame
                if progress.jumpCount > madeJumpCount {
                    if lastAsked?.isSkip == true { skipCount += progress.jumpCount - madeJumpCount }
                    madeJumpCount = progress.jumpCount
                }
                // The tally and the view count on the breathing's clock (a jump is made on the output's).
                var breathing = progress
                breathing.heardFrame = progress.heardFrame - leadInFrames
                breathing.heardFrameWithoutJumps = progress.heardFrameWithoutJumps - leadInFrames
                breathing.lastJump = progress.lastJump.map { PlaybackJump(atFrame: $0.atFrame - leadInFrames, toFrame: $0.toFrame - leadInFrames) }
                if let retention = tally.follow(breathing) {
                    log?.record(round: retention.round, retentionMilliseconds: milliseconds(retention.frameCount), ending: retention.ending)
                }
                view.heldFrameCount = tally.heldFrameCount
                breathing.heardFrame = breathingFrame(progress.heardFrame)
                view.update(breathing)
            })
        } catch {
            keys?.restore()
            throw .io(error.message + Self.renderInstead)
        }
        let stoppedEarly: Bool
        if case .stopped(reason: .user) = summary.endedBy { stoppedEarly = true } else { stoppedEarly = false }
        // The last frames heard (after the drain), then the hold a stop cut short.
        let last = PlaybackProgress(heardFrame: summary.heardFrame - leadInFrames, writtenFrame: summary.heardFrame - leadInFrames, isPaused: false, underrunCount: summary.underrunCount, heardFrameWithoutJumps: summary.heardFrameWithoutJumps - leadInFrames, lastJump: nil, jumpCount: 0)
        if let retention = tally.follow(last) ?? (summary.endedBy == .finished ? nil : tally.stopped()) {
            log?.record(round: retention.round, retentionMilliseconds: milliseconds(retention.frameCount), ending: retention.ending)
        }
        if case .stopped(reason: .signal) = summary.endedBy {} else {
            view.finish(heardFrame: breathingFrame(summary.heardFrame), ending: stoppedEarly ? .stoppedEarly(key: keys?.stopKeyName ?? "q") : .finished)
        }
        keys?.restore()
        if let failure = renderer.bedFailure { throw CLIError(failure) }
        if !quiet {
            Console.err(view.practisedLine(heardFrame: breathingFrame(summary.heardFrame), underrunCount: summary.underrunCount, stoppedEarly: stoppedEarly, breaths: tally.hasJumped ? tally.completedBreaths : nil, playedFrameCount: tally.hasJumped ? breathingFrame(summary.heardFrameWithoutJumps) : nil) + "\n")
            if let startedAt { Console.err("session started at \(startedAt)\n") }
        }
        let retentions = tally.retentions.map { milliseconds($0.frameCount) }
        switch summary.endedBy {
        case .finished:
            return Outcome(finished: true, startedAt: startedAt, retentionMilliseconds: retentions, skipCount: skipCount)
        case .stopped(reason: .user):
            return Outcome(finished: false, startedAt: startedAt, retentionMilliseconds: retentions, skipCount: skipCount)
        case let .stopped(reason: .signal(signal)):
            throw .interrupted(signal: signal)
        }
    }
}
