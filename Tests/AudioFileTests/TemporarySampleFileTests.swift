import AudioFile
import NagiTestSupport
import Testing

/// `TemporarySampleFile`: a nameless file of samples, read back from any sample, bounded, leaving nothing behind.
@Suite("A nameless temporary file of samples")
struct TemporarySampleFileTests {
    @Test("samples read back from any index across its write buffer, never past twice its expected size, and the folder stays empty")
    func readsBackAndIsBounded() throws {
        let folder = try TemporaryFolder()
        // Larger than the file's write buffer (2^18 samples), so reads cross what was written in several calls.
        let expected = 300_000
        let file = try #require(TemporarySampleFile.create(inFolder: folder.path, expectedSampleCount: Int64(expected)))
        let samples = (0..<(2 * expected)).map { Float($0) * 0.001 - 7 }
        // Appended in uneven pieces, as a bed's reads come.
        var done = 0
        for piece in [1, 4_095, 262_143, 262_145, 70_000] + Array(repeating: 50_000, count: 20) where done < samples.count {
            let count = min(piece, samples.count - done)
            #expect(samples.withUnsafeBufferPointer { file.append($0.baseAddress! + done, count: count) })
            done += count
        }
        #expect(file.sampleCount == Int64(samples.count))
        let over: [Float] = [1]
        #expect(!over.withUnsafeBufferPointer { file.append($0.baseAddress!, count: 1) }, "a sample past twice the expected size is refused")
        #expect(file.flush())
        for (index, count) in [(0, 10), (262_140, 9), (599_990, 100), (123_456, 70_000)] {
            var got = [Float](repeating: .nan, count: count)
            let read = got.withUnsafeMutableBufferPointer { file.read(at: Int64(index), into: $0.baseAddress!, count: count) }
            let wanted = min(count, samples.count - index)
            #expect(read == wanted)
            let same = got[0..<wanted].elementsEqual(samples[index..<(index + wanted)])
            #expect(same, "samples \(index)..<\(index + wanted)")
        }
        #expect(folder.contents.isEmpty, "\(folder.contents)")
        file.removeAll()
        #expect(file.sampleCount == 0)
    }

    @Test("no file is made in a folder that does not exist")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        #expect(TemporarySampleFile.create(inFolder: folder.file("missing"), expectedSampleCount: 10) == nil)
    }
}
