import NagiBase
import NagiSystem
import AudioFile
import Breath
import FoundationEssentials
import Glibc
import NagiDocuments
import Synth

/// A course exported as an album: every lesson a tagged track named "NN - Title.ext" in one folder, rendered
/// several at a time, with ReplayGain album gains, label tracks if asked, a playlist, and a manifest that lets
/// a second export skip what is already done.
///
/// Making one prepares every lesson (schedules, soundscapes, beds measured, the guide's phrases spoken) and
/// describes every file before anything is created: a bad lesson stops the export before the first track.
/// `export` then writes what is not up to date, longest track first, holding the folder's lock so that two
/// exports into one folder take turns instead of doing the same tracks twice. The first track that fails stops
/// the others (a full disk is one error, not one a track); cancelled, it leaves only whole tracks.
public final class CourseExporter: Sendable {
    /// What the caller chooses for every track of the album.
    public struct Settings: Sendable {
        /// The album's folder, created (with its parents) if missing.
        public var folder: String
        /// The tracks' format (not raw PCM: a playlist needs files a player opens).
        public var format: AudioFileFormat = .flac
        /// Sample storage for WAV and FLAC.
        public var encoding: SampleEncoding = .pcm16
        /// 0…1 (1 best) for FLAC's effort and the lossy formats' quality; nil for libsndfile's default.
        public var quality: Double?
        /// Frames per second.
        public var sampleRate = 48_000
        /// The sound of every lesson, the lesson's own settings applying where these leave one unset.
        public var sound = SoundtrackOptions()
        /// The artist tag; nil: the course's, else "nagi".
        public var artist: String?
        /// The album tag; nil: the course's album, else its title.
        public var album: String?
        /// The front cover of every track; nil: none.
        public var cover: CoverArt?
        /// The chapters of every track; nil: stages when the lesson has them, else phases.
        public var chapters: ChapterMarks?
        /// Whether an Audacity label track is written beside each track ("NN - Title.txt").
        public var writesLabels = false
        /// Tracks rendered at once.
        public var jobCount = 1
        /// Whether every track is redone, replacing existing files (else tracks up to date are skipped and a file
        /// nagi did not export is refused).
        public var redoesEverything = false

        /// Settings for an album in `folder`; the rest as their defaults say.
        public init(folder: String) {
            self.folder = folder
        }
    }

    /// One lesson's track as described before anything is prepared: its file, its tags, its request.
    public struct TrackPlan: Sendable {
        /// The lesson's place in the course, from 0.
        public let lessonIndex: Int
        /// The lesson's title, as the track's title tag (control characters dropped).
        public let title: String
        /// The file's name inside the folder ("01 - Arrive.flac": the lesson's number, then its identity's name).
        public let fileName: String
        /// The track's one identity (`requestWithTarget`'s sound, the lesson's title and name): its title and
        /// file name are this one's, and a server keeps it prepared under its `soundKey`.
        public let identity: SoundtrackIdentity
        /// The file's path.
        public let path: String
        /// The lesson's soundtrack at the calibrated level: the loudness target is `loudnessTargetLUFS`'s.
        public let request: SoundtrackRequest
        /// The track's loudness target, reached when it is written (nil: the calibrated level).
        public let loudnessTargetLUFS: Double?
        /// The file as it will be written: format, tags, chapters.
        public let file: SoundtrackFileDescription
        /// The label track written beside it, when asked for.
        let labels: String?

        /// The lesson's soundtrack with its loudness target, as one file of it alone is made.
        public var requestWithTarget: SoundtrackRequest {
            var request = self.request
            request.loudnessTargetLUFS = loudnessTargetLUFS
            return request
        }
    }

    /// One track of the album, prepared.
    public struct Track: Sendable {
        /// What it is.
        public let plan: TrackPlan
        /// The calibrated soundtrack (a loudness target, if any, is reached when the track is written).
        let soundtrack: Soundtrack
        /// The settings' fingerprint: a track recorded in the manifest with another is redone.
        let fingerprint: String

        /// The lesson's place in the course, from 0.
        public var lessonIndex: Int { plan.lessonIndex }
        /// The file's name inside the folder.
        public var fileName: String { plan.fileName }
        /// The file's path.
        public var path: String { plan.path }
        /// The file as it will be written.
        public var file: SoundtrackFileDescription { plan.file }
        /// The session's length, microseconds: the longest-first order.
        public var sessionMicroseconds: Int64 { soundtrack.schedule.totalMicroseconds }
        /// The file's real length (countdown, session, release, ending), microseconds, for the playlist.
        public var fileMicroseconds: Int64 { file.frameCount * 1_000_000 / Int64(file.spec.sampleRate) }
        /// Where the label track goes.
        public var labelsPath: String { String(path.dropLast(file.format.fileExtension.count)) + "txt" }
    }

