import NagiBase
import NagiSystem
import NagiDocuments
import AudioFile
import NagiOptions
import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit

/// `nagi render`: a breathing session in, a soundtrack file out.
enum RenderCommand {
    static let spec = RenderOptions.spec

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let render = try RenderOptions(arguments, catalog: PresetEnvironment.catalog())
        let quiet = arguments[RenderOptions.quiet]
        let force = arguments[RenderOptions.force]
        let threads: Int
        do { threads = try arguments[RenderOptions.threads] ?? ProcessInfo.processInfo.activeProcessorCount } catch { throw .arguments(error) }

        let output = try OutputChoice(arguments, defaultStem: render.fileStem, standardOutputIsTerminal: Console.standardOutputIsTerminal)
        let file = try render.fileDescription(format: output.format, quality: output.quality)
        let schedule = render.request.schedule
        if !force, TextFileOutput.isExistingRegularFile(output.path) {
            throw .cannotCreate("'\(output.path)' already exists; use --force to replace it")
        }
        let labelsPath = arguments.text(of: RenderOptions.labels)
        if labelsPath == OutputChoice.standardOutputPath, output.isStandardOutput {
            throw .usage("-o - and --labels - both name standard output; send one of them to a file")
        }
        let cueSheetPath = arguments.text(of: RenderOptions.cueSheet)
        if cueSheetPath != nil, output.isStandardOutput || output.format == .raw {
            throw .usage("--cue-sheet names an audio file, and \(output.isStandardOutput ? "-o - is standard output" : "raw PCM is no file a player opens"); write a file")
        }
        if output.isStandardOutput, !CommandContext.current.standardOutputIsProcesses {
            // Audio is streamed by libsndfile into a descriptor, which only the process's standard output is.
            throw .usage("-o -: audio on standard output needs nagi's own process; this run's standard output is a host's, for text")
        }
        try Self.refuseSharedFiles([("-o", output.isStandardOutput ? nil : output.path), (RenderOptions.labels.name, labelsPath), (RenderOptions.cueSheet.name, cueSheetPath)])
        if let note = file.chaptersNote, !quiet { Console.err("nagi: warning: \(note)\n") }
        // The beat is checked, the bed opened and measured, the guide's clips made (flite, libsoxr, the cue
        // pack) and the loudness pass run before any output exists: a bad one leaves nothing behind.
        let start = ContinuousClock.now
        Console.installStopHandlers()
        // The guide's phrases are spoken in as many processes as the render has threads (`--threads 1`: this one).
        // The loudness pass meters the render limited as it will be for the output's encoder.
        let request = render.request.forEncoder(of: output.format)
        let soundtrack = try Preparation.prepare(request, guideClips: GuideClipCache(speaker: FliteSpeaker(processCount: threads)), showsLoudnessPass: !quiet)
        let audioExisted = FileKind.of(output.path) != .missing

        // A render killed outright (SIGKILL) leaves its hidden temporary file; clear such leftovers.
        if !output.isStandardOutput, !FileKind.of(output.path).isSpecialFile {
            _ = PartialFileCleaner.removeStale(in: FilePath(output.path).parent.string)
        }
        // Every output is checked (and the labels written to their temporary file) before rendering, and they are
        // published together: a label path that cannot be written leaves no audio behind.
        let leadInMicroseconds = render.request.framing.leadInMicroseconds(sampleRate: schedule.sampleRate)
        let labels = try labelsPath.map { path throws(NagiError) in
            try PendingOutputText(path: path, text: LabelTrack.text(for: schedule, offsetMicroseconds: leadInMicroseconds), overwrite: force)
        }
        let cueSheet = try cueSheetPath.map { path throws(NagiError) in
            let text = CueSheet.text(fileName: CueSheet.reference(to: output.path, from: path), format: output.format, tags: file.tags, sampleRate: schedule.sampleRate)
            return try PendingOutputText(path: path, text: text, overwrite: force)
        }
        let bar = ProgressBar(enabled: !quiet && Console.standardErrorIsTerminal, label: output.displayName)
        let cancellation = Console.cancellation
        var result: SoundtrackWriteReport
        do {
            result = try soundtrack.write(
                to: output.isStandardOutput ? .standardOutput : .file(path: output.path, overwrite: force), file: file, threads: threads,
                progress: { fraction in bar.update(fraction) }, cancel: cancellation)
        } catch {
            // The error (Ctrl-C's too) starts on a line of its own, not after the bar.
            bar.finish()
            throw NagiError(error)
        }
        // The speed a user sees counts the preparation (the bed's measurement, the loudness pass) too.
        result.wallSeconds = Summary.seconds(since: start)
        bar.finish()
        if let outcome = soundtrack.loudness, outcome.fallsShort {
            Console.err(outcome.shortfallLine(naming: output.displayName) + "\n")
        }
        do {
            try labels?.publish(stopsWaiting: { cancellation.isCancelled })
            try cueSheet?.publish(stopsWaiting: { cancellation.isCancelled })
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
    static func refuseSharedFiles(_ outputs: [(option: String, path: String?)]) throws(NagiError) {
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
