import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit
import TextRules

/// `nagi course export`: every lesson rendered as a tagged track, in parallel, resumable, with a playlist.
enum CourseExport {
    static let spec = CommandSpec(
        name: "export",
        summary: "Export every lesson as a track named 'NN - Title.ext', with a playlist, in parallel.",
        positionals: [CourseCommand.courseArgument],
        groups: [OutputOptions.folderGroup, SampleRateOptions.group, SynthesisOptions.group, GuidanceOptions.group, BedOptions.group, BeatOptions.group, LoudnessOptions.group, TagOptions.group],
        options: [
            OptionSpec(names: ["--labels"], help: "Also write an Audacity label track beside each track ('NN - Title.txt')."),
            OptionSpec(names: ["--jobs"], valueName: "N", help: "Tracks rendered at once, 1 to 64 (default: the number of cores)."),
            OptionSpec(names: ["--force"], help: "Redo every track, replacing existing files."),
            OptionSpec(names: ["--quiet"], help: "Print nothing but errors."),
        ],
        discussion: """
        Tracks are tagged through TagLib as an album: album = the course's album or title, title = lesson \
        title, track = NN/total, disc 1/1, artist nagi (or the course's "artist"), genre Meditation (or \
        its "genre"), the cover (--cover, or the course's "cover"), chapters at each phase or stage, and \
        ReplayGain 2.0 track and album gains (R128 in Opus): the album gain is over every track of the \
        export, added to each track once all are written. The playlist gives each track's real length. \
        A second run skips tracks already exported with the same settings (recorded in DIR/.nagi-manifest.json \
        with each file's size and modification time) and leaves them untouched; a track replaced or changed \
        since is redone, and --force redoes everything. Ctrl-C leaves only whole tracks. An explicit \
        --soundscape replaces every lesson's own; without it each lesson sounds as the course says. \
        A lesson may set "cues", "count" and "voice"; --cues, --count and --voice replace them.
        """
    )

    /// One track to make: its prepared soundtrack, and the file it goes to.
    struct Track: Sendable {
        var index: Int
        var title: String
        /// The calibrated soundtrack (its loudness target, if any, is reached when the track is written).
        var soundtrack: Soundtrack
        var loudnessTargetLUFS: Double?
        var outputPath: String
        var fileSpec: AudioFileSpec
        var fingerprint: String
        var frameCount: Int64
        /// The label track written beside it with --labels.
        var labels: String?

        /// The file's name inside the export folder ("01 - Arrival.flac").
        var fileName: String { outputPath.split(separator: "/").last.map(String.init) ?? outputPath }
        /// The session's length, as the longest-first order needs it.
        var durationMicroseconds: Int64 { soundtrack.schedule.totalMicroseconds }
        /// The file's real length (the session and the soundscape's tail), microseconds, for the playlist.
        var fileMicroseconds: Int64 { frameCount * 1_000_000 / Int64(fileSpec.sampleRate) }
        /// Where --labels writes the label track.
        var labelsPath: String { String(outputPath.dropLast(fileSpec.format.fileExtension.count)) + "txt" }
    }