    /// What an export reports while it runs, from its worker threads, one report at a time.
    public enum Event: Sendable {
        /// A track's rendering has come this far (0 to 1).
        case progress(lessonIndex: Int, fraction: Double)
        /// A track is written (or failed, or was stopped).
        case finished(lessonIndex: Int)
        /// A track's loudness target could not be reached in full under the true-peak ceiling.
        case loudnessShortfall(lessonIndex: Int, LoudnessMeasurement)
        /// Another export holds the folder; this one waits for it to end.
        case waitingForFolder
    }

    /// What an export did.
    public struct Report: Sendable {
        /// The tracks written this time, by lesson index.
        public var exportedLessonIndexes: [Int]
        /// Tracks already up to date, left untouched.
        public var skippedCount: Int
        /// Seconds of audio written.
        public var audioSeconds: Double
        /// Seconds the export took.
        public var wallSeconds: Double
        /// Tracks rendered at once.
        public var jobCount: Int
    }

    /// The course.
    public let course: Course
    /// What was asked for.
    public let settings: Settings
    /// Every lesson's track, in the course's order.
    public let tracks: [Track]

    /// Prepares every lesson of `course` under `settings` before anything is created: presets from `catalog`,
    /// the guide's phrases from `guideClips` (each spoken once, in as many processes as it was given); `cancel` stops
    /// the preparation between and within lessons (a server whose client has gone).
    /// - Throws: `SoundtrackError` for the first lesson that cannot be made (its soundscape, schedule, bed, cue pack,
    ///   spoken words or file), naming it; `.cancelled`.
    public init(course: Course, settings: Settings, catalog: PresetCatalog, guideClips: GuideClipCache, cancel: Cancellation = .never) throws(SoundtrackError) {
        self.course = course
        self.settings = settings
        var tracks: [Track] = []
        var soundscapes: [String: (Soundscape, String)] = [:]
        for index in course.lessons.indices {
            let plan = try Self.plan(lesson: index, of: course, settings: settings, catalog: catalog, soundscapes: &soundscapes)
            // Every track is prepared before any is written, so none holds its bed in memory meanwhile (a write reads
            // it, jobs at a time).
            if cancel.isCancelled { throw .cancelled }
            let soundtrack = try Soundtrack.prepare(plan.request, guide: guideClips, cancel: cancel, holdsBed: false)
            // The settings' fingerprint covers the soundscape, guide, bed and beat and names each clip by phrase and
            // length; the request adds the voice and the pack's folder, the checksum the pack's samples, so a
            // different voice or pack redoes the track.
            // The identity's file key covers the request whole (session, soundscape, guide, bed, beat, loudness
            // target) and the file (format, tags, chapters).
            let fingerprint = Fingerprint.of([
                plan.identity.fileKey(plan.file), "lesson \(index)",
                soundtrack.settings.fingerprint, Self.clipChecksum(soundtrack.settings.clips),
            ])
            tracks.append(Track(plan: plan, soundtrack: soundtrack, fingerprint: fingerprint))
        }
        self.tracks = tracks
    }

    /// Lesson `index`'s track under `settings`, described but not prepared (a server serving one lesson).
    /// - Throws: as `init`, for that lesson.
    public static func plan(lesson index: Int, of course: Course, settings: Settings, catalog: PresetCatalog) throws(SoundtrackError) -> TrackPlan {
        var soundscapes: [String: (Soundscape, String)] = [:]
        return try plan(lesson: index, of: course, settings: settings, catalog: catalog, soundscapes: &soundscapes)
    }

