import AudioFile
import Foundation
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
        let plain = try NagiProcess.run(["render", "box", "--cycles", "1", "-o", "plain.wav", "--quiet"], in: folder)
        try #require(plain.status == 0, "\(plain.standardError)")
        let reference = try Self.dcAndInfrasound("plain.wav", in: folder)
        for bed in ["offset.wav", "five.wav"] {
            let result = try NagiProcess.run(["render", "box", "--cycles", "1", "--bed", bed, "-o", "out.wav", "--quiet", "--force"], in: folder)
            try #require(result.status == 0, "\(result.standardError)")
            let measured = try Self.dcAndInfrasound("out.wav", in: folder)
            #expect(abs(measured.mean) < 0.002, "\(bed): DC \(measured.mean)")
            #expect(measured.infrasoundDecibels < reference.infrasoundDecibels + 3, "\(bed): \(measured.infrasoundDecibels) dB under 15 Hz, \(reference.infrasoundDecibels) without a bed")
        }
    }

    @Test("a cue clip on a DC offset starts without a step")
    func aClipWithAnOffsetDoesNotStep() throws {
        let folder = try NagiProcess.temporaryFolder()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        for (name, hertz) in [("inhale", 500), ("hold", 700), ("exhale", 900)] {
            try Self.sox("-n -r 48000 -c 1 pack/\(name).wav synth 0.6 sine \(hertz) gain -12 dcshift 0.4", in: folder)
        }
        let result = try NagiProcess.run(["render", "box", "--cycles", "1", "--cue-pack", "pack", "--bits", "float", "-o", "out.wav", "--quiet"], in: folder)
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
        let result = try NagiProcess.run(["render", "box", "--cycles", "1", "--bed", "bed.wav", "-o", "out.wav"], in: folder)
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
        let long = try NagiProcess.run(["render", "box", "--minutes", "2", "--bed", "cut.flac", "-o", "long.wav"], in: folder)
        #expect(long.status == 65, "\(long.standardError)")
        #expect(long.standardError.contains("damaged"), "\(long.standardError)")
        #expect(long.standardError.split(separator: "\n").count == 1)
        #expect(!NagiProcess.names(in: folder).contains("long.wav"))
        // One 16-second cycle never reads that far: it renders.
        let short = try NagiProcess.run(["render", "box", "--cycles", "1", "--bed", "cut.flac", "-o", "short.wav", "--quiet"], in: folder)
        #expect(short.status == 0, "\(short.standardError)")
    }
}
