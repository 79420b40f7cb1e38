// Exports a course as an album through NagiKit alone — the tracks, their album gain, the playlist — as
// `nagi course export` does: a course JSON file read with the built-in presets, every lesson checked before
// anything is written, then the tracks two at a time with their progress reported.
import Foundation
import NagiKit

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ExportCourse COURSE.json FOLDER")
    exit(64)
}
do {
    let text = try String(contentsOfFile: arguments[1], encoding: .utf8)
    let course = try BuiltinLibrary.course(json: text, file: arguments[1])
    var settings = CourseExporter.Settings(folder: arguments[2])
    settings.format = .flac
    settings.jobCount = 2
    let exporter = try CourseExporter(course: course, settings: settings, catalog: BuiltinLibrary.catalog, guideClips: GuideClipCache())
    let report = try exporter.export(events: { event in
        if case let .finished(lessonIndex) = event { print("track \(lessonIndex + 1) written") }
    })
    print("exported \(report.exportedLessonIndexes.count) tracks (\(Int(report.audioSeconds)) s of audio) to \(arguments[2])")
} catch let error as SoundtrackError {
    print("error: \(error.message)")
    exit(1)
} catch {
    print("error: \(error)")
    exit(1)
}
