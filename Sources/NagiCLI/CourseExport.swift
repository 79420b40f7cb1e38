import AudioFile
import Breath
import CNagiSystem
import FoundationEssentials
import Glibc
import Synth

/// `nagi course export`: every lesson rendered as a tagged track, in parallel, resumable, with a playlist.
enum CourseExport {
    static let spec = CommandSpec(
        name: "export",
        summary: "Export every lesson as a track named 'NN - Title.ext', with a playlist, in parallel.",
        positionals: [CourseCommand.courseArgument],
        options: [
            OptionSpec(names: ["-o", "--output"], valueName: "DIR", help: "The folder for the tracks (created if missing)."),
            OptionSpec(names: ["--format"], valueName: "F", help: "flac (default: lossless, tagged, half the size of WAV), wav, ogg, opus or mp3.", allowedValues: AudioFileFormat.allCases.map(\.rawValue)),
            OptionSpec(names: ["--bits"], valueName: "B", help: "16 (default), 24 or float, for wav and flac.", allowedValues: ["16", "24", "float"]),
            OptionSpec(names: ["--quality"], valueName: "Q", help: "0 (smallest) to 10 (best) for ogg, opus and mp3; compression effort for flac."),
            SessionOptions.rateOption,
            OptionSpec(names: ["--channels"], valueName: "N", help: "1 (mono) or 2 (stereo, the default).", allowedValues: ["1", "2"]),
            OptionSpec(names: ["--soundscape"], valueName: "NAME|FILE", help: "The soundscape for lessons that name none (default horizon)."),
            OptionSpec(names: ["--no-cues"], help: "Leave out the phase-change chimes."),
            OptionSpec(names: ["--seed"], valueName: "N", help: "Seed for the noise (default 1)."),
            OptionSpec(names: ["--jobs"], valueName: "N", help: "Tracks rendered at once (default: the number of cores)."),
            OptionSpec(names: ["--force"], help: "Redo every track, replacing existing files."),
            OptionSpec(names: ["--quiet"], help: "Print nothing but errors."),
        ],
        discussion: """
        Tracks are tagged album = course title, title = lesson title, track = NN/total, artist nagi. \
        A second run skips tracks already exported with the same settings (recorded in DIR/.nagi-manifest.json) \
        and leaves them untouched; --force redoes everything. Ctrl-C leaves only whole tracks.
        """
    )

    /// One track to make.
    struct Track: Sendable {
        var index: Int
        var fileName: String
        var title: String
        var job: SoundtrackJob
        var fingerprint: String
        var durationMicroseconds: Int64
    }

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseCommand.loadCourse(arguments, catalog: catalog)
        guard let folder = arguments.value("--output") else {
            throw .arguments(.missingArgument("-o DIR"))
        }
        let force = arguments.isSet("--force")
        let quiet = arguments.isSet("--quiet")
        let format: AudioFileFormat
        let quality: Double?
        let sampleRate: Int
        let jobCount: Int
        do {
            format = try arguments.choice("--format").flatMap(AudioFileFormat.init(rawValue:)) ?? .flac
            quality = try arguments.decimal("--quality", in: 0...10).map { $0 / 10 }
            sampleRate = try arguments.int("--rate", in: Schedule.sampleRateRange) ?? 48000
            jobCount = try arguments.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            throw .arguments(error)
        }
        // Channels, bits, cues, seed and `--soundscape` (for lessons that name none) read as render reads them.
        let options = try SynthesisOptions(arguments, catalog: catalog)

