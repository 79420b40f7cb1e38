import BedSource
import AudioFile
import Foundation
import NagiTestSupport
import Testing

@testable import NagiCLI
@testable import NagiOptions
@testable import NagiKit

/// `--bed FILE`: a user's recording under the session, tested on the rendered sound. The bed alone is the
/// difference of a render with it and the same render without it (every other sample is the same).
@Suite("A user's bed under the session", .serialized)
struct BedTests {
    /// Makes test beds with sox in `folder`.
    static func sox(_ arguments: String, in folder: URL) throws {
        let result = try Pipeline.run("sox \(arguments) 2>&1 >/dev/null", in: folder)
        try #require(result.status == 0, "sox \(arguments): \(result.standardError)")
    }

    /// Integrated loudness of `name` in `folder` by ffmpeg's EBU R128 meter (independent of nagi's libebur128).
    static func ffmpegLoudness(_ name: String, in folder: URL) throws -> Double {
        try FFmpegLoudness.summary(of: folder.appendingPathComponent(name).path).integratedLUFS
    }

    /// Renders `arguments` (file arguments absolute) in float to `name` in `folder`, in process; returns the samples.
    static func render(_ arguments: [String], to name: String, in folder: URL) throws -> [Float] {
        let result = NagiInProcess.run(["render"] + arguments + ["--bits", "float", "--quiet", "-o", folder.appendingPathComponent(name).path], home: folder)
        try #require(result.status == 0, "\(result.standardError)")
        return try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
    }

    /// `with − without`, written as a float WAV (for ffmpeg) when `name` is given.
    static func difference(_ with: [Float], _ without: [Float], channelCount: Int, writing name: String? = nil, in folder: URL) throws -> [Float] {
        try #require(with.count == without.count)
        let difference = zip(with, without).map { $0 - $1 }
        if let name {
            let spec = AudioFileSpec(sampleRate: 48_000, channelCount: channelCount, format: .wav, encoding: .float)
            let writer = try AudioFileWriter(path: folder.appendingPathComponent(name).path, spec: spec, overwrite: true)
            try difference.withUnsafeBufferPointer { try writer.write($0) }
            try writer.commit()
        }
        return difference
    }

    @Test("the bed sounds through the whole session, looped past its end, and not in the closing silence")
    func presentThroughout() throws {
        let folder = try NagiProcess.temporaryFolder()
        // 3.3 s of pink noise at 44.1 kHz: it loops five times under one 19 s cycle of 4-7-8.
        try CuePackRenderTests.writePinkNoise("waves.wav", in: folder, seconds: 3.3, sampleRate: 44_100, channelCount: 2, peak: 0.5, encoding: .pcm24)
        let common = ["4-7-8", "--cycles", "1", "--no-cues"]
        let with = try Self.render(common + ["--bed", folder.appendingPathComponent("waves.wav").path], to: "with.wav", in: folder)
        let without = try Self.render(common, to: "without.wav", in: folder)
        // The bed is read ahead on a second thread: timing must change nothing.
        #expect(try Self.render(common + ["--bed", folder.appendingPathComponent("waves.wav").path], to: "again.wav", in: folder) == with)
        let bed = try Self.difference(with, without, channelCount: 2, in: folder)
        let rate = 48_000
        func rmsDecibels(_ frames: Range<Int>) -> Double {
            Signal.rmsDecibels(bed, 2 * frames.lowerBound..<2 * frames.upperBound)
        }
        // Every half second of the session after its fade-in carries the bed, well above nothing.
        let sessionFrames = 19 * rate
        var quietest = Double.infinity
        for start in stride(from: rate, to: sessionFrames - rate / 2, by: rate / 2) {
            quietest = min(quietest, rmsDecibels(start..<(start + rate / 2)))
        }
        #expect(quietest > -50, "quietest half second of the bed: \(quietest) dBFS")
        // The closing silence (after the release) is silent with or without it.
        let total = bed.count / 2
        #expect(rmsDecibels((total - rate / 2)..<total) < -140)
        // It fades in: the first 10 ms carry far less than a second later.
        #expect(rmsDecibels(0..<(rate / 100)) < rmsDecibels(rate..<(rate + rate / 100)) - 20)
    }

