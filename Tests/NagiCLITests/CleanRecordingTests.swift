import AudioFile
import Foundation
import NagiTestSupport
import Testing

/// Issue 21's clean recordings, from the rendered files: a bed's DC offset and infrasound never reach the
/// output, its loudness match is capped, a cue clip with an offset does not step at its onset, and beds that
/// are too short, silent once filtered or at a rate nagi cannot handle are refused with 65 and leave nothing.
@Suite("user recordings: DC and infrasound filtered, odd ones refused", .serialized)
struct CleanRecordingTests {
    static func sox(_ arguments: String, in folder: URL) throws {
        let result = try Pipeline.run("sox \(arguments)", in: folder)
        try #require(result.status == 0, "sox \(arguments): \(result.standardError)")
    }

    /// The mean and the RMS under 15 Hz of channel 1 of `name`, by sox.
    static func dcAndInfrasound(_ name: String, in folder: URL) throws -> (mean: Double, infrasoundDecibels: Double) {
        let samples = try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
        let left = stride(from: 0, to: samples.count, by: 2).map { Double(samples[$0]) }
        let mean = left.reduce(0, +) / Double(left.count)
        let result = try Pipeline.run("sox \(name) -n remix 1 sinc -15 stats 2>&1 | grep 'RMS lev' | awk '{print $4}' > infrasound.txt", in: folder)
        try #require(result.status == 0, "\(result.standardError)")
        let text = try String(contentsOf: folder.appendingPathComponent("infrasound.txt"), encoding: .utf8)
        let infrasound = try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), "sox said '\(text)'")
        return (mean, infrasound)
    }

    @Test("a bed with a DC offset, or of infrasound alone, adds neither to the output")
    func offsetAndInfrasoundStayOut() throws {
        let folder = try NagiProcess.temporaryFolder()
        // Quiet pink noise on a 0.02 offset (its match would raise the offset 30 dB), and a 5 Hz sine at -6 dBFS.
        try Self.sox("-n -r 48000 -c 2 offset.wav synth 10 pinknoise gain -n -50 dcshift 0.02", in: folder)
        try Self.sox("-n -r 48000 -c 1 five.wav synth 10 sine 5 gain -6", in: folder)
        let plain = NagiInProcess.run(["render", "box", "--cycles", "1", "-o", folder.appendingPathComponent("plain.wav").path, "--quiet"], home: folder)
        try #require(plain.status == 0, "\(plain.standardError)")
        let reference = try Self.dcAndInfrasound("plain.wav", in: folder)
        for bed in ["offset.wav", "five.wav"] {
            let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--bed", folder.appendingPathComponent(bed).path, "-o", folder.appendingPathComponent("out.wav").path, "--quiet", "--force"], home: folder)
            try #require(result.status == 0, "\(result.standardError)")
            let measured = try Self.dcAndInfrasound("out.wav", in: folder)
            #expect(abs(measured.mean) < 0.002, "\(bed): DC \(measured.mean)")
            #expect(measured.infrasoundDecibels < reference.infrasoundDecibels + 3, "\(bed): \(measured.infrasoundDecibels) dB under 15 Hz, \(reference.infrasoundDecibels) without a bed")
        }
    }

    /// The RMS under 15 Hz of channel 1 of interleaved `samples` at 48 kHz, dBFS, from its spectrum: decimated to
    /// 100 Hz through three 10 ms moving averages (0.3 dB down at 15 Hz, 60 dB and more around 100 Hz and its
    /// multiples), then every DFT bin of the whole signal under 15 Hz summed (Parseval).
    static func spectrumUnder15Hz(_ samples: [Float], channelCount: Int) -> Double {
        var signal = stride(from: 0, to: samples.count, by: channelCount).map { Double(samples[$0]) }
        let factor = 480
        for _ in 0..<3 {
            var running = 0.0
            var averaged = [Double](repeating: 0, count: signal.count)
            for index in signal.indices {
                running += signal[index] - (index >= factor ? signal[index - factor] : 0)
                averaged[index] = running / Double(factor)
            }
            signal = averaged
        }
        let decimated = stride(from: 0, to: signal.count, by: factor).map { signal[$0] }
        let count = Double(decimated.count)
        var meanSquare = 0.0
        var bin = 0
        while Double(bin) * 100 / count < 15 {
            var (real, imaginary) = (0.0, 0.0)
            for (index, value) in decimated.enumerated() {
                let angle = 2 * Double.pi * Double(bin) * Double(index) / count
                real += value * cos(angle)
                imaginary -= value * sin(angle)
            }
            meanSquare += (bin == 0 ? 1 : 2) * (real * real + imaginary * imaginary) / (count * count)
            bin += 1
        }
        return 10 * log10(meanSquare)
    }

    @Test("a 5 Hz sine bed at -6 dBFS puts at most -45 dBFS under 15 Hz into the mix (the rendered spectrum), and a 60 Hz one is still matched")
    func infrasoundIsNotRaisedBack() throws {
        let folder = try NagiProcess.temporaryFolder()
        // K-weighting all but ignores 5 Hz, so the filtered sine measured quiet and the match raised what the
        // high-pass left: -38 dBFS under 15 Hz in the mix.
        // As `sox -n -r 48000 -c 1 five.wav synth 10 sine 5 gain -6` (and the same at 60 Hz) made them.
        let minusSix = pow(10, -6.0 / 20)
        try CuePackRenderTests.writeTone("five.wav", in: folder, frequencyHz: 5, seconds: 10, sampleRate: 48_000, amplitude: minusSix, encoding: .float)
        try CuePackRenderTests.writeTone("sixty.wav", in: folder, frequencyHz: 60, seconds: 10, sampleRate: 48_000, amplitude: minusSix, encoding: .float)
        let common = ["render", "box", "--cycles", "1", "--bits", "float", "--quiet", "--no-cues"]
        var renders: [String: [Float]] = [:]
        for (name, bed) in [("plain.wav", nil), ("five-bed.wav", "five.wav"), ("sixty-bed.wav", "sixty.wav")] as [(String, String?)] {
            let result = NagiInProcess.run(common + (bed.map { ["--bed", folder.appendingPathComponent($0).path] } ?? []) + ["-o", folder.appendingPathComponent(name).path], home: folder)
            try #require(result.status == 0, "\(name): \(result.standardError)")
            renders[name] = try AudioFileReader.readFloat(path: folder.appendingPathComponent(name).path)
        }
        let plain = try #require(renders["plain.wav"])
        let five = try #require(renders["five-bed.wav"])
        let sixty = try #require(renders["sixty-bed.wav"])
        try #require(five.count == plain.count && sixty.count == plain.count)
        // The bed's part of the mix: the render with it less the same render without.
        let fiveBed = zip(five, plain).map { $0 - $1 }
        let infrasound = Self.spectrumUnder15Hz(fiveBed, channelCount: 2)
        #expect(infrasound <= -45, "the 5 Hz bed puts \(infrasound) dBFS under 15 Hz into the mix")
        // A bed the high-pass leaves alone is matched as before: about -32 LUFS in the mix, not held down.
        let sixtyBed = zip(sixty, plain).map { $0 - $1 }
        let level = Signal.rmsDecibels(sixtyBed, 0..<sixtyBed.count)
        #expect(level > -40, "the 60 Hz bed sits at \(level) dBFS RMS")
    }

    @Test("a cue clip on a DC offset starts without a step")
    func aClipWithAnOffsetDoesNotStep() throws {
        let folder = try NagiProcess.temporaryFolder()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        // As `sox -n -r 48000 -c 1 pack/NAME.wav synth 0.6 sine HERTZ gain -12 dcshift 0.4` made them.
        for (name, hertz) in [("inhale", 500.0), ("hold", 700.0), ("exhale", 900.0)] {
            try CuePackRenderTests.writeTone("\(name).wav", in: pack, frequencyHz: hertz, seconds: 0.6, sampleRate: 48_000, amplitude: pow(10, -12.0 / 20), offset: 0.4, encoding: .float)
        }
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--cue-pack", pack.path, "--bits", "float", "-o", folder.appendingPathComponent("out.wav").path, "--quiet"], home: folder)
        try #require(result.status == 0, "\(result.standardError)")
        let samples = try AudioFileReader.readFloat(path: folder.appendingPathComponent("out.wav").path)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let largestStep = zip(left, left.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(largestStep < 0.1, "a step of \(largestStep) between two samples")
    }

    @Test("beds too short, silent once filtered, or at an unsupported rate: 65, one line, nothing written", arguments: [
        ("-n -r 48000 -c 1 bed.wav synth 0.2 pinknoise", "shorter than 0.5 s"),
        ("-n -r 48000 -c 2 bed.wav trim 0 2", "is silent"),
        ("-n -r 48000 -c 1 bed.wav synth 3 sine 2 gain -30", "is silent"),
        ("-n -r 7999 -c 1 bed.wav synth 3 pinknoise", "from 8000 to 384000 Hz"),
    ])
    func oddBedsAreRefused(sox arguments: String, saying words: String) throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.sox(arguments, in: folder)
        let result = NagiInProcess.run(["render", "box", "--cycles", "1", "--bed", folder.appendingPathComponent("bed.wav").path, "-o", folder.appendingPathComponent("out.wav").path], home: folder)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains(words), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(!NagiProcess.names(in: folder).contains("out.wav"))
    }

    @Test("a FLAC cut in half is damaged content (65) when the session reaches the cut, and plays when it does not")
    func aTruncatedFlacIsBadData() throws {
        let folder = try NagiProcess.temporaryFolder()
        try Self.sox("-n -r 48000 -c 2 whole.flac synth 60 pinknoise gain -n -20", in: folder)
        let cut = try Pipeline.run("head -c $(( $(stat -c %s whole.flac) / 2 )) whole.flac > cut.flac", in: folder)
        try #require(cut.status == 0, "\(cut.standardError)")
        // Two minutes of box reach past the cut (about 30 s in): refused before anything is written.
        let cutPath = folder.appendingPathComponent("cut.flac").path
        let long = NagiInProcess.run(["render", "box", "--minutes", "2", "--bed", cutPath, "-o", folder.appendingPathComponent("long.wav").path], home: folder)
        #expect(long.status == 65, "\(long.standardError)")
        #expect(long.standardError.contains("damaged"), "\(long.standardError)")
        #expect(long.standardError.split(separator: "\n").count == 1)
        #expect(!NagiProcess.names(in: folder).contains("long.wav"))
        // One 16-second cycle never reads that far: it renders.
        let short = NagiInProcess.run(["render", "box", "--cycles", "1", "--bed", cutPath, "-o", folder.appendingPathComponent("short.wav").path, "--quiet"], home: folder)
        #expect(short.status == 0, "\(short.standardError)")
    }
}