    static func run(_ arguments: ParsedArguments) throws(CLIError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseCommand.loadCourse(arguments, catalog: catalog)
        let output = try OutputOptions(arguments)
        let folder = output.path ?? "./" + FileNames.safeStem(course.name)
        let force = arguments.isSet("--force")
        let quiet = arguments.isSet("--quiet")
        let format = output.format ?? .flac
        let sampleRate = try SampleRateOptions(arguments).sampleRate
        let jobCount: Int
        do {
            jobCount = try arguments.int("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            throw .arguments(error)
        }
        let sound = try SoundOptions(arguments)
        let options = sound.synthesis
        // Each lesson's guidance is read with it (a lesson may set cues, count and voice); the clips are made
        // here, once per phrase, before any worker thread starts (flite in as many processes as there are jobs).
        let guideClips = GuideClipCache(speaker: FliteSpeaker(processCount: jobCount))
        let tagOptions = try TagOptions(arguments, coverPath: course.cover)
        let writesLabels = arguments.isSet("--labels")
        nagi_install_stop_handlers()

        // Check everything before creating anything: schedules, soundscapes, the file format.
        let numberWidth = max(2, String(course.lessons.count).count)
        var tracks: [Track] = []
        var soundscapes: [String: (Soundscape, String)] = [:]
        for (index, lesson) in course.lessons.enumerated() {
            // Each soundscape is read once, whichever lessons share it.
            let reference = options.soundscape.chosenReference(lesson: lesson.soundscape) ?? SoundscapeResolver.defaultName
            let soundscape: Soundscape, soundscapeName: String
            if let cached = soundscapes[reference] {
                (soundscape, soundscapeName) = cached
            } else {
                (soundscape, soundscapeName) = try SoundscapeOptions.resolve(reference, catalog: catalog)
                soundscapes[reference] = (soundscape, soundscapeName)
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
            let guidance = try GuidanceOptions(arguments, lesson: lesson)
            // A countdown moves every boundary; the cue points, chapters and labels move with it.
            let framing = SessionFraming(schedule: schedule, settings: guidance.framingSettings(soundscape: soundscape))
            let chapterChoice = tagOptions.chapters(for: schedule, leadInFrames: framing.leadInFrameCount)
            if let note = chapterChoice.note, !quiet { Console.err("nagi: \(fileName): \(note)\n") }
            let tags = AudioTags(
                title: Self.printable(lesson.title), artist: tagOptions.artist ?? course.artist ?? "nagi", album: tagOptions.album ?? course.album ?? course.title,
                comment: TagOptions.comment(pattern: lesson.patternLabel, schedule: schedule, soundscape: soundscapeName),
                trackNumber: index + 1, trackCount: course.lessons.count, discNumber: 1, discCount: 1,
                date: TagOptions.currentYear, genre: course.genre ?? TagOptions.defaultGenre, encoder: "nagi \(NagiCommandLine.version)",
                cover: tagOptions.cover, chapters: chapterChoice.chapters)
            let choice = OutputChoice(path: folder + "/" + fileName, format: format, quality: output.quality)
            let frameCount = framing.totalFrameCount
            let fileSpec = try choice.fileSpec(sampleRate: sampleRate, channelCount: options.channelCount, bits: options.bits, tags: tags, cueFrames: schedule.phases.map { framing.leadInFrameCount + $0.startFrame }, frameCount: frameCount)
            // A lesson may set its beat, bed and loudness; the command line's replace them. Prepared here (the bed
            // measured, the clips made) so that a bad lesson stops the export before any file; the loudness pass
            // runs in the worker, for the tracks that are written. Every track is prepared before any is written, so
            // none holds its bed in memory meanwhile (a write reads it, jobs at a time).
            let soundtrack = try sound.prepare(
                guidance: guidance, schedule: schedule, soundscape: soundscape, lesson: lesson, guideClips: guideClips, calibrated: true, holdsBed: false)
            let settings = soundtrack.settings
            let loudnessTarget = sound.loudness.target(lesson: lesson.loudnessLUFS)
            // The settings' fingerprint covers the soundscape, guide, bed and beat and names each clip by phrase
            // and length; the guidance adds the voice and the pack's folder, the checksum the pack's samples, so a
            // different voice or pack redoes the track.
            let fingerprint = Fingerprint.of([
                "nagi \(NagiCommandLine.version)", "lesson \(index)", lesson.title,
                String(describing: lesson.session), String(describing: fileSpec), String(describing: guidance),
                settings.fingerprint, Self.clipChecksum(settings.clips),
                "loudness \(loudnessTarget.map { "\($0)" } ?? "calibrated")",
            ])
            tracks.append(Track(index: index, title: lesson.title, soundtrack: soundtrack, loudnessTargetLUFS: loudnessTarget, outputPath: choice.path, fileSpec: fileSpec, fingerprint: fingerprint, frameCount: frameCount, labels: writesLabels ? LabelTrack.text(for: schedule, offsetMicroseconds: framing.leadInMicroseconds(sampleRate: sampleRate)) : nil))
        }

        try prepareFolder(folder)
        _ = PartialFileCleaner.removeStale(in: folder)
        let manifest = ExportManifest(folder: folder, course: course.name)
        var pending: [Track] = []
        var skipped = 0
        for track in tracks {
            let path = track.outputPath
            let exists = TextFileOutput.isExistingRegularFile(path)
            if !force, exists, manifest.isUpToDate(track.fileName, fingerprint: track.fingerprint, path: path) {
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
        let display = ExportProgress(enabled: !quiet && Console.standardErrorIsTerminal, tracks: Dictionary(uniqueKeysWithValues: pending.map { ($0.index, $0.fileName) }))
        let start = Date()
        let lessonIndexes = pending.map(\.index)
        let progress: @Sendable (Int, Double?) -> Void = { pendingIndex, fraction in
            if let fraction {
                display.update(trackIndex: lessonIndexes[pendingIndex], fraction: fraction)
            } else {
                display.finished(trackIndex: lessonIndexes[pendingIndex])
            }
        }
        let outcomes = ParallelRunner.run(pending, jobs: jobCount, progress: progress) { track, report -> Swift.Result<SoundtrackWriteReport, CLIError> in
            do throws(CLIError) {
                manifest.beginWriting(track.fileName)
                let result: SoundtrackWriteReport
                let soundtrack: Soundtrack
                do throws(SoundtrackError) {
                    if let target = track.loudnessTargetLUFS {
                        soundtrack = try track.soundtrack.reachingLoudness(targetLUFS: target, cancel: CLIError.stopSignalReceived)
                    } else {
                        soundtrack = track.soundtrack
                    }
                    result = try soundtrack.write(
                        to: .file(path: track.outputPath, overwrite: true), spec: track.fileSpec,
                        progress: report, cancel: CLIError.stopSignalReceived)
                } catch {
                    throw CLIError(error)
                }
                if let outcome = soundtrack.loudness, outcome.fallsShort {
                    Console.err(outcome.shortfallLine(naming: track.fileName) + "\n")
                }
                manifest.record(track.fileName, fingerprint: track.fingerprint, path: track.outputPath)
                return .success(result)
            } catch {
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
        try addAlbumGain(tracks, manifest: manifest)
        for track in tracks {
            guard let labels = track.labels else { continue }
            try CLIError.reporting { () throws(TextFileError) in try TextFileOutput.write(labels, to: track.labelsPath, overwrite: true) }
        }
        let playlist = Playlist.m3u8(course: course, tracks: tracks.map { ($0.fileName, $0.title, $0.fileMicroseconds) })
        try CLIError.reporting { () throws(TextFileError) in try TextFileOutput.write(playlist, to: folder + "/" + course.name + ".m3u8", overwrite: true) }
        if !quiet {
            Console.err(summaryLine(exportedCount: pending.count, skippedCount: skipped, audioSeconds: audioSeconds, wallSeconds: wallSeconds, jobCount: min(jobCount, max(1, pending.count)), folder: folder) + "\n")
        }
    }

    /// Reads every track's measured loudness back from its own tags (those exported earlier too), and adds the
    /// album's to each: ReplayGain album gain and peak (R128_ALBUM_GAIN in Opus). The album loudness is the
    /// tracks' energy mean weighted by length, 10·log10(Σ tᵢ·10^(Lᵢ/10) / Σ tᵢ): each track's loudness gated on
    /// its own rather than the album gated at once (0.08 dB apart on a two-track test course). A track whose album gain is already right is left
    /// untouched; one that changes is tagged in a copy beside it, fsynced and renamed, so no track is ever half
    /// written, and its manifest entry follows.
    static func addAlbumGain(_ tracks: [Track], manifest: ExportManifest) throws(CLIError) {
        var measured: [(track: Track, loudness: Double, peak: Double, seconds: Double)] = []
        for track in tracks {
            let format = track.fileSpec.format
            guard let items = try? TagLibFile.read(path: track.outputPath, format: format) else { continue }
            guard let gain = TrackGainTags(items: items, format: format), let loudness = gain.trackLoudnessLUFS else { continue }
            measured.append((track, loudness, gain.trackPeak ?? 1, Double(track.fileMicroseconds) / 1e6))
        }
        guard measured.count == tracks.count, !measured.isEmpty else { return }
        let totalSeconds = measured.reduce(0) { $0 + $1.seconds }
        let energy = measured.reduce(0) { $0 + $1.seconds * pow(10, $1.loudness / 10) }
        let albumLoudness = 10 * log10(energy / totalSeconds)
        let albumPeak = measured.map(\.peak).max() ?? 1
        for entry in measured {
            let gain = ReplayGain(trackLoudnessLUFS: entry.loudness, trackPeak: entry.peak, albumLoudnessLUFS: albumLoudness, albumPeak: albumPeak)
            do {
                let changed = try TagLibFile.setAlbumGain(gain, inPublishedFile: entry.track.outputPath, format: entry.track.fileSpec.format)
                if changed, manifest.isExported(entry.track.fileName) {
                    manifest.record(entry.track.fileName, fingerprint: entry.track.fingerprint, path: entry.track.outputPath)
                }
            } catch {
                throw .audioFile(error)
            }
        }
    }

    /// A lesson title as tag text: the course decoder has refused a title holding what `DisplayText` refuses (65);
    /// the same characters are dropped here should any remain.
    static func printable(_ text: String) -> String {
        DisplayText.visible(text)
    }

    /// A checksum of every clip's samples, so a changed cue-pack file (same name, same length) redoes the tracks.
    static func clipChecksum(_ clips: GuideClips) -> String {
        var parts: [String] = []
        for slot in CuePackSlot.allCases {
            guard let samples = clips.pack[slot] else { continue }
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for sample in samples {
                hash ^= UInt64(sample.bitPattern)
                hash &*= 0x0000_0100_0000_01B3
            }
            parts.append("\(slot.rawValue) \(String(hash, radix: 16))")
        }
        return parts.joined(separator: ", ")
    }

    /// "exported 1 track (0:08 of audio) to album in 0.21 s, 38× real time, 1 job; 2 already up to date",
    /// or "nothing to export: 3 tracks already up to date in album".
    static func summaryLine(exportedCount: Int, skippedCount: Int, audioSeconds: Double, wallSeconds: Double, jobCount: Int, folder: String) -> String {
        guard exportedCount > 0 else {
            return "nothing to export: \(NumberText.count(skippedCount, "track")) already up to date in \(TerminalText.printable(folder))"
        }
        let speed = wallSeconds > 0 ? audioSeconds / wallSeconds : 0
        let audioText = Microseconds.formatClock(Int64(audioSeconds * 1_000_000)).dropLast(4)
        var line = "exported \(NumberText.count(exportedCount, "track")) (\(audioText) of audio) to \(TerminalText.printable(folder)) in \(NumberText.fixed(wallSeconds, decimals: wallSeconds < 10 ? 2 : 1)) s, \(Summary.speedText(speed)) real time, \(NumberText.count(jobCount, "job"))"
        if skippedCount > 0 { line += "; \(skippedCount) already up to date" }
        return line
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
