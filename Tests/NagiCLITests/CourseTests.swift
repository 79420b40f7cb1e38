import AudioFile
import Foundation
import NagiTestSupport
import Testing

@testable import Breath
@testable import NagiDocuments
@testable import NagiKit

@Suite("nagi course, end to end")
struct CourseTests {
    /// A small course with a hostile title among its lessons: a path that would leave the folder and hide the file
    /// (control characters in a title are refused outright: `DisplayTextRuleTests`).
    static let smallCourse = #"""
    {"name": "tiny", "title": "Tiny course", "description": "Three short lessons.",
     "lessons": [
       {"title": "Day 1 — Arrive", "pattern": "2-2", "cycles": 2},
       {"title": "../../escape/../.hidden", "pattern": {"phases": [{"kind": "inhale", "seconds": 1}, {"kind": "exhale", "seconds": 2}]}, "cycles": 1, "soundscape": "night"},
       {"title": "Day 3: box", "pattern": "box", "cycles": 1, "soundscape": "rain"}
     ]}
    """#

    static func writeCourse(in folder: URL, text: String = smallCourse) throws -> String {
        let path = folder.appendingPathComponent("tiny.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("built-in courses list and show with their totals")
    func listAndShow() throws {
        let list = NagiInProcess.run(["course", "list"])
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("beginner-21"))
        #expect(list.standardOutput.contains("sleep-7"))
        let show = NagiInProcess.run(["course", "show", "beginner-21"])
        #expect(show.status == 0)
        #expect(show.standardOutput.contains("21 lessons"))
        #expect(show.standardOutput.contains("Day 1"))
        let unknown = NagiInProcess.run(["course", "show", "beginner-12"])
        #expect(unknown.status == 66)
        #expect(unknown.standardError.contains("beginner-21"))
    }

    @Test("every stage of a built-in course's lesson is labelled, so its chapters are the stages, not a chapter per phase")
    func builtinStagesAreLabelled() throws {
        for name in ["beginner-21", "sleep-7"] {
            let course = try CourseDecoder(catalog: BuiltinLibrary.catalog).course(named: name)
            for lesson in course.lessons {
                let stages = lesson.session.stages
                let staged = stages.count > 1 || stages.contains { if case .ramp = $0 { true } else { false } }
                guard staged else { continue }
                let labels = stages.compactMap { stage -> String? in if case let .labelled(label, _) = stage { label.label } else { nil } }
                #expect(labels.count == stages.count, "\(name): \(lesson.title) has \(stages.count - labels.count) unlabelled stages")
                // What a tagged file of the lesson lists: one chapter per stage (Day 21 had 140 of "Inhale", "Hold", "Exhale").
                let schedule = try Schedule(session: lesson.session, sampleRate: 8000)
                let chapters = ChapterMarks.chapters(nil, for: schedule).chapters
                #expect(chapters.map(\.title) == labels, "\(name): \(lesson.title): \(chapters.count) chapters")
            }
        }
    }

    @Test("bad course files fail with exit 65 and the JSON path", arguments: [
        (#"{"name": "x", "title": "X", "lessons": [{"title": "a", "pattern": "boxx", "cycles": 1}]}"#, "$.lessons[0].pattern"),
        (#"{"name": "x", "title": "X", "lessons": [{"title": "a", "pattern": "box", "minuts": 1}]}"#, "$.lessons[0].minuts"),
        (#"{"name": "x", "title": "X", "lessons": []}"#, "$.lessons"),
        (#"{"name": "../x", "title": "X", "lessons": [{"title": "a", "pattern": "box"}]}"#, "$.name"),
        (#"{"name": "x", "title": "X", "lessons": [{"pattern": "box"}]}"#, "$.lessons[0]"),
        (#"{"name": "x", "title": "X", "lessons": [{"title": "a", "pattern": "box", "cycles": "3"}]}"#, "$.lessons[0].cycles"),
    ])
    func badCourse(json: String, path: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(in: folder, text: json)
        let result = NagiInProcess.run(["course", "show", file], home: folder)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains(path), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("export writes tagged tracks inside DIR, a playlist and a manifest; a second run skips them")
    func exportAndResume() throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(in: folder)
        let output = folder.appendingPathComponent("album")
        let first = NagiInProcess.run(["course", "export", file, "-o", output.path, "--jobs", "2"], home: folder)
        #expect(first.status == 0, "\(first.standardError)")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        let tracks = names.filter { $0.hasSuffix(".flac") }
        #expect(tracks.count == 3)
        #expect(tracks[0] == "01 - Day 1 — Arrive.flac")
        #expect(tracks[1].hasPrefix("02 - "))
        #expect(!tracks[1].contains("/") && !tracks[1].contains(".."))
        #expect(tracks[2] == "03 - Day 3- box.flac")
        // Nothing escaped the folder.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape").path))
        #expect(!names.contains { $0.contains("nagi-partial") })
        let info = try AudioFileReader.info(path: output.appendingPathComponent(tracks[0]).path)
        #expect(info.tags.album == "Tiny course")
        #expect(info.tags.title == "Day 1 — Arrive")
        #expect(info.tags.artist == "nagi")
        #expect(info.tags.trackNumber == 1)
        #expect(info.tags.trackCount == 3)
        let playlist = try String(contentsOfFile: output.appendingPathComponent("tiny.m3u8").path, encoding: .utf8)
        let lines = playlist.split(separator: "\n").map(String.init)
        #expect(lines.first == "#EXTM3U")
        // Each #EXTINF is its file's length, tail included, to the nearest second (issue 21: a 303.8 s file was
        // listed as 300), read back from the files.
        let listed = lines.filter { $0.hasPrefix("#EXTINF:") }.map { $0.dropFirst("#EXTINF:".count).prefix { $0 != "," } }.map { Int($0) }
        let fileSeconds = try tracks.map { track -> Int in
            let trackInfo = try AudioFileReader.info(path: output.appendingPathComponent(track).path)
            return Int((Double(trackInfo.frameCount) / Double(trackInfo.sampleRate)).rounded())
        }
        #expect(listed == fileSeconds.map(Optional.some), "\(listed) against the files' \(fileSeconds)")
        #expect(fileSeconds.contains(11), "the 8 s lesson with its tail: \(fileSeconds)")
        #expect(lines.filter { !$0.hasPrefix("#") } == tracks)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(".nagi-manifest.json").path))

        let before = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(tracks[0]).path)[.modificationDate] as? Date
        let second = NagiInProcess.run(["course", "export", file, "-o", output.path], home: folder)
        #expect(second.status == 0)
        #expect(second.standardError.contains("nothing to export: 3 tracks already up to date"), "\(second.standardError)")
        let after = try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(tracks[0]).path)[.modificationDate] as? Date
        #expect(before == after)

        // Other settings redo the tracks; --force redoes everything.
        let flac = NagiInProcess.run(["course", "export", file, "-o", output.path, "--seed", "9"], home: folder)
        #expect(flac.standardError.contains("exported 3 tracks"), "\(flac.standardError)")
        let forced = NagiInProcess.run(["course", "export", file, "-o", output.path, "--seed", "9", "--force"], home: folder)
        #expect(forced.standardError.contains("exported 3 tracks"), "\(forced.standardError)")
    }

    @Test("an export interrupted part-way leaves only whole tracks and no temporary files; exit 130 / 143", arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interruptedExport(signal: Int32, status: Int32) throws {
        let folder = try NagiProcess.temporaryFolder()
        let output = folder.appendingPathComponent("album")
        let errorPath = folder.appendingPathComponent("stderr.txt").path
        let process = try ChildProcess(NagiProcess.executableURL.path, ["course", "export", "beginner-21", "-o", output.path, "--jobs", "2", "--quiet"], environment: ["HOME": folder.path, "PATH": "/usr/bin:/bin"], standardErrorPath: errorPath)
        // Wait until the first track lands, then interrupt.
        #expect(Poll.until(seconds: 300) { NagiProcess.names(in: output).contains { $0.hasSuffix(".flac") } })
        process.signal(signal)
        #expect(process.wait(seconds: 120))
        #expect(process.exitStatus == status, "\((try? String(contentsOfFile: errorPath, encoding: .utf8))?.prefix(4000) ?? "")")
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(!names.contains { $0.contains("nagi-partial") }, "\(names)")
        let tracks = names.filter { $0.hasSuffix(".flac") }
        #expect(!tracks.isEmpty && tracks.count < 21)
        for track in tracks {
            // Each one is whole: it reads back with the frame count its header promises.
            let path = output.appendingPathComponent(track).path
            let info = try AudioFileReader.info(path: path)
            #expect(info.frameCount > 0)
            #expect(try AudioFileReader.readFloat(path: path).count == Int(info.frameCount) * info.channelCount)
        }
    }

    @Test("next plays the first lesson not done and records it; status and --reset follow")
    func nextStatusReset() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(in: folder)
        let capture = folder.appendingPathComponent("capture.raw").path
        let initial = NagiInProcess.run(["course", "status", file], home: folder)
        #expect(initial.standardOutput.contains("done: 0 / 3"))
        #expect(initial.standardOutput.contains("next: lesson 1, Day 1 — Arrive"))
        let next = NagiInProcess.run(["course", "next", file, "--device", "file:'\(capture)',raw"], home: folder)
        #expect(next.status == 0, "\(next.standardError)")
        let status = NagiInProcess.run(["course", "status", file], home: folder)
        #expect(status.standardOutput.contains("done: 1 / 3"))
        #expect(status.standardOutput.contains("next: lesson 2"))
        let record = folder.appendingPathComponent("state/nagi/tiny.progress.json").path
        #expect(FileManager.default.fileExists(atPath: record))
        // The lesson's start is printed and kept beside its completion, for `resonance analyze --start-from-progress`.
        let startLine = try #require(next.standardError.split(separator: "\n").first { $0.hasPrefix("session started at ") })
        let startedAt = startLine.dropFirst("session started at ".count)
        let kept = try CourseProgress.decode(String(contentsOfFile: record, encoding: .utf8), file: record)
        #expect(kept.completions.first?.startedAt == String(startedAt), "\(kept)")
        let reset = NagiInProcess.run(["course", "status", file, "--reset"], home: folder)
        #expect(reset.status == 0)
        #expect(NagiInProcess.run(["course", "status", file], home: folder).standardOutput.contains("done: 0 / 3"))
    }

    @Test("a lesson that fails to play is not recorded")
    func failedLessonNotRecorded() throws {
        // course next opens ALSA in this process: its pulse hook reads this process's XDG_RUNTIME_DIR, not the run's.
        RuntimeFolder.ensure()
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(in: folder)
        let result = NagiInProcess.run(["course", "next", file, "--device", "nosuchdevice"], home: folder)
        #expect(result.status == 69)
        #expect(NagiInProcess.run(["course", "status", file], home: folder).standardOutput.contains("done: 0 / 3"))
    }

    @Test("a damaged progress record is kept aside and reported, never a crash")
    func damagedRecord() throws {
        let folder = try NagiProcess.temporaryFolder()
        let file = try Self.writeCourse(in: folder)
        let stateFolder = folder.appendingPathComponent("state/nagi")
        try FileManager.default.createDirectory(at: stateFolder, withIntermediateDirectories: true)
        try Data("{\"course\": \"tiny\", \"completed\": [{\"lesson\": ".utf8).write(to: stateFolder.appendingPathComponent("tiny.progress.json"))
        let status = NagiInProcess.run(["course", "status", file], home: folder)
        #expect(status.status == 0)
        #expect(status.standardError.contains("damaged"))
        #expect(status.standardOutput.contains("done: 0 / 3"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: stateFolder.path).filter { $0.contains("damaged") }
        #expect(kept.count == 1)
    }
}
