@testable import LiveAudio
import Testing

/// Float to device integers: rounding, clamping, NaN, and where the 24 bits sit in a 32-bit word.
struct DeviceSampleEncodingTests {
    static let samples: [Float] = [0, 0.5, -0.5, 1, -1, 1.5, -7, .nan, .infinity, 0.000_976_562_5, 0.000_01]

    @Test func signed16RoundsToNearestAndClamps() {
        let output = encode(.signed16LE, as: Int16.self)
        #expect(output == [0, 16_384, -16_384, 32_767, -32_767, 32_767, -32_767, 0, 32_767, 32, 0])
    }

    @Test func signed32CarriesTwentyFourBitsInTheTopThreeBytes() {
        let output = encode(.signed32LE, as: Int32.self)
        #expect(output.allSatisfy { $0 & 0xFF == 0 })
        #expect(output.map { $0 >> 8 } == [0, 4_194_304, -4_194_304, 8_388_607, -8_388_607, 8_388_607, -8_388_607, 0, 8_388_607, 8_192, 84])
    }

    @Test func signed24CarriesTwentyFourBitsInTheLowThreeBytesSignExtended() {
        let output = encode(.signed24LE, as: Int32.self)
        #expect(output == [0, 4_194_304, -4_194_304, 8_388_607, -8_388_607, 8_388_607, -8_388_607, 0, 8_388_607, 8_192, 84])
    }

    @Test func candidatesFallBackToSixteenBits() {
        #expect(DeviceSampleEncoding.candidates(for: .float32) == [.float32LE, .signed16LE])
        #expect(DeviceSampleEncoding.candidates(for: .signed16) == [.signed16LE])
        #expect(DeviceSampleEncoding.candidates(for: .signed24in32) == [.signed32LE, .signed24LE, .signed16LE])
    }

    private func encode<T>(_ encoding: DeviceSampleEncoding, as type: T.Type) -> [T] {
        let raw = UnsafeMutableRawPointer.allocate(byteCount: Self.samples.count * 4, alignment: 4)
        defer { raw.deallocate() }
        Self.samples.withUnsafeBufferPointer { buffer in
            encoding.encode(buffer.baseAddress!, sampleCount: buffer.count, into: raw)
        }
        let typed = raw.bindMemory(to: T.self, capacity: Self.samples.count)
        return Array(UnsafeBufferPointer(start: typed, count: Self.samples.count))
    }
}
