import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit

/// `nagi render`: a breathing session in, a soundtrack file out.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render a breathing session to an audio file (WAV, FLAC, Ogg, Opus, MP3, raw PCM) or standard output.",
        positionals: [SessionOptions.patternPositional(defaultPattern: "4-7-8")],
        groups: [OutputOptions.fileGroup] + SessionOptions.groups + [SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group, TagOptions.group],
        options: [
            OptionSpec(names: ["--title"], valueName: "T", help: "The title tag (default: the pattern's title and length)."),
            OptionSpec(names: ["--labels"], valueName: "FILE|-", help: "Also write an Audacity label track: start, end and phase, one line per phase, and one spanning each labelled stage (resonance-steps' rates). - writes it to standard output (after the audio is complete).", completion: .file),
            OptionSpec(names: ["--cue-sheet"], valueName: "FILE", help: "Also write a cue sheet naming the audio file, with a track at each chapter (see --chapters), for cue-aware players.", completion: .file),
            OptionSpec(names: ["--threads"], valueName: "N", help: "Render on N threads at once, in consecutive slices, while the file is written, and speak the guide's words in up to N processes, one a core (1–64; default: the machine's cores). The output is the same byte for byte whatever N; threads beyond the cores gain no speed and take 1 to 4 MB of memory each (the most under a long bed)."),
            OptionSpec(names: ["--force"], help: "Replace existing files."),
            OptionSpec(names: ["--quiet"], help: "Print nothing but errors."),
        ],
        discussion: """
        The file's frame 0 is the schedule's frame 0: every phase starts exactly where `nagi describe` \
        says. WAV files carry each phase start as a cue point, named where a chapter starts. Files are \
        tagged through TagLib (title, artist, album, genre Meditation, the year, a comment naming the \
        pattern, nagi's version, the cover) with chapters (ID3v2 CHAP in MP3, named cue points in WAV, \
        CHAPTERnnn Vorbis comments in FLAC, Ogg and Opus) and \
        the ReplayGain 2.0 track gain and peak from the audio as written (R128_TRACK_GAIN in Opus). A \
        stream (-o -) carries the text tags only (an MP3 stream: those in Latin-1). The file appears only when complete \
        (written to a hidden temporary file, then renamed); Ctrl-C leaves nothing behind. With --labels, \
        both outputs are checked before rendering and appear together, or neither does.

        Standard output (-o -) streams: WAV with sizes that say "unknown" (as ffmpeg writes it to a \
        pipe; sox, ffmpeg and Python's wave read it), the same samples as a WAV file, or flac, ogg, \
        opus, mp3 or raw with --format (a FLAC stream's total sample count reads 0: unknown). \
        Progress and the summary go to standard error. When the reader closes the pipe early \
        (| head -c 1000), nagi stops quietly with exit code 141, like a program stopped by SIGPIPE.

        Examples:
          nagi render
          nagi render box --minutes 10 -o box.flac
          nagi render coherent --soundscape rain --no-cues -o coherent.ogg --quality 5
          nagi render wim-hof --labels wim-hof.txt
          nagi render 4-7-8 --cues both --count voice --voice rms
          nagi render box --cue-pack ~/bowls --cue-volume -6
          nagi render box --minutes 10 --bed waves.flac --bed-level -10 -o box.flac
          nagi render coherent --minutes 20 --beat 10:6 --loudness -16 -o coherent.ogg
          nagi render box -o - | sox -t wav - box.flac
          nagi render 4-7-8 -o - --format raw --bits float | aplay -t raw -f FLOAT_LE -r 48000 -c 2
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let session = try SessionOptions(arguments, catalog: catalog, defaultPattern: "4-7-8")
        let sound = try SoundOptions(arguments)
        let synthesis = sound.synthesis
        let guidance = try GuidanceOptions(arguments)
        let (soundscape, soundscapeName) = try synthesis.soundscape.resolve(catalog: catalog)
        let quiet = arguments.isSet("--quiet")
        let force = arguments.isSet("--force")
        let threads: Int
        do { threads = try arguments.int("--threads", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount } catch { throw .arguments(error) }

        let output = try OutputChoice(arguments, defaultStem: FileNames.safeStem(session.name))
        let schedule = try session.schedule()
        let title = try TagOptions.displayText("--title", in: arguments) ?? session.titleTag(totalMicroseconds: schedule.totalMicroseconds)
        let tagOptions = try TagOptions(arguments)
        // The countdown moves every boundary; the cue points, chapters and labels move with it.
        let framing = SessionFraming(schedule: schedule, settings: guidance.framingSettings(soundscape: soundscape))
        let chapterChoice = tagOptions.chapters(for: schedule, leadInFrames: framing.leadInFrameCount)
        let tags = AudioTags(
            title: title,
            artist: tagOptions.artist ?? "nagi",
            album: tagOptions.album,
            comment: TagOptions.comment(pattern: session.name, schedule: schedule, soundscape: soundscapeName),
            date: TagOptions.currentYear, genre: TagOptions.defaultGenre, encoder: "nagi \(NagiCommandLine.version)",
            cover: tagOptions.cover, chapters: output.format == .raw ? [] : chapterChoice.chapters
        )
        let fileSpec = try output.fileSpec(sampleRate: schedule.sampleRate, channelCount: synthesis.channelCount, bits: synthesis.bits, tags: tags, cueFrames: schedule.phases.map { framing.leadInFrameCount + $0.startFrame }, frameCount: framing.totalFrameCount)
        if !force, TextFileOutput.isExistingRegularFile(output.path) {
            throw .cannotCreate("'\(output.path)' already exists; use --force to replace it")
        }
        let labelsPath = arguments.value("--labels")
        if labelsPath == OutputChoice.standardOutputPath, output.isStandardOutput {
            throw .usage("-o - and --labels - both name standard output; send one of them to a file")
        }
        let cueSheetPath = arguments.value("--cue-sheet")
        if cueSheetPath != nil, output.isStandardOutput || output.format == .raw {
            throw .usage("--cue-sheet names an audio file, and \(output.isStandardOutput ? "-o - is standard output" : "raw PCM is no file a player opens"); write a file")
        }
        try Self.refuseSharedFiles([("-o", output.isStandardOutput ? nil : output.path), ("--labels", labelsPath), ("--cue-sheet", cueSheetPath)])
        if let note = chapterChoice.note, !quiet, output.format != .raw { Console.err("nagi: \(note)\n") }
        // The beat is checked, the bed opened and measured, the guide's clips made (flite, libsoxr, the cue
        // pack) and the loudness pass run before any output exists: a bad one leaves nothing behind.
        let start = ContinuousClock.now
        nagi_install_stop_handlers()
        // The guide's phrases are spoken in as many processes as the render has threads (`--threads 1`: this one).
        let soundtrack = try sound.prepare(
            guidance: guidance, schedule: schedule, soundscape: soundscape,
            guideClips: GuideClipCache(speaker: FliteSpeaker(processCount: threads)), showsLoudnessPass: !quiet)
        let audioExisted = FileSystem.kind(of: output.path) != .missing

        // A render killed outright (SIGKILL) leaves its hidden temporary file; clear such leftovers.
        if !output.isStandardOutput, FileSystem.kind(of: output.path) != .other {
            _ = PartialFileCleaner.removeStale(in: FileSystem.folder(of: output.path))
        }
        // Every output is checked (and the labels written to their temporary file) before rendering, and they are
        // published together: a label path that cannot be written leaves no audio behind.
        let labels = try labelsPath.map { path throws(CLIError) in
            try CLIError.reporting { () throws(TextFileError) in try PendingTextFile(path: path, text: LabelTrack.text(for: schedule, offsetMicroseconds: framing.leadInMicroseconds(sampleRate: schedule.sampleRate)), overwrite: force) }
        }
        if let warning = output.cuePointWarning(cueCount: schedule.phases.count) {
            Console.err(warning + "\n")
        }
        let cueSheet = try cueSheetPath.map { path throws(CLIError) in
            let text = CueSheet.text(fileName: CueSheet.reference(to: output.path, from: path), format: output.format, tags: tags, sampleRate: schedule.sampleRate)
            return try CLIError.reporting { () throws(TextFileError) in try PendingTextFile(path: path, text: text, overwrite: force) }
        }
        let bar = ProgressBar(enabled: !quiet && Console.standardErrorIsTerminal, label: output.displayName)
        var result: SoundtrackWriteReport
        do {
            result = try soundtrack.write(
                to: output.isStandardOutput ? .standardOutput : .file(path: output.path, overwrite: force), spec: fileSpec, threads: threads,
                progress: { fraction in bar.update(fraction) }, cancel: CLIError.stopSignalReceived)
        } catch {
            throw CLIError(error)
        }
        // The speed a user sees counts the preparation (the bed's measurement, the loudness pass) too.
        result.wallSeconds = Summary.seconds(since: start)
        bar.finish()
        if let outcome = soundtrack.loudness, outcome.fallsShort {
            Console.err(outcome.shortfallLine(naming: output.displayName) + "\n")
        }
        do {
            try CLIError.reporting { () throws(TextFileError) in
                try labels?.publish(stopsWaiting: { nagi_stop_signal() != 0 })
                try cueSheet?.publish(stopsWaiting: { nagi_stop_signal() != 0 })
            }
        } catch {
            // The audio went out first; take it back so that neither output stays alone.
            if !audioExisted, !output.isStandardOutput { unlink(output.path) }
            throw error
        }
        if !quiet {
            let line = output.isStandardOutput
                ? "wrote standard output: \(Microseconds.formatClock(Int64((result.audioSeconds * 1_000_000).rounded())).dropLast(4)) of \(output.format.rawValue), \(Summary.speedText(result.speedRatio)) real time"
                : Summary.line(path: output.path, result: result)
            Console.err("\(line)\n")
        }
    }

    /// Refuses (64) two outputs naming one file under any spelling (`FileSystem.identity`), before anything is
    /// written: each would replace the other, and a failure would take away a file the user had.
    static func refuseSharedFiles(_ outputs: [(option: String, path: String?)]) throws(CLIError) {
        var seen: [String: String] = [:]
        for case let (option, path?) in outputs where path != OutputChoice.standardOutputPath {
            let identity = FileSystem.identity(of: path)
            if let earlier = seen[identity] {
                throw .usage("\(earlier) and \(option) name the same file '\(path)'; give each output its own file")
            }
            seen[identity] = option
        }
    }
}
