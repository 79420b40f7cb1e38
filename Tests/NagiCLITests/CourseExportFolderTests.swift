import Foundation
import NagiTestSupport
import Testing

/// `nagi course export` into a folder it cannot fill, and into a folder another export is writing (issue 46,
/// defects 13 and 19), as a user meets them: exit codes, the lines on standard error, the files left.
@Suite("nagi course export: a full disk, two exports into one folder", .serialized)
struct CourseExportFolderTests {
    /// `lessonCount` lessons of 2-2 for `minutes` each.
    static func writeCourse(in folder: URL, lessonCount: Int, minutes: Int) throws -> String {
        let lessons = (1...lessonCount).map { "{\"title\": \"Day \($0)\", \"pattern\": \"2-2\", \"minutes\": \(minutes)}" }.joined(separator: ", ")
        let path = folder.appendingPathComponent("course.json").path
        try "{\"name\": \"shared\", \"title\": \"Shared\", \"lessons\": [\(lessons)]}".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a full disk: one error line, exit 74, no partial track", .enabled(if: TmpfsMount.isAvailable, "mounting a tmpfs needs root"))
    func fullDisk() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mount = try TmpfsMount(in: folder, size: "256k")
        let course = try Self.writeCourse(in: folder, lessonCount: 8, minutes: 2)
        let result = NagiInProcess.run(["course", "export", course, "-o", mount.path + "/album", "--format", "wav", "--rate", "8000", "--channels", "1", "--jobs", "2"], home: folder)
        #expect(result.status == 74, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("nagi: error: ") == true && result.standardError.contains("No space left on device"), "\(result.standardError)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mount.path + "/album")) ?? []
        #expect(!names.contains { $0.contains("partial") || $0.hasSuffix(".wav") }, "\(names)")
    }

    @Test("two exports into one folder take turns: one exports, the other waits and finds nothing to do; a third redoes nothing")
    func twoExportsOneFolder() throws {
        let folder = try NagiProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Long enough that the first export still holds the folder when the second asks for it.
        let course = try Self.writeCourse(in: folder, lessonCount: 4, minutes: 3)
        let album = folder.appendingPathComponent("album").path
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_RUNTIME_DIR": folder.path, "LANG": "C.UTF-8"]
        let arguments = ["course", "export", course, "-o", album, "--jobs", "1", "--rate", "16000", "--channels", "1"]
        let runs = try (0..<2).map { index in
            try ChildProcess(NagiProcess.executableURL.path, arguments, environment: environment, workingDirectory: folder.path, standardErrorPath: folder.appendingPathComponent("stderr-\(index).txt").path)
        }
        for run in runs { #expect(run.wait(seconds: 240), "an export did not end") }
        let errors = (0..<2).map { (try? String(contentsOf: folder.appendingPathComponent("stderr-\($0).txt"), encoding: .utf8)) ?? "" }
        #expect(runs.map(\.exitStatus) == [0, 0], "\(errors)")
        let exported = errors.filter { $0.contains("exported 4 tracks") }
        let waited = errors.filter { $0.contains("waiting for another export into") }
        #expect(exported.count == 1, "exactly one export writes the tracks: \(errors)")
        #expect(waited.count == 1 && waited.first?.contains("nothing to export: 4 tracks already up to date") == true, "the other waits, then has nothing to do: \(errors)")

        let third = NagiInProcess.run(arguments, home: folder)
        #expect(third.status == 0)
        #expect(third.standardError.contains("nothing to export: 4 tracks already up to date"), "\(third.standardError)")
        let tracks = try FileManager.default.contentsOfDirectory(atPath: album).filter { $0.hasSuffix(".flac") }
        #expect(tracks.count == 4)
    }
}
