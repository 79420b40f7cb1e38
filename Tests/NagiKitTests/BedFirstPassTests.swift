import NagiTestSupport
import Synth
import Testing
@testable import NagiKit

/// Issue 20's long looping bed: its first pass kept in a nameless temporary file and read back for every later
/// pass, instead of decoded and resampled again, with the same frames.
@Suite("NagiKit: a looping bed's first pass kept on disk reads back the stream's frames")
struct BedFirstPassTests {
    /// A session rate at which a 48 s bed is more than the memory budget (48 s × 96 kHz × 2 × 4 B = 37 MB).
    static let sampleRate = 96_000

    /// Reads `reader` in blocks of `blockFrames` until a pass ends (a short read), and returns the pass.
    static func readPass(_ reader: BedReader, blockFrames: Int = 4_096, limit: Int = .max) -> [Float] {
        var pass: [Float] = []
        var block = [Float](repeating: 0, count: blockFrames * reader.channelCount)
        while pass.count / reader.channelCount < limit {
            let wanted = min(blockFrames, limit - pass.count / reader.channelCount)
            let got = block.withUnsafeMutableBufferPointer { reader.read(into: UnsafeMutableBufferPointer(rebasing: $0[0..<(wanted * reader.channelCount)])) }
            pass += block[0..<(got * reader.channelCount)]
            if got < wanted { break }
        }
        return pass
    }

    /// A reader of a 48 s bed written into `folder`, its first pass kept in `scratch` under a session of
    /// `heardFrameCount` frames (the keeping checked).
    static func keptReader(folder: TemporaryFolder, scratch: TemporaryFolder, heardFrameCount: Int64 = .max) throws -> BedReader {
        let bed = try KitFixtures.writeBed(in: folder, seconds: 48)
        let reader = try BedReader(path: bed, sampleRate: sampleRate, channelCount: 2, readAhead: .decodeAndResample)
        #expect(reader.keepFirstPass(inFolder: scratch.path, heardFrameCount: heardFrameCount))
        return reader
    }

    @Test("later passes come from the kept file, each the stream's first pass bit for bit, and the folder stays empty")
    func laterPassesEqualTheStream() throws {
        let folder = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let kept = try Self.keptReader(folder: folder, scratch: scratch, heardFrameCount: 10 * 60 * Int64(Self.sampleRate))
        let streamed = try BedReader(path: folder.file("bed.flac"), sampleRate: Self.sampleRate, channelCount: 2, readAhead: .decodeAndResample)
        let reference = Self.readPass(streamed)
        #expect(reference.count / 2 > 48 * Self.sampleRate - 10, "the whole recording, resampled: \(reference.count / 2) frames")
        #expect(!kept.isReadingKeptPass)
        // Bools, not the arrays, go into the expectations: a failure would print millions of samples.
        let firstIsTheStreams = Self.readPass(kept).elementsEqual(reference)
        #expect(firstIsTheStreams, "the first pass is the stream's")
        // Odd block sizes: reads from the file need not line up with how it was written.
        for blockFrames in [4_096, 1_000, 8_191] {
            kept.rewind()
            #expect(kept.isReadingKeptPass, "after a whole pass, passes are read from the kept file")
            let again = Self.readPass(kept, blockFrames: blockFrames)
            let sameLength = again.count == reference.count
            let sameFrames = again.elementsEqual(reference)
            #expect(sameLength && sameFrames, "a pass read from the file in blocks of \(blockFrames): \(again.count / 2) frames")
        }
        #expect(scratch.contents.isEmpty, "a nameless file leaves nothing in the folder: \(scratch.contents)")
        #expect(kept.failure == nil)
    }

    @Test("a first pass cut short by a rewind is kept again from its start, and then read back")
    func rewindMidPassStartsOver() throws {
        let folder = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let kept = try Self.keptReader(folder: folder, scratch: scratch)
        let part = Self.readPass(kept, limit: 1_000_000)
        kept.rewind()
        let whole = Self.readPass(kept)
        let startsAgain = whole[0..<part.count].elementsEqual(part)
        #expect(startsAgain, "after the rewind the pass starts again")
        kept.rewind()
        #expect(kept.isReadingKeptPass)
        let keptWhole = Self.readPass(kept).elementsEqual(whole)
        #expect(keptWhole, "the pass kept after the rewind is whole and the same")
    }

    @Test("a bed that does not loop, or that memory holds, is not kept on disk")
    func onlyLongLoopingBedsAreKept() throws {
        let folder = try TemporaryFolder()
        let scratch = try TemporaryFolder()
        let long = try KitFixtures.writeBed(in: folder, seconds: 48, name: "long.flac")
        let short = try KitFixtures.writeBed(in: folder, seconds: 7.3, name: "short.flac")
        let sessionFrames = 10 * 60 * Int64(Self.sampleRate)
        let notLooping = try BedReader(path: long, sampleRate: Self.sampleRate, channelCount: 2)
        #expect(!notLooping.keepFirstPass(inFolder: scratch.path, heardFrameCount: 30 * Int64(Self.sampleRate)), "heard for 30 s of 48: never looped")
        let held = try BedReader(path: short, sampleRate: Self.sampleRate, channelCount: 2)
        #expect(!held.keepFirstPass(inFolder: scratch.path, heardFrameCount: sessionFrames), "7.3 s is held in memory")
        let noFolder = try BedReader(path: long, sampleRate: Self.sampleRate, channelCount: 2)
        #expect(!noFolder.keepFirstPass(inFolder: scratch.file("missing"), heardFrameCount: sessionFrames), "no folder, no file: streamed")
        let looping = try BedReader(path: long, sampleRate: Self.sampleRate, channelCount: 2)
        #expect(looping.keepFirstPass(inFolder: scratch.path, heardFrameCount: sessionFrames))
    }
}