    /// `plan(lesson:…)`, each soundscape read once whichever lessons share it (`soundscapes` keeps them).
    private static func plan(
        lesson index: Int, of course: Course, settings: Settings, catalog: PresetCatalog, soundscapes: inout [String: (Soundscape, String)]
    ) throws(SoundtrackError) -> TrackPlan {
        let lesson = course.lessons[index]
        let reference = settings.sound.soundscapeReference(lesson: lesson) ?? SoundscapeResolver.defaultName
        let soundscape: Soundscape, soundscapeName: String
        if let cached = soundscapes[reference] {
            (soundscape, soundscapeName) = cached
        } else {
            do { (soundscape, soundscapeName) = try SoundscapeResolver.resolve(reference, catalog: catalog) } catch { throw .breath(error) }
            soundscapes[reference] = (soundscape, soundscapeName)
        }
        let schedule: Schedule
        do { schedule = try Schedule(session: lesson.session, sampleRate: settings.sampleRate) } catch { throw .breath(error) }
        // A lesson may set its cues, count, voice, beat, bed and loudness; the caller's settings replace them.
        var request = try settings.sound.request(schedule: schedule, soundscape: soundscape, lesson: lesson).forEncoder(of: settings.format)
        let identity = SoundtrackIdentity(request: request, format: settings.format, title: lesson.title, name: lesson.title)
        let number = String(index + 1)
        let numberWidth = max(2, String(course.lessons.count).count)
        let fileName = String(repeating: "0", count: numberWidth - number.count) + number + " - " + identity.fileName
        let title = identity.title
        let loudnessTarget = request.loudnessTargetLUFS
        // The loudness pass runs when the track is written, for the tracks that are written.
        request.loudnessTargetLUFS = nil
        let tags = AudioTags(
            title: title, artist: settings.artist ?? course.artist ?? "nagi", album: settings.album ?? course.album ?? course.title,
            comment: SoundtrackTags.comment(pattern: lesson.patternLabel, schedule: schedule, soundscape: soundscapeName),
            trackNumber: index + 1, trackCount: course.lessons.count, discNumber: 1, discCount: 1,
            date: SoundtrackTags.currentYear, genre: course.genre ?? SoundtrackTags.defaultGenre, encoder: SoundtrackTags.encoder,
            cover: settings.cover)
        let file = try request.fileDescription(
            format: settings.format, encoding: settings.encoding, quality: settings.quality, tags: tags, chapters: settings.chapters)
        let labels = settings.writesLabels
            ? LabelTrack.text(for: schedule, offsetMicroseconds: request.framing.leadInMicroseconds(sampleRate: settings.sampleRate)) : nil
        return TrackPlan(
            lessonIndex: index, title: title, fileName: fileName, identity: identity, path: FilePath(settings.folder).appending(fileName).string, request: request,
            loudnessTargetLUFS: loudnessTarget, file: file, labels: labels)
    }