    @Test("a looping bed's seams have no step: the largest sample step of the bed stays near its 99.99th percentile")
    func seamsWithoutSteps() throws {
        let folder = try NagiProcess.temporaryFolder()
        // A sine cut mid-cycle (2.71 s of 330 Hz: 894.3 cycles): looped end to start without a crossfade, each
        // seam would jump by up to twice the amplitude, dozens of times the largest step of the sine itself.
        // As `sox -n -r 44100 -c 1 -b 24 tone.wav synth 2.71 sine 330 vol 0.5` made it.
        try CuePackRenderTests.writeTone("tone.wav", in: folder, frequencyHz: 330, seconds: 2.71, sampleRate: 44_100, amplitude: 0.5, encoding: .pcm24)
        let common = ["4-7-8", "--cycles", "1", "--no-cues", "--channels", "1"]
        let with = try Self.render(common + ["--bed", folder.appendingPathComponent("tone.wav").path, "--bed-level", "-6"], to: "with.wav", in: folder)
        let without = try Self.render(common, to: "without.wav", in: folder)
        let bed = try Self.difference(with, without, channelCount: 1, in: folder)
        // The session after the fade-in, through seven seams.
        let frames = 48_000..<(19 * 48_000)
        var steps = frames.map { abs(bed[$0] - bed[$0 - 1]) }
        let largest = try #require(steps.max())
        steps.sort()
        let percentile = steps[Int(Double(steps.count - 1) * 0.9999)]
        #expect(largest > 1e-3, "the bed is there: largest step \(largest)")
        #expect(largest <= 1.5 * percentile, "largest step \(largest), 99.99th percentile \(percentile)")
        print("bed seams: largest step \(largest), 99.99th percentile \(percentile), ratio \(largest / percentile)")
    }

