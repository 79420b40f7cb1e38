import NagiDocuments
import NagiOptions
import CNagiSystem
import FoundationEssentials
import Glibc
import NagiKit
import NagiBase

/// `nagi course export`: every lesson rendered as a tagged track, in parallel, resumable, with a playlist.
enum CourseExport {
    static let spec = CourseOptions.exportSpec

    static func run(_ arguments: ParsedArguments) throws(NagiError) {
        let catalog = PresetEnvironment.catalog()
        let course = try CourseOptions.loadCourse(arguments, catalog: catalog)
        let quiet = arguments[RenderOptions.quiet]
        var settings = try CourseOptions.exportSettings(arguments, course: course)
        if arguments.text(of: OutputOptions.folderOutput) == nil { settings.folder = "./" + FileNames.safeStem(course.name) }
        do {
            settings.jobCount = try arguments[CourseOptions.jobs] ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            throw .arguments(error)
        }
        settings.writesLabels = arguments[CourseOptions.labels]
        settings.redoesEverything = arguments[CourseOptions.force]
        Console.installStopHandlers()

        // Everything is checked before anything is created: schedules, soundscapes, beds, clips, the files. The
        // clips are made here, once per phrase, before any worker thread starts (flite in as many processes as jobs).
        let exporter: CourseExporter
        do {
            exporter = try CourseExporter(course: course, settings: settings, catalog: catalog, guideClips: GuideClipCache(speaker: FliteSpeaker(processCount: settings.jobCount)))
        } catch {
            throw NagiError(error)
        }
        if !quiet, let line = chaptersWarning(exporter.tracks.compactMap { track in track.file.chaptersNote.map { (track.fileName, $0) } }) {
            Console.err(line + "\n")
        }
        // The export's events come from its worker threads, which do not see the run's task: they write through
        // the run's context, taken here.
        let context = CommandContext.current
        let display = ExportProgress(context: context, enabled: !quiet && context.standardErrorIsTerminal, tracks: Dictionary(uniqueKeysWithValues: exporter.tracks.map { ($0.lessonIndex, $0.fileName) }))
        let fileNames = exporter.tracks.map(\.fileName)
        let folder = settings.folder
        let report: CourseExporter.Report
        do {
            report = try exporter.export(events: { event in
                switch event {
                case let .progress(lessonIndex, fraction): display.update(trackIndex: lessonIndex, fraction: fraction)
                case let .finished(lessonIndex): display.finished(trackIndex: lessonIndex)
                case let .loudnessShortfall(lessonIndex, outcome): context.err(outcome.shortfallLine(naming: fileNames[lessonIndex]) + "\n")
                case .waitingForFolder: if !quiet { context.err("nagi: waiting for another export into \(TerminalText.printable(folder)) to finish…\n") }
                }
            }, cancel: Console.cancellation)
        } catch {
            display.finish()
            throw NagiError(error)
        }
        display.finish()
        if !quiet {
            Console.err(summaryLine(exportedCount: report.exportedLessonIndexes.count, skippedCount: report.skippedCount, audioSeconds: report.audioSeconds, wallSeconds: report.wallSeconds, jobCount: report.jobCount, folder: folder) + "\n")
        }
    }

    /// One warning for the tracks whose chapters were not written (each track's note, the first named), or nil when
    /// every track has its chapters: said once for the album, not once a track.
    static func chaptersWarning(_ notes: [(fileName: String, note: String)]) -> String? {
        guard let first = notes.first else { return nil }
        let others = notes.count > 1 ? " and \(NumberText.count(notes.count - 1, "other track"))" : ""
        return "nagi: warning: \(TerminalText.printable(first.fileName))\(others): \(first.note)"
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
}