    /// Writes every track not up to date (all with `redoesEverything`), then the album gain, the labels and the
    /// playlist. `events` hears each track's progress from the worker threads, one report at a time.
    /// - Throws: the first failure: `.cannotCreate` for a folder that cannot be made or a file in the way,
    ///   the track's own failure (the others are stopped), `.cancelled`.
    public func export(events: @escaping @Sendable (Event) -> Void = { _ in }, cancel: Cancellation = .never) throws(SoundtrackError) -> Report {
        let folder = settings.folder
        try Self.prepareFolder(folder)
        let lock = try FolderLock(folder: folder, waiting: { events(.waitingForFolder) }, cancel: cancel)
        defer { lock.release() }
        _ = PartialFileCleaner.removeStale(in: folder)
        let manifest = ExportManifest(folder: folder, course: course.name)
        var pending: [Track] = []
        var skipped = 0
        for track in tracks {
            let exists = TextFileOutput.isExistingRegularFile(track.path)
            if !settings.redoesEverything, exists, manifest.isUpToDate(track.fileName, fingerprint: track.fingerprint, path: track.path) {
                skipped += 1
                continue
            }
            if !settings.redoesEverything, exists, !manifest.isExported(track.fileName) {
                throw .cannotCreate(path: track.path, reason: "it already exists and was not exported by nagi; use --force to replace it")
            }
            pending.append(track)
        }

        // Longest first, so no long track is left running alone at the end.
        pending.sort { $0.sessionMicroseconds != $1.sessionMicroseconds ? $0.sessionMicroseconds > $1.sessionMicroseconds : $0.lessonIndex < $1.lessonIndex }
        let start = ContinuousClock.now
        let lessonIndexes = pending.map(\.lessonIndex)
        // The first failure stops every other track: they see it through the same token as the caller's stop.
        let failed = CancellationSource()
        let stop = Cancellation { cancel.isCancelled || failed.isCancelled }
        let progress: @Sendable (Int, Double?) -> Void = { pendingIndex, fraction in
            if let fraction {
                events(.progress(lessonIndex: lessonIndexes[pendingIndex], fraction: fraction))
            } else {
                events(.finished(lessonIndex: lessonIndexes[pendingIndex]))
            }
        }
        let outcomes = ParallelRunner.run(pending, jobs: settings.jobCount, progress: progress) { track, report -> Result<Double, SoundtrackError> in
            guard !stop.isCancelled else { return .failure(.cancelled) }
            do throws(SoundtrackError) {
                manifest.beginWriting(track.fileName)
                let soundtrack = try track.plan.loudnessTargetLUFS.map { target throws(SoundtrackError) in
                    try track.soundtrack.reachingLoudness(targetLUFS: target, cancel: stop)
                } ?? track.soundtrack
                let result = try soundtrack.write(to: .file(path: track.path, overwrite: true), file: track.file, progress: report, cancel: stop)
                if let outcome = soundtrack.loudness, outcome.fallsShort {
                    events(.loudnessShortfall(lessonIndex: track.lessonIndex, outcome))
                }
                manifest.record(track.fileName, fingerprint: track.fingerprint, path: track.path)
                return .success(result.audioSeconds)
            } catch {
                if case .cancelled = error {} else { failed.cancel() }
                return .failure(error)
            }
        }
        var audioSeconds = 0.0
        var firstFailure: SoundtrackError?
        for outcome in outcomes {
            switch outcome {
            case let .success(seconds): audioSeconds += seconds
            case let .failure(error):
                if case .cancelled = error { continue }
                if firstFailure == nil { firstFailure = error }
            }
        }
        if cancel.isCancelled { throw .cancelled }
        if let firstFailure { throw firstFailure }
        try addAlbumGain(manifest: manifest)
        for track in tracks {
            guard let labels = track.plan.labels else { continue }
            do { try TextFileOutput.write(labels, to: track.labelsPath, overwrite: true) } catch { throw .textFile(error) }
        }
        let playlist = Playlist.m3u8(course: course, tracks: tracks.map { ($0.fileName, $0.plan.title, $0.fileMicroseconds) })
        do { try TextFileOutput.write(playlist, to: playlistPath, overwrite: true) } catch { throw .textFile(error) }
        let elapsed = ContinuousClock.now - start
        return Report(
            exportedLessonIndexes: pending.map(\.lessonIndex).sorted(), skippedCount: skipped,
            audioSeconds: audioSeconds, wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18,
            jobCount: min(settings.jobCount, max(1, pending.count)))
    }

    /// The playlist's path: "<folder>/<course name>.m3u8".
    public var playlistPath: String { FilePath(settings.folder).appending(course.name + ".m3u8").string }

    /// Reads every track's measured loudness back from its own tags (those exported earlier too), and adds the
    /// album's to each: ReplayGain album gain and peak (R128_ALBUM_GAIN in Opus). The album loudness is the
    /// tracks' energy mean weighted by length, 10·log10(Σ tᵢ·10^(Lᵢ/10) / Σ tᵢ): each track's loudness gated on
    /// its own rather than the album gated at once (0.08 dB apart on a two-track test course). A track whose album
    /// gain is already right is left untouched; one that changes is tagged in a copy beside it, fsynced and renamed,
    /// so no track is ever half written, and its manifest entry follows.
    private func addAlbumGain(manifest: ExportManifest) throws(SoundtrackError) {
        var measured: [(track: Track, loudness: Double, peak: Double, seconds: Double)] = []
        for track in tracks {
            let format = track.file.format
            guard let items = try? TagLibFile.read(path: track.path, format: format) else { continue }
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
                let changed = try TagLibFile.setAlbumGain(gain, inPublishedFile: entry.track.path, format: entry.track.file.format)
                if changed, manifest.isExported(entry.track.fileName) {
                    manifest.record(entry.track.fileName, fingerprint: entry.track.fingerprint, path: entry.track.path)
                }
            } catch {
                throw .output(error)
            }
        }
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

    /// Creates the album's folder (and parents) or says why not.
    private static func prepareFolder(_ folder: String) throws(SoundtrackError) {
        switch FileKind.of(folder) {
        case .folder:
            guard access(folder, W_OK) == 0 else { throw .cannotCreate(path: folder, reason: FileSystem.lastErrorText) }
        case .missing:
            if let reason = FileSystem.makeFolders(folder) { throw .cannotCreate(path: folder, reason: reason) }
        case .regularFile, .pipe, .socket, .device, .symbolicLink, .other:
            throw .cannotCreate(path: folder, reason: "it is a file, not a folder")
        }
    }
}