        // Check everything before creating anything: schedules, soundscapes, the file format.
        let lengths = try CourseCommand.lessonLengths(course)
        let numberWidth = max(2, String(course.lessons.count).count)
        var tracks: [Track] = []
        var soundscapes: [String: (Soundscape, String)] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            var (soundscape, soundscapeName) = (options.soundscape, options.soundscapeName)
            if let reference = lesson.soundscape {
                // Each soundscape a lesson names is read once.
                if soundscapes[reference] == nil {
                    soundscapes[reference] = try SoundscapeResolver.resolve(reference, catalog: catalog)
                }
                if let resolved = soundscapes[reference] {
                    (soundscape, soundscapeName) = resolved
                }
            }
            let schedule: Schedule
            do {
                schedule = try Schedule(session: lesson.session, sampleRate: sampleRate)
            } catch {
                throw .breath(error)
            }
            let number = String(index + 1)
            let paddedNumber = String(repeating: "0", count: numberWidth - number.count) + number
            let fileName = "\(paddedNumber) - \(FileNames.safeStem(lesson.title)).\(format.fileExtension)"
            let tags = AudioTags(title: lesson.title, artist: "nagi", album: course.title, comment: "course \(course.name), lesson \(index + 1), soundscape \(soundscapeName), nagi \(NagiCommandLine.version)", trackNumber: index + 1, trackCount: course.lessons.count)
            let choice = OutputChoice(path: folder + "/" + fileName, format: format, quality: quality)
            let fileSpec = try choice.fileSpec(sampleRate: sampleRate, channelCount: options.channelCount, bits: options.bits, tags: tags, cueFrames: schedule.phases.map(\.startFrame), frameCount: RenderPlan.totalFrameCount(schedule: schedule, soundscape: soundscape))
            let job = SoundtrackJob(schedule: schedule, settings: RenderSettings(soundscape: soundscape, channelCount: options.channelCount, seed: options.seed, cues: options.cuesEnabled ? .chimes : .none), outputPath: choice.path, fileSpec: fileSpec, overwrite: true)
            let fingerprint = Fingerprint.of([
                "nagi \(NagiCommandLine.version)", "lesson \(index)", lesson.title,
                String(describing: lesson.session), String(describing: soundscape),
                String(describing: fileSpec), "cues \(options.cuesEnabled)", "seed \(options.seed)",
            ])
            tracks.append(Track(index: index, fileName: fileName, title: lesson.title, job: job, fingerprint: fingerprint, durationMicroseconds: lengths[index]))
        }

        try prepareFolder(folder)
        _ = PartialFileCleaner.removeStale(in: folder)
        let manifest = ExportManifest(folder: folder, course: course.name)
        var pending: [Track] = []
        var skipped = 0
        for track in tracks {
            let path = folder + "/" + track.fileName
            let exists = TextFileOutput.isExistingRegularFile(path)
            if !force, exists, manifest.fingerprint(for: track.fileName) == track.fingerprint {
                skipped += 1
                continue
            }
            if !force, exists, !manifest.isExported(track.fileName) {
                throw .cannotCreate("'\(path)' already exists and was not exported by nagi; use --force to replace it")
            }
            pending.append(track)
        }

        // Longest first, so no long track is left running alone at the end.
        pending.sort { $0.durationMicroseconds != $1.durationMicroseconds ? $0.durationMicroseconds > $1.durationMicroseconds : $0.index < $1.index }
        nagi_install_stop_handlers()
        let display = ExportProgress(enabled: !quiet && Console.standardErrorIsTerminal, tracks: Dictionary(uniqueKeysWithValues: pending.map { ($0.index, $0.fileName) }))
        let start = Date()
        let outcomes = ParallelRunner.run(pending, jobs: jobCount) { track -> Swift.Result<SoundtrackJob.Result, CLIError> in
            do throws(CLIError) {
                manifest.beginWriting(track.fileName)
                let result = try track.job.run { fraction in display.update(trackIndex: track.index, fraction: fraction) }
                manifest.record(track.fileName, fingerprint: track.fingerprint)
                display.finished(trackIndex: track.index)
                return .success(result)
            } catch {
                display.finished(trackIndex: track.index)
                return .failure(error)
            }
        }
        display.finish()
        let wallSeconds = Date().timeIntervalSince(start)

        var failures: [(Track, CLIError)] = []
        var audioSeconds = 0.0
        for (track, outcome) in zip(pending, outcomes) {
            switch outcome {
            case let .success(result): audioSeconds += result.audioSeconds
            case let .failure(error): failures.append((track, error))
            }
        }
        let signal = nagi_stop_signal()
        if signal != 0 {
            throw .interrupted(signal: signal)
        }
        if let (_, error) = failures.first {
            // Each failure's message names its track's path; all but the first are listed here, the
            // first becomes the command's error and exit code.
            for (_, otherError) in failures.dropFirst() {
                Console.report(otherError)
            }
            throw error
        }
        let playlist = Playlist.m3u8(course: course, tracks: tracks.map { ($0.fileName, $0.title, $0.durationMicroseconds) })
        try TextFileOutput.write(playlist, to: folder + "/" + course.name + ".m3u8", overwrite: true)
        if !quiet {
            let speed = wallSeconds > 0 ? audioSeconds / wallSeconds : 0
            let audioText = Microseconds.formatClock(Int64(audioSeconds * 1_000_000)).dropLast(4)
            Console.err("exported \(pending.count) tracks (\(audioText) of audio) to \(folder) in \(NumberText.fixed(wallSeconds, decimals: wallSeconds < 10 ? 2 : 1)) s, \(Summary.speedText(speed)) real time, \(jobCount) jobs; \(skipped) already up to date\n")
        }
    }

    /// Creates the output folder (and parents) or explains why not.
    static func prepareFolder(_ folder: String) throws(CLIError) {
        switch FileSystem.kind(of: folder) {
        case .folder:
            guard access(folder, W_OK) == 0 else { throw .cannotCreate("cannot export to '\(folder)': \(FileSystem.lastErrorText)") }
        case .missing:
            if let reason = FileSystem.makeFolders(folder) { throw .cannotCreate(reason) }
        case .regularFile, .other:
            throw .cannotCreate("cannot export to '\(folder)': it is a file, not a folder")
        }
    }
}