    @Test("the same bed at -45 dBFS and at -3 dBFS comes out within 1 LU; --bed-level moves it")
    func loudnessMatched() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.sox("-n -r 44100 -c 2 -b 24 source.wav synth 20 pinknoise", in: folder)
        try Self.sox("source.wav quiet.wav gain -n -45", in: folder)
        try Self.sox("source.wav loud.wav gain -n -3", in: folder)
        let common = ["4-7-8", "--cycles", "2", "--no-cues"]
        let without = try Self.render(common, to: "without.wav", in: folder)
        var loudness: [String: Double] = [:]
        let quietBed = folder.appendingPathComponent("quiet.wav").path, loudBed = folder.appendingPathComponent("loud.wav").path
        for (name, extra) in [("quiet", ["--bed", quietBed]), ("loud", ["--bed", loudBed]), ("lower", ["--bed", loudBed, "--bed-level", "-18"])] {
            let with = try Self.render(common + extra, to: "\(name)-mix.wav", in: folder)
            _ = try Self.difference(with, without, channelCount: 2, writing: "\(name)-bed.wav", in: folder)
            loudness[name] = try Self.ffmpegLoudness("\(name)-bed.wav", in: folder)
        }
        let quiet = try #require(loudness["quiet"]), loud = try #require(loudness["loud"]), lower = try #require(loudness["lower"])
        print("bed loudness: -45 dBFS source \(quiet) LUFS, -3 dBFS source \(loud) LUFS, at --bed-level -18 \(lower) LUFS")
        #expect(abs(quiet - loud) <= 1, "quiet \(quiet), loud \(loud)")
        // 42 dB apart going in; the default level puts the bed 12 LU under -20 LUFS, less the session's decay.
        #expect(loud < -31 && loud > -36, "loud \(loud)")
        #expect(abs((loud - lower) - 6) <= 0.5, "default \(loud), at -18 \(lower)")
    }

    @Test("a bed is measured over all the session plays of it, as an independent meter reads that part, not by its opening")
    func measuredOverWhatIsPlayed() throws {
        let folder = try NagiProcess.temporaryFolder()
        // Loud for its first minute, 10 dB quieter for the next four, and louder again after five minutes.
        try Self.sox("-n -r 44100 -c 2 -b 16 steady.wav synth 420 pinknoise vol 0.3", in: folder)
        try Self.sox("steady.wav opening.wav trim 0 60", in: folder)
        try Self.sox("steady.wav middle.wav trim 60 240 gain -10", in: folder)
        try Self.sox("steady.wav end.wav trim 300", in: folder)
        try Self.sox("opening.wav middle.wav end.wav bed.flac", in: folder)
        try Self.sox("bed.flac heard.wav trim 0 300", in: folder)
        try Self.sox("bed.flac first-two-minutes.wav trim 0 120", in: folder)
        let bedPath = folder.appendingPathComponent("bed.flac").path
        let measured = try BedMeasurement.measure(
            reading: [BedDecoder(path: bedPath, channelCount: 2), BedDecoder(path: bedPath, channelCount: 2)], heardSeconds: 300).loudness
        let heard = try Self.ffmpegLoudness("heard.wav", in: folder)
        let opening = try Self.ffmpegLoudness("first-two-minutes.wav", in: folder)
        print("bed measured over the 5 minutes heard: \(measured) LUFS; ffmpeg: \(heard) LUFS over them, \(opening) LUFS over the first two")
        #expect(abs(measured - heard) <= 0.5, "measured \(measured), heard part \(heard)")
        // What measuring the opening alone would have said: far off.
        #expect(opening - heard > 2, "opening \(opening), heard part \(heard)")
    }

    @Test("with a bed at its default level the whole output stays within 1 LU of the session without it, about -20 LUFS")
    func wholeLoudnessStays() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.sox("-n -r 44100 -c 2 -b 24 rain.wav synth 30 brownnoise vol 0.8", in: folder)
        let common = ["4-7-8", "--minutes", "2"]
        _ = try Self.render(common, to: "without.wav", in: folder)
        _ = try Self.render(common + ["--bed", folder.appendingPathComponent("rain.wav").path], to: "with.wav", in: folder)
        let without = try Self.ffmpegLoudness("without.wav", in: folder)
        let with = try Self.ffmpegLoudness("with.wav", in: folder)
        print("whole loudness: \(without) LUFS without the bed, \(with) LUFS with it")
        #expect(with - without >= 0 && with - without <= 1, "without \(without), with \(with)")
        #expect(abs(with + 20) <= 1, "with \(with)")
    }

    @Test("hostile beds are refused before anything is written", arguments: [
        ("missing.wav", Int32(66), "missing.wav"),
        ("text.wav", Int32(65), "not audio"),
        ("empty.wav", Int32(65), "no audio frames"),
        ("nine.wav", Int32(65), "9 channels"),
        ("folder", Int32(66), "not a regular file"),
    ])
    func hostileBeds(name: String, status: Int32, words: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        try "not a recording\n".write(to: folder.appendingPathComponent("text.wav"), atomically: true, encoding: .utf8)
        try Self.sox("-n -r 48000 -c 2 -b 16 empty.wav trim 0 0", in: folder)
        try Self.sox("-n -r 48000 -c 9 -b 16 nine.wav synth 1 sine 220", in: folder)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: false)
        // To a file in process, the bed's path absolute; to standard output (-o -) in a process of its own.
        for command in [["render", "4-7-8", "--cycles", "1", "-o", folder.appendingPathComponent("out.wav").path], ["render", "4-7-8", "--cycles", "1", "-o", "-"]] {
            let result = try command.last == "-"
                ? NagiProcess.run(command + ["--bed", name], in: folder)
                : NagiInProcess.run(command + ["--bed", folder.appendingPathComponent(name).path], home: folder)
            #expect(result.status == status, "\(command): \(result.standardError)")
            #expect(result.standardError.contains(words), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.wav").path))
        }
        let levelAlone = NagiInProcess.run(["render", "4-7-8", "--cycles", "1", "-o", folder.appendingPathComponent("out.wav").path, "--bed-level", "-6"], home: folder)
        #expect(levelAlone.status == 64, "\(levelAlone.standardError)")
    }

    @Test("a float bed holding NaN and infinite samples is heard as silence there: the mix stays in range and the bed is still heard")
    func nonFiniteSamplesAreSilence() throws {
        let folder = try NagiProcess.temporaryFolder()
        var samples = Signal.sine(frequencyHz: 220, amplitude: 0.3, frameCount: 10 * 48_000, sampleRate: 48_000)
        for index in stride(from: 17, to: samples.count, by: 5_000) { samples[index] = .nan }
        for index in stride(from: 3, to: samples.count, by: 7_000) { samples[index] = .infinity }
        samples[123_456] = -.infinity
        let spec = AudioFileSpec(sampleRate: 48_000, channelCount: 1, format: .wav, encoding: .float)
        let writer = try AudioFileWriter(path: folder.appendingPathComponent("hostile.wav").path, spec: spec, overwrite: false)
        try samples.withUnsafeBufferPointer { try writer.write($0) }
        try writer.commit()
        let common = ["4-7-8", "--cycles", "1", "--no-cues"]
        let with = try Self.render(common + ["--bed", folder.appendingPathComponent("hostile.wav").path], to: "with.wav", in: folder)
        let without = try Self.render(common, to: "without.wav", in: folder)
        #expect(with.allSatisfy { $0.isFinite && abs($0) <= 1 }, "largest \(with.map { abs($0) }.max() ?? 0)")
        let bed = try Self.difference(with, without, channelCount: 2, in: folder)
        let bedPeak = bed.map { abs($0) }.max() ?? 0
        // Before, the NaN measured as silence (+38 dB of gain) and the infinities reached the mix: peaks of 1e20.
        #expect(bedPeak > 0.001 && bedPeak < 0.5, "bed peak \(bedPeak)")
    }

    @Test("a soundscape file names its bed relative to itself; the render equals --bed with the same level")
    func soundscapeBed() throws {
        let folder = try NagiProcess.temporaryFolder()
        let beds = folder.appendingPathComponent("sounds/beds")
        try FileManager.default.createDirectory(at: beds, withIntermediateDirectories: true)
        try CuePackRenderTests.writePinkNoise("surf.wav", in: beds, seconds: 4, sampleRate: 44_100, peak: 0.3)
        let preset = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Presets/soundscapes/horizon.json")
        var text = try String(contentsOf: preset, encoding: .utf8)
        let brace = try #require(text.firstIndex(of: "{"))
        text.insert(contentsOf: "\n  \"bed\": \"beds/surf.wav\", \"bedLevel\": -8,", at: text.index(after: brace))
        try text.write(to: folder.appendingPathComponent("sounds/mine.json"), atomically: true, encoding: .utf8)
        let named = NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", folder.appendingPathComponent("sounds/mine.json").path, "-o", folder.appendingPathComponent("named.wav").path, "--quiet"], home: folder)
        #expect(named.status == 0, "\(named.standardError)")
        let given = NagiInProcess.run(["render", "box", "--cycles", "1", "--bed", folder.appendingPathComponent("sounds/beds/surf.wav").path, "--bed-level", "-8", "-o", folder.appendingPathComponent("given.wav").path, "--quiet"], home: folder)
        #expect(given.status == 0, "\(given.standardError)")
        let none = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("none.wav").path, "--quiet"], home: folder)
        #expect(none.status == 0, "\(none.standardError)")
        let namedSamples = try AudioFileReader.readFloat(path: folder.appendingPathComponent("named.wav").path)
        #expect(namedSamples == (try AudioFileReader.readFloat(path: folder.appendingPathComponent("given.wav").path)))
        #expect(namedSamples != (try AudioFileReader.readFloat(path: folder.appendingPathComponent("none.wav").path)))
        // A bad level in the file is refused, naming the key.
        try text.replacingOccurrences(of: "\"bedLevel\": -8", with: "\"bedLevel\": 9").write(to: folder.appendingPathComponent("sounds/bad.json"), atomically: true, encoding: .utf8)
        let bad = NagiInProcess.run(["render", "box", "--cycles", "1", "--soundscape", folder.appendingPathComponent("sounds/bad.json").path, "-o", folder.appendingPathComponent("bad.wav").path], home: folder)
        #expect(bad.status == 65 && bad.standardError.contains("bedLevel"), "\(bad.standardError)")
    }

    @Test("a course lesson's bed is exported under that lesson only")
    func courseLessonBed() throws {
        let folder = try NagiProcess.temporaryFolder()
        try CuePackRenderTests.writePinkNoise("lesson-bed.flac", in: folder, seconds: 5, sampleRate: 44_100, channelCount: 2, peak: 0.3)
        let course = """
        {"name": "bedded", "title": "Bedded", "lessons": [
          {"title": "Plain", "pattern": "box", "cycles": 1},
          {"title": "Surf", "pattern": "box", "cycles": 1, "bed": "lesson-bed.flac", "bedLevel": -10}
        ]}
        """
        try course.write(to: folder.appendingPathComponent("bedded.json"), atomically: true, encoding: .utf8)
        let export = NagiInProcess.run(["course", "export", folder.appendingPathComponent("bedded.json").path, "-o", folder.appendingPathComponent("out").path, "--format", "wav", "--bits", "float", "--quiet"], home: folder)
        #expect(export.status == 0, "\(export.standardError)")
        _ = try Self.render(["box", "--cycles", "1"], to: "plain.wav", in: folder)
        _ = try Self.render(["box", "--cycles", "1", "--bed", folder.appendingPathComponent("lesson-bed.flac").path, "--bed-level", "-10"], to: "surf.wav", in: folder)
        let plain = try AudioFileReader.readFloat(path: folder.appendingPathComponent("plain.wav").path)
        let surf = try AudioFileReader.readFloat(path: folder.appendingPathComponent("surf.wav").path)
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("out/01 - Plain.wav").path) == plain)
        #expect(try AudioFileReader.readFloat(path: folder.appendingPathComponent("out/02 - Surf.wav").path) == surf)
        #expect(plain != surf)
    }

    @Test("play with a bed captures what render writes, frame for frame")
    func playEqualsRender() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.sox("-n -r 44100 -c 1 -b 16 bed.wav synth 2.5 pinknoise vol 0.4", in: folder)
        let capture = folder.appendingPathComponent("capture.raw").path
        let played = try NagiProcess.run(["play", "box", "--cycles", "1", "--bits", "float", "--bed", "bed.wav", "--device", "file:'\(capture)',raw", "--quiet"], in: folder)
        try #require(played.status == 0, "\(played.standardError)")
        let expected = try Self.render(["box", "--cycles", "1", "--bed", folder.appendingPathComponent("bed.wav").path], to: "render.wav", in: folder)
        let data = try Data(contentsOf: URL(fileURLWithPath: capture))
        let captured = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(captured.count == expected.count)
        #expect(captured == expected)
    }

    @Test("10 minutes over a one-hour FLAC bed peak under 64 MB")
    func memoryOverALongBed() throws {
        let folder = try NagiProcess.temporaryFolder()
        // 16 kHz mono at compression level 0 keeps making the hour quick; held whole at 48 kHz it would be 690 MB.
        try Self.sox("-n -r 16000 -c 1 -b 16 -C 0 hour.flac synth 3600 pinknoise vol 0.3", in: folder)
        let process = try ChildProcess(
            NagiProcess.executableURL.path,
            ["render", "4-7-8", "--minutes", "10", "--bed", folder.appendingPathComponent("hour.flac").path, "--quiet", "-o", folder.appendingPathComponent("long.flac").path],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], measuresPeakMemory: true)
        #expect(process.wait(seconds: 1_800))
        #expect(process.exitStatus == 0)
        print("bed memory: 10 minutes over a one-hour bed peaked at \(process.peakResidentKilobytes) KiB")
        #expect(process.peakResidentKilobytes > 0)
        #expect(process.peakResidentKilobytes < 64 * 1_024, "peak \(process.peakResidentKilobytes) KiB")
    }
}

