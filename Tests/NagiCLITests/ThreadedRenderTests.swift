import NagiTestSupport
import Foundation
import Testing

/// Issue 20's `--threads`: the file is the same byte for byte whatever the number of renderers, for the
/// deterministic formats, at low and high rates, with every part of the sound that has state (bed, guide,
/// beat, loudness pass, limiter); and the option's bounds are checked.
@Suite("render --threads: the same bytes on any number of threads", .serialized)
struct ThreadedRenderTests {
    @Test("WAV, FLAC and raw are byte-identical for --threads 1 to 4", arguments: [
        (["4-7-8", "--cycles", "2", "--cues", "both", "--count", "voice", "--beat", "6", "--loudness", "-16", "--bed", "bed.flac"], "wav"),
        (["box", "--minutes", "1", "--rate", "8000", "--soundscape", "rain", "--bed", "bed.flac", "--channels", "1"], "flac"),
        (["coherent", "--minutes", "1", "--rate", "192000", "--soundscape", "night", "--beat", "10:4", "--cues", "both"], "raw"),
        // A bed longer than the session is streamed (one loop shared by the renderers), under a countdown that
        // puts the bed's frame 0 after the output's.
        (["box", "--cycles", "3", "--bed", "long.flac", "--countdown", "3", "--cues", "voice", "--end-bell"], "flac"),
    ])
    func sameBytesOnAnyNumberOfThreads(arguments: [String], format: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        // A short looping bed: its seams fall inside slices and on their edges; and one that never loops.
        let sox = try Pipeline.run(
            "sox -n -r 44100 -c 2 bed.flac synth 7.3 pinknoise gain -n -20 && sox -n -r 44100 -c 2 long.flac synth 90 brownnoise gain -n -20",
            in: folder)
        try #require(sox.status == 0, "\(sox.standardError)")
        var outputs: [Data] = []
        for threads in 1...4 {
            let name = "out\(threads).\(format)"
            let result = NagiInProcess.run(["render"] + arguments.map { $0.hasSuffix(".flac") ? folder.appendingPathComponent($0).path : $0 } + ["--threads", "\(threads)", "-o", folder.appendingPathComponent(name).path, "--quiet"], home: folder)
            try #require(result.status == 0, "--threads \(threads): \(result.standardError)")
            outputs.append(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        // Several slices long, so the threads really share it.
        #expect(outputs[0].count > 3 * (1 << 17) * 2)
        for threads in 2...4 {
            let difference = Signal.firstDifference(outputs[threads - 1], outputs[0])
            #expect(difference == nil, "--threads \(threads) differs from --threads 1 from byte \(difference ?? -1) on")
        }
    }

    @Test("a looping bed too long for memory, its first pass read back from a nameless file, gives the same bytes on 1 to 3 threads as streamed pass after pass")
    func keptBedPassChangesNothing() throws {
        let folder = try NagiProcess.temporaryFolder()
        // 50 s at 96 kHz is 38 MB of stereo float: more than a bed held in memory, so it streams and loops.
        // As `sox -n -r 44100 -c 2 loop.flac synth 50 pinknoise gain -n -20` would make it (a noise, peak -20 dBFS).
        try CuePackRenderTests.writePinkNoise("loop.flac", in: folder, seconds: 50, sampleRate: 44_100, channelCount: 2, peak: 0.1)
        let scratch = folder.appendingPathComponent("scratch").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        // The last run's TMPDIR does not exist: no file can be made there, and the bed streams every pass.
        let runs = [(1, scratch), (2, scratch), (3, scratch), (2, folder.appendingPathComponent("missing").path)]
        var outputs: [Data] = []
        for (index, (threads, temporaryFolder)) in runs.enumerated() {
            let name = "out\(index).wav"
            let result = NagiInProcess.run(
                ["render", "box", "--minutes", "1.5", "--rate", "96000", "--bed", folder.appendingPathComponent("loop.flac").path, "--threads", "\(threads)", "-o", folder.appendingPathComponent(name).path, "--quiet"],
                home: folder, environment: ["TMPDIR": temporaryFolder])
            try #require(result.status == 0, "--threads \(threads), TMPDIR \(temporaryFolder): \(result.standardError)")
            outputs.append(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        for index in 1..<runs.count {
            let difference = Signal.firstDifference(outputs[index], outputs[0])
            #expect(difference == nil, "run \(index) (\(runs[index].0) threads, TMPDIR \(runs[index].1)) differs from the first from byte \(difference ?? -1) on")
        }
        #expect((try FileManager.default.contentsOfDirectory(atPath: scratch)).isEmpty, "nothing is left in TMPDIR")
    }

    @Test("--threads outside 1…64 is a usage error (64)", arguments: ["0", "65", "two"])
    func outOfRangeIsAUsageError(value: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--threads", value, "-o", folder.appendingPathComponent("out.wav").path], home: folder)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("--threads"), "\(result.standardError)")
        #expect(!NagiProcess.names(in: folder).contains("out.wav"))
    }
}
