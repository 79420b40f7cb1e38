import AudioFile
import BedSource
@testable import NagiKit
import NagiTestSupport
import Testing

/// Issue 51: a render opens its bed file at most 3 times (it was 5: the measurement's two, a held copy's read, and
/// the second loudness pass's two). Counted through the one place every bed is opened (`BedOpenTally`, in
/// `BedDecoder.init`), on a real FLAC written through libsndfile and a real render to a file.
@Suite("A render opens its bed at most 3 times")
struct BedOpenCountTests {
    @Test("the tally counts each open of a watched path, and nothing of one not watched")
    func tallyCountsOpens() throws {
        let folder = try TemporaryFolder()
        let bed = try KitFixtures.writeBed(in: folder, seconds: 1)
        let other = try KitFixtures.writeBed(in: folder, seconds: 1, name: "other.flac")
        BedOpenTally.watch(bed)
        defer { BedOpenTally.forget(bed) }
        _ = try BedDecoder(path: bed, channelCount: 2)
        _ = try BedReader(path: bed, sampleRate: 48_000, channelCount: 2)
        _ = try BedDecoder(path: other, channelCount: 2)
        #expect(BedOpenTally.opens(of: bed) == 2)
        #expect(BedOpenTally.opens(of: other) == 0)
    }

    /// A bed held in memory (7.3 s, looped) and one streamed (40 s, longer than the session: never looped, so
    /// never held), each levelled to a loud target (the second pass meters again past the limiter's
    /// knee), written on 1 and 2 threads: prepared and written, the file is opened at least twice (the
    /// measurement's two decoders) and at most 3 times, and the write still sounds as a renderer reading the bed
    /// itself.
    @Test("prepare and write open the bed at most 3 times, held or streamed, with a loudness target, on 1 or 2 threads",
          arguments: [(7.3, 1), (7.3, 2), (40.0, 1), (40.0, 2)])
    func renderOpensBedAtMostThreeTimes(bedSeconds: Double, threads: Int) throws {
        let folder = try TemporaryFolder()
        let bed = try KitFixtures.writeBed(in: folder, seconds: bedSeconds)
        BedOpenTally.watch(bed)
        defer { BedOpenTally.forget(bed) }
        var request = SoundtrackRequest(
            schedule: try KitFixtures.schedule("coherent", cycles: 3), soundscape: try BuiltinLibrary.soundscape(named: "horizon"),
            bed: .init(path: bed, levelDecibels: -3))
        request.loudnessTargetLUFS = -12
        let soundtrack = try Soundtrack.prepare(request)
        let path = folder.file("out.wav")
        _ = try soundtrack.write(
            to: .file(path: path, overwrite: false), spec: AudioFileSpec(sampleRate: 48_000, channelCount: 2, format: .wav, encoding: .float),
            threads: threads)
        let opens = BedOpenTally.opens(of: bed)
        #expect((2...3).contains(opens), "\(bedSeconds) s bed, \(threads) threads: opened \(opens) times")
        #expect(soundtrack.loudness != nil)
        #expect((soundtrack.heldBed != nil) == (bedSeconds < 10), "held: \(soundtrack.heldBed != nil)")

        let reference = KitFixtures.renderToEnd(
            SoundtrackRenderer(plan: soundtrack.plan, bed: try BedReader(path: bed, sampleRate: 48_000, channelCount: 2)))
        #expect(reference.contains { $0 != 0 })
        let sameSamples = try AudioFileReader.readFloat(path: path) == reference
        #expect(sameSamples, "the write equals a renderer reading the bed itself")
    }
}
