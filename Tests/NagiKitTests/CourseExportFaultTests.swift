import Foundation
import NagiDocuments
import NagiKit
import NagiTestSupport
import Testing

/// Which lessons an export started (reported progress for) and finished, gathered from its worker threads.
private final class StartedLessons: @unchecked Sendable {
    private let lock = NSLock()
    private var started: Set<Int> = []

    func note(_ event: CourseExporter.Event) {
        guard case let .progress(lessonIndex, _) = event else { return }
        lock.lock()
        started.insert(lessonIndex)
        lock.unlock()
    }

    var lessonIndexes: Set<Int> {
        lock.lock()
        defer { lock.unlock() }
        return started
    }
}

/// A course export on a disk that fills (issue 46, defect 13): the first track that fails stops the others, so a
/// full disk is one failure, not one a track. The disk is a real one: a small tmpfs (the tests run as root in CI).
@Suite("course export on a full disk", .serialized, .enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
struct CourseExportFaultTests {
    /// `lessonCount` lessons of 2-2 for `minutes` each.
    static func course(lessonCount: Int, minutes: Int) throws -> Course {
        let lessons = (1...lessonCount).map { "{\"title\": \"Day \($0)\", \"pattern\": \"2-2\", \"minutes\": \(minutes)}" }.joined(separator: ", ")
        let text = "{\"name\": \"faults\", \"title\": \"Faults\", \"lessons\": [\(lessons)]}"
        return try CourseDecoder(catalog: PresetFiles.catalog(userFolder: nil)).decode(try JSONParser.parse(text, file: "faults.json"), file: "faults.json")
    }

    @Test("the first track to fail stops the rest: no other lesson starts, one error, no partial file")
    func fullDiskStopsAtTheFirstFailure() throws {
        // 1 MB: room for the first slices of a track (256 KB each, so its progress is reported) but not the whole.
        let mount = try TmpfsMount(size: "1m")
        // Eight 2-minute lessons in mono 16-bit WAV at 8 kHz: 1.9 MB each, so every one would fill the disk.
        var settings = CourseExporter.Settings(folder: mount.path + "/album")
        settings.format = .wav
        settings.sampleRate = 8000
        settings.sound.channelCount = 1
        // One job: the order is the course's, and a track that started is one the export went on to.
        settings.jobCount = 1
        let exporter = try CourseExporter(course: try Self.course(lessonCount: 8, minutes: 2), settings: settings, catalog: PresetFiles.catalog(userFolder: nil), guideClips: GuideClipCache())
        let started = StartedLessons()
        var failure: SoundtrackError?
        do {
            _ = try exporter.export(events: { started.note($0) })
        } catch {
            failure = error
        }
        let error = try #require(failure, "the export should fail on a full disk")
        #expect(error.message.contains("No space left on device"), "\(error.message)")
        // The first track wrote slices until the disk was full; the seven others never began (tried, each would
        // have written its first slices into the room the failed track's partial file left).
        #expect(started.lessonIndexes == [0], "lessons started: \(started.lessonIndexes.sorted())")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: settings.folder)) ?? []
        #expect(!names.contains { $0.contains("partial") }, "\(names)")
        #expect(!names.contains { $0.hasSuffix(".wav") }, "no track fits, so none is left: \(names)")
    }
}
