/// A short stable fingerprint of settings (64-bit FNV-1a as hex), to tell whether a track is up to date.
package enum Fingerprint {
    /// The fingerprint of `parts` in order, 16 hex digits.
    package static func of(_ parts: [String]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            // A separator no text contains, so ["ab", "c"] and ["a", "bc"] differ.
            hash ^= 0xFF
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
