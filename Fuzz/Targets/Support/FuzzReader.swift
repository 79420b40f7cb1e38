import Breath

/// Reads structured values out of fuzz bytes (zeros once the input runs out), leaning towards the
/// boundary values where limit checks live.
struct FuzzReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func raw64() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
        return value
    }

    /// A length in microseconds: small values, the 24-hour edge, Int64 extremes, negatives, or raw bits.
    mutating func microseconds() -> Int64 {
        let limit = Microseconds.sessionLimit
        switch byte() % 12 {
        case 0: return 0
        case 1: return 1
        case 2: return Int64(byte()) * 250_000
        case 3: return Int64(byte()) << 8 | Int64(byte())
        case 4: return limit
        case 5: return limit + 1
        case 6: return Int64.max
        case 7: return Int64.max / 2 + Int64(byte())
        case 8: return -Int64(byte()) - 1
        case 9: return Int64.min
        case 10: return limit / Int64(max(1, byte()))
        default: return Int64(bitPattern: raw64())
        }
    }

    /// A count: 0, 1, small, the phase-limit edge, powers of two up to 2^62, Int extremes, or raw bits.
    mutating func count() -> Int {
        switch byte() % 10 {
        case 0: return 0
        case 1: return 1
        case 2: return Int(byte() % 16)
        case 3: return SessionExpander.phaseLimit
        case 4: return SessionExpander.phaseLimit + 1
        case 5: return 1 << (Int(byte()) % 63)
        case 6: return Int.max
        case 7: return -Int(byte())
        case 8: return Int.min
        default: return Int(truncatingIfNeeded: raw64())
        }
    }

    /// A number in [0, 1] (or, rarely, a level a JSON file could not hold).
    mutating func unitDouble() -> Double {
        Double(byte()) / 255
    }
}