/// `nagi plot` draws the bed's level from the renderer's own curves.
@Suite("nagi plot draws the bed level")
struct BedPlotTests {
    @Test("with a bed the overview carries its level: the set level at the start, the session's decay at the end")
    func bedLevelCurve() throws {
        let folder = try NagiProcess.temporaryFolder()
        let plotted = NagiInProcess.run(["plot", "4-7-8", "--minutes", "2", "--bed", folder.appendingPathComponent("any.flac").path, "--bed-level", "-10", "-o", folder.appendingPathComponent("bed.svg").path], home: folder)
        #expect(plotted.status == 0, "\(plotted.standardError)")
        let svg = try String(contentsOf: folder.appendingPathComponent("bed.svg"), encoding: .utf8)
        let curve = try #require(svg.split(separator: "<").first { $0.contains("data-curve=\"overview-bed\"") })
        let valuesText = try #require(curve.split(separator: "\"").drop { !$0.hasSuffix("data-values=") }.dropFirst().first)
        let values = valuesText.split(separator: " ").compactMap { Double($0) }
        #expect(values.count > 100)
        // Silent at frame 0 (the fade-in); at the session's end the set level less the 6 dB session decay.
        #expect(try #require(values.first) < -60)
        #expect(abs(try #require(values.last) - -16) < 0.5, "\(values.last ?? 0)")
        // --bed-level moves the whole curve by its difference.
        let lower = NagiInProcess.run(["plot", "4-7-8", "--minutes", "2", "--bed", folder.appendingPathComponent("any.flac").path, "--bed-level", "-16", "-o", "-"], home: folder)
        let lowerCurve = try #require(lower.standardOutput.split(separator: "<").first { $0.contains("data-curve=\"overview-bed\"") })
        let lowerText = try #require(lowerCurve.split(separator: "\"").drop { !$0.hasSuffix("data-values=") }.dropFirst().first)
        let lowerValues = lowerText.split(separator: " ").compactMap { Double($0) }
        #expect(lowerValues.count == values.count)
        for (value, moved) in zip(values, lowerValues) where value > -100 {
            #expect(abs(value - moved - 6) < 1e-6)
        }
        let plain = NagiInProcess.run(["plot", "4-7-8", "--minutes", "2", "-o", folder.appendingPathComponent("plain.svg").path], home: folder)
        #expect(plain.status == 0)
        #expect(!(try String(contentsOf: folder.appendingPathComponent("plain.svg"), encoding: .utf8)).contains("overview-bed"))
        #expect(NagiInProcess.run(["plot", "4-7-8", "--bed-level", "-10", "-o", folder.appendingPathComponent("x.svg").path], home: folder).status == 64)
    }
}
