import AudioFile
import Foundation
import NagiTestSupport
import Synchronization
import Testing

@Suite("nagi render, end to end")
struct RenderTests {
    @Test("defaults: 4-7-8 at its preset length, 48 kHz stereo 16-bit WAV named after the pattern, cue points on every phase start")
    func defaults() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = try NagiProcess.run(["render"], in: folder)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("4-7-8.wav"))
        #expect(result.standardError.contains("real time"))
        let info = try AudioFileInfo(path: folder.appendingPathComponent("4-7-8.wav").path)
        #expect(info.sampleRate == 48000)
        #expect(info.channelCount == 2)
        let described = NagiInProcess.run(["describe", "4-7-8", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(described.standardOutput.utf8)) as? [String: Any])
        let phases = try #require(object["phases"] as? [[String: Any]])
        let starts = phases.compactMap { ($0["startFrame"] as? Int).map(Int64.init) }
        #expect(info.cueFrames == starts)
        let totalFrames = try #require(object["totalFrames"] as? Int)
        // The tail: a release and 0.8 s of silence, under 15 s.
        #expect(info.frameCount > Int64(totalFrames) + 38400)
        #expect(info.frameCount < Int64(totalFrames) + 15 * 48000)
        #expect(info.tags.artist == "nagi")
        #expect(info.tags.title?.contains("4-7-8") == true)
        #expect(info.tags.comment?.contains("horizon") == true)
    }

    @Test("every format reads back through libsndfile with its frame count and tags", arguments: ["x.wav", "x.flac", "x.ogg", "x.opus", "x.mp3"])
    func formats(name: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent(name).path, "--title", "Square"], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let info = try AudioFileInfo(path: folder.appendingPathComponent(name).path)
        let format = try #require(AudioFileFormat(fileExtension: String(name.dropFirst(2))))
        #expect(info.format == format)
        // 16 s of breath plus the tail; lossy codecs may pad a little.
        #expect(info.frameCount >= 16 * 48000)
        #expect(info.frameCount < 31 * 48000)
        #expect(info.tags.title == "Square")
        #expect(info.tags.artist == "nagi")
    }

    @Test("24-bit and float WAV, and mono at 44.1 kHz")
    func encodings() throws {
        let folder = try NagiProcess.temporaryFolder()
        for (arguments, channels, rate) in [(["--bits", "24"], 2, 48000), (["--bits", "float"], 2, 48000), (["--channels", "1", "--rate", "44100"], 1, 44100)] {
            let result = NagiInProcess.run(["render", "2-2", "--cycles", "1", "-o", folder.appendingPathComponent("x.wav").path, "--force"] + arguments, home: folder)
            #expect(result.status == 0, "\(result.standardError)")
            let info = try AudioFileInfo(path: folder.appendingPathComponent("x.wav").path)
            #expect(info.channelCount == channels && info.sampleRate == rate)
        }
    }

    @Test("impossible combinations exit 64 and create nothing", arguments: [
        ["-o", "x.opus", "--rate", "44100"], ["-o", "x.flac", "--bits", "float"], ["-o", "x.ogg", "--bits", "24"],
        ["-o", "x.wav", "--quality", "5"], ["-o", "x.ogg", "--quality", "11"], ["--format", "aiff"], ["--channels", "3"],
        ["--seed", "-1"], ["--soundscape", "oceanic"], ["-o", "x.wav", "--labels"],
    ])
    func impossible(arguments: [String]) throws {
        let folder = try NagiProcess.temporaryFolder()
        // With -o the target is given absolute and the run is in process; without it the default target is in the
        // working directory, which only a process of its own has in `folder`.
        let result = try arguments.contains("-o")
            ? NagiInProcess.run(["render", "box", "--cycles", "1"] + arguments.map { $0.hasPrefix("x.") ? folder.appendingPathComponent($0).path : $0 }, home: folder)
            : NagiProcess.run(["render", "box", "--cycles", "1"] + arguments, in: folder)
        #expect(result.status == (arguments.contains("oceanic") ? 66 : 64), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(NagiProcess.names(in: folder).isEmpty, "\(NagiProcess.names(in: folder))")
    }

    @Test("an existing target is kept unless --force (exit 73); --force replaces it")
    func existingTarget() throws {
        let folder = try NagiProcess.temporaryFolder()
        let target = folder.appendingPathComponent("keep.wav")
        try Data("precious".utf8).write(to: target)
        let refused = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", target.path], home: folder)
        #expect(refused.status == 73)
        #expect(refused.standardError.contains("--force"))
        #expect(try Data(contentsOf: target) == Data("precious".utf8))
        #expect(NagiProcess.names(in: folder) == ["keep.wav"])
        let forced = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", target.path, "--force"], home: folder)
        #expect(forced.status == 0)
        #expect(try AudioFileInfo(path: target.path).frameCount > 0)
    }

    @Test("a target in a missing folder exits 73 and leaves nothing")
    func unwritableTarget() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("no/such/folder/x.wav").path], home: folder)
        #expect(result.status == 73, "\(result.standardError)")
        #expect(result.standardError.contains("no/such/folder"))
        #expect(NagiProcess.names(in: folder).isEmpty)
    }

    @Test("a read-only folder exits 73 with the system's reason, for render and for course export")
    func readOnlyFolder() throws {
        let folder = try NagiProcess.temporaryFolder()
        let mount = try TmpfsMount(in: folder, size: "64k", readOnly: true)
        let render = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", mount.url.appendingPathComponent("x.flac").path], home: folder)
        #expect(render.status == 73, "\(render.standardError)")
        #expect(render.standardError.contains("Read-only file system"), "\(render.standardError)")
        #expect(render.standardError.split(separator: "\n").count == 1)
        let export = NagiInProcess.run(["course", "export", "sleep-7", "-o", mount.url.appendingPathComponent("album").path], home: folder)
        #expect(export.status == 73, "\(export.standardError)")
        #expect(export.standardError.contains("Read-only file system"), "\(export.standardError)")
        let intoRoot = NagiInProcess.run(["course", "export", "sleep-7", "-o", mount.url.path], home: folder)
        #expect(intoRoot.status == 73, "\(intoRoot.standardError)")
        #expect(NagiProcess.names(in: mount.url).isEmpty)
    }

    @Test("a non-regular target such as /dev/null is written straight and stays what it was")
    func devNull() throws {
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", "/dev/null", "--format", "wav"])
        #expect(result.status == 0, "\(result.standardError)")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0)
        #expect((status.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("a full disk exits 74 with the system's reason and leaves no file", arguments: ["wav", "flac", "ogg", "opus", "mp3"])
    func fullDisk(format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let mount = try TmpfsMount(in: folder, size: "64k")
        let mountPoint = mount.url
        let result = NagiInProcess.run(["render", "4-7-8", "--cycles", "3", "-o", mountPoint.appendingPathComponent("x.\(format)").path], home: folder)
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError.contains("No space left on device"), "\(result.standardError)")
        #expect(NagiProcess.names(in: mountPoint).isEmpty, "\(NagiProcess.names(in: mountPoint))")
    }

    @Test("Ctrl-C and SIGTERM mid-render exit 130 / 143 and leave nothing", arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interrupted(signal: Int32, status: Int32) throws {
        let folder = try NagiProcess.temporaryFolder()
        let process = try ChildProcess(NagiProcess.executableURL.path, ["render", "coherent", "--minutes", "300", "-o", "long.wav"], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], workingDirectory: folder.path)
        // Wait for the temporary file to appear, then interrupt.
        #expect(Poll.until(seconds: 30) { !NagiProcess.names(in: folder).isEmpty })
        process.signal(signal)
        #expect(process.wait(seconds: 60))
        #expect(process.exitStatus == status)
        #expect(NagiProcess.names(in: folder).isEmpty, "\(NagiProcess.names(in: folder))")
    }

    @Test("a folder that vanishes mid-render ends with exit 74 naming the failed call, and nothing appears")
    func vanishedFolder() throws {
        let folder = try NagiProcess.temporaryFolder()
        let target = folder.appendingPathComponent("gone")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        // The render runs in process on a thread of its own while this one removes its folder.
        let finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<NagiProcess.Result?>(nil)
        DispatchQueue.global().async {
            let result = NagiInProcess.run(["render", "coherent", "--minutes", "10", "-o", target.appendingPathComponent("x.flac").path], home: folder)
            outcome.withLock { $0 = result }
            finished.signal()
        }
        #expect(Poll.until(seconds: 30) { !NagiProcess.names(in: target).isEmpty })
        try FileManager.default.removeItem(at: target)
        #expect(finished.wait(timeout: .now() + 600) == .success)
        let result = outcome.withLock { $0 }
        #expect(result?.status == 74)
        let errorText = result?.standardError ?? ""
        #expect(errorText.contains("No such file or directory"), "\(errorText)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("--labels writes an Audacity label track, six decimals, one line per phase")
    func labels() throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "4-7-8", "--cycles", "2", "-o", folder.appendingPathComponent("x.wav").path, "--labels", folder.appendingPathComponent("x.txt").path], home: folder)
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try String(contentsOf: folder.appendingPathComponent("x.txt"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[0] == "0.000000\t4.000000\tinhale")
        #expect(lines[1] == "4.000000\t11.000000\thold")
        #expect(lines[5] == "30.000000\t38.000000\texhale")
    }

    @Test("the same command gives the same bytes; another seed changes the noise")
    func deterministic() throws {
        let folder = try NagiProcess.temporaryFolder()
        for name in ["a.wav", "b.wav"] {
            #expect(NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", "rain", "-o", folder.appendingPathComponent(name).path], home: folder).status == 0)
        }
        #expect(NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", "rain", "--seed", "2", "-o", folder.appendingPathComponent("c.wav").path], home: folder).status == 0)
        let a = try Data(contentsOf: folder.appendingPathComponent("a.wav"))
        let b = try Data(contentsOf: folder.appendingPathComponent("b.wav"))
        let c = try Data(contentsOf: folder.appendingPathComponent("c.wav"))
        #expect(a == b)
        #expect(a != c)
    }

    @Test("--no-cues removes only the cues")
    func noCues() throws {
        let folder = try NagiProcess.temporaryFolder()
        #expect(NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "--bits", "float", "-o", folder.appendingPathComponent("cues.wav").path], home: folder).status == 0)
        #expect(NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "--bits", "float", "--no-cues", "-o", folder.appendingPathComponent("plain.wav").path], home: folder).status == 0)
        let cues = try AudioFileReader.readFloat(path: folder.appendingPathComponent("cues.wav").path)
        let plain = try AudioFileReader.readFloat(path: folder.appendingPathComponent("plain.wav").path)
        #expect(cues.count == plain.count)
        // The difference is the chimes: the first one sounds within 5 ms of the first phase start (frame 0).
        let firstDifference = try #require(cues.indices.first { cues[$0] != plain[$0] })
        #expect(firstDifference / 2 < 240)
        // A later chime: the difference around the holdIn start (4 s) grows right after the boundary frame.
        let boundary = 4 * 48000
        func energy(_ frames: Range<Int>) -> Float {
            frames.reduce(0) { sum, frame in
                let difference = cues[2 * frame] - plain[2 * frame]
                return sum + difference * difference
            }
        }
        #expect(energy(boundary..<(boundary + 2400)) > 10 * energy((boundary - 2400)..<boundary))
    }
}

extension AudioFileInfo {
    init(path: String) throws {
        self = try AudioFileReader.info(path: path)
    }
}
