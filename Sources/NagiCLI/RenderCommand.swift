import AudioFile
import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import Synth

/// `nagi render`: a breathing session in, a soundtrack file out.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render",
        summary: "Render a breathing session to an audio file (WAV, FLAC, Ogg, Opus, MP3).",
        positionals: [PositionalSpec(name: "PATTERN", help: SessionOptions.patternPositional.help + " Default: 4-7-8.", isOptional: true)],
        options: [OptionSpec(names: ["-o", "--output"], valueName: "FILE", help: "The file to write (default: <pattern>.wav here). Its extension picks the format.")]
            + SessionOptions.paceOptions
            + SessionOptions.lengthOptions
            + [SessionOptions.rateOption]
            + SynthesisOptions.specs
            + [
                OptionSpec(names: ["--format"], valueName: "F", help: "File format, when the extension does not say.", allowedValues: AudioFileFormat.allCases.map(\.rawValue)),
                OptionSpec(names: ["--quality"], valueName: "Q", help: "0 (smallest) to 10 (best) for ogg, opus and mp3; compression effort for flac. Default 7."),
                OptionSpec(names: ["--title"], valueName: "T", help: "The title tag (default: the pattern's title and length)."),
                OptionSpec(names: ["--labels"], valueName: "FILE", help: "Also write an Audacity label track: start, end and phase, one line per phase, and one spanning each labelled stage (resonance-steps' rates)."),
                OptionSpec(names: ["--force"], help: "Replace existing files."),
                OptionSpec(names: ["--quiet"], help: "Print nothing but errors."),
            ],
        exclusiveGroups: SessionOptions.exclusiveGroups,
        discussion: """
        The file's frame 0 is the schedule's frame 0: every phase starts exactly where `nagi describe` \
        says. WAV files carry each phase start as a cue point. The file appears only when complete \
        (written to a hidden temporary file, then renamed); Ctrl-C leaves nothing behind.

        Examples:
          nagi render
          nagi render box --minutes 10 -o box.flac
          nagi render coherent --soundscape rain --no-cues -o coherent.ogg --quality 5
          nagi render wim-hof --labels wim-hof.txt
        """
    )

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let session = try SessionOptions(arguments, catalog: catalog, defaultPattern: "4-7-8")
        let synthesis = try SynthesisOptions(arguments, catalog: catalog)
        let quiet = arguments.isSet("--quiet")
        let force = arguments.isSet("--force")

        let output = try OutputChoice(arguments, defaultStem: FileNames.safeStem(session.name))
        let schedule = try session.schedule()
        let title = arguments.value("--title") ?? "\(session.title) (\(Microseconds.formatClock(schedule.totalMicroseconds).dropLast(4)))"
        let tags = AudioTags(
            title: title,
            artist: "nagi",
            comment: "pattern \(session.name), soundscape \(synthesis.soundscapeName), nagi \(NagiCommandLine.version)"
        )
        let fileSpec = try output.fileSpec(sampleRate: schedule.sampleRate, channelCount: synthesis.channelCount, bits: synthesis.bits, tags: tags, cueFrames: schedule.phases.map(\.startFrame), frameCount: RenderPlan.totalFrameCount(schedule: schedule, soundscape: synthesis.soundscape))
        if !force, TextFileOutput.isExistingRegularFile(output.path) {
            throw .cannotCreate("'\(output.path)' already exists; use --force to replace it")
        }
        let labelsPath = arguments.value("--labels")
        if let labelsPath, !force, TextFileOutput.isExistingRegularFile(labelsPath) {
            throw .cannotCreate("'\(labelsPath)' already exists; use --force to replace it")
        }

        // A render killed outright (SIGKILL) leaves its hidden temporary file; clear such leftovers.
        if FileSystem.kind(of: output.path) != .other {
            _ = PartialFileCleaner.removeStale(in: FileSystem.folder(of: output.path))
        }
        nagi_install_stop_handlers()
        let job = SoundtrackJob(schedule: schedule, settings: RenderSettings(soundscape: synthesis.soundscape, channelCount: synthesis.channelCount, seed: synthesis.seed, cues: synthesis.cuesEnabled ? .chimes : .none), outputPath: output.path, fileSpec: fileSpec, overwrite: force)
        let bar = ProgressBar(enabled: !quiet && Console.standardErrorIsTerminal, label: output.path)
        let result = try job.run { fraction in bar.update(fraction) }
        bar.finish()
        if let labelsPath {
            try TextFileOutput.write(LabelTrack.text(for: schedule), to: labelsPath, overwrite: force)
        }
        if !quiet {
            Console.err("\(Summary.line(path: output.path, result: result))\n")
        }
    }
}
