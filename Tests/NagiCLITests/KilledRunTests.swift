import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// SIGKILL cannot be caught: what a killed run leaves must already be safe, and the next run tidies it.
@Suite("Killed runs (SIGKILL): no partial file at a target path; the next run cleans up")
struct KilledRunTests {
    static func environment(_ folder: URL) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": folder.path, "LANG": "C.UTF-8"]
    }

    @Test("a render killed mid-write leaves only a hidden .NAME.nagi-partial-PID; the next render removes it")
    func killedRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        let process = try ChildProcess(NagiProcess.executableURL.path, ["render", "coherent", "--minutes", "300", "-o", folder.appendingPathComponent("long.wav").path], environment: Self.environment(folder))
        // Kill once the temporary file holds some audio, so the kill lands mid-write.
        let temporaryName = ".long.wav.nagi-partial-\(process.pid)"
        let temporaryPath = folder.appendingPathComponent(temporaryName).path
        #expect(Poll.until(seconds: 60) {
            ((try? FileManager.default.attributesOfItem(atPath: temporaryPath)[.size] as? Int) ?? 0) > 1 << 20
        })
        process.signal(SIGKILL)
        #expect(process.wait(seconds: 10))
        #expect(process.exitStatus == 128 + SIGKILL)
        #expect(NagiProcess.names(in: folder) == [temporaryName])

        // A file of another, live process is not touched; the dead writer's is.
        let liveName = ".other.wav.nagi-partial-\(getpid())"
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent(liveName))
        let result = try NagiProcess.run(["render", "4-7-8", "--cycles", "1", "-o", "long.wav"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(NagiProcess.names(in: folder) == [liveName, "long.wav"])
        #expect(try AudioFileReader.info(path: folder.appendingPathComponent("long.wav").path).frameCount > 0)
    }

    @Test("a course export killed part-way leaves whole tracks and hidden temporaries; the next export cleans and keeps the tracks")
    func killedExport() throws {
        let folder = try NagiProcess.temporaryFolder()
        let album = folder.appendingPathComponent("album")
        let arguments = ["course", "export", "beginner-21", "-o", album.path, "--jobs", "2", "--quiet"]
        let process = try ChildProcess(NagiProcess.executableURL.path, arguments, environment: Self.environment(folder))
        #expect(Poll.until(seconds: 300) { NagiProcess.names(in: album).contains { $0.hasSuffix(".flac") } })
        process.signal(SIGKILL)
        #expect(process.wait(seconds: 10))
        #expect(process.exitStatus == 128 + SIGKILL)

        let left = NagiProcess.names(in: album)
        let tracks = left.filter { !$0.hasPrefix(".") }
        let temporaries = left.filter { $0.contains(".nagi-partial-") }
        #expect(!tracks.isEmpty && tracks.count < 21, "\(left)")
        // Nothing a user would take for a track: every visible file is a whole track.
        for track in tracks {
            #expect(track.hasSuffix(".flac"))
            let path = album.appendingPathComponent(track).path
            let info = try AudioFileReader.info(path: path)
            #expect(try AudioFileReader.readFloat(path: path).count == Int(info.frameCount) * info.channelCount)
        }
        // Hidden leftovers carry the killed process's id.
        for name in left where name.hasPrefix(".") && name != ".nagi-manifest.json" {
            #expect(name.hasSuffix(".nagi-partial-\(process.pid)"), "\(name)")
        }
        let trackDates = try tracks.map { try FileManager.default.attributesOfItem(atPath: album.appendingPathComponent($0).path)[.modificationDate] as? Date }

        // The next export removes the dead run's temporaries before it renders; stop it once they are gone.
        let rerun = try ChildProcess(NagiProcess.executableURL.path, arguments, environment: Self.environment(folder))
        #expect(Poll.until(seconds: 60) { !NagiProcess.names(in: album).contains { temporaries.contains($0) } })
        rerun.signal(SIGINT)
        #expect(rerun.wait(seconds: 60))
        #expect(rerun.exitStatus == 130)
        let after = NagiProcess.names(in: album)
        #expect(!after.contains { $0.contains(".nagi-partial-") }, "\(after)")
        // Whole tracks of the killed run were recorded, so they were skipped, not rendered again.
        for (track, date) in zip(tracks, trackDates) {
            #expect(after.contains(track))
            let now = try FileManager.default.attributesOfItem(atPath: album.appendingPathComponent(track).path)[.modificationDate] as? Date
            #expect(now == date, "\(track) was rewritten")
        }
    }
}
