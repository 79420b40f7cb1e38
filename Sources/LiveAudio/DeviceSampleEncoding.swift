import CALSA

#if !_endian(little)
#error("DeviceSampleEncoding writes little-endian ALSA formats from native samples")
#endif

/// A sample layout an ALSA device takes, and the conversion to it from Float.
enum DeviceSampleEncoding: Sendable, Equatable, CaseIterable {
    /// FLOAT_LE: the renderer's samples, unchanged.
    case float32LE
    /// S16_LE: clamped to [-1, 1], scaled by 32767, rounded to nearest.
    case signed16LE
    /// S32_LE: 24-bit precision (scaled by 8388607, rounded) shifted into the top three bytes.
    case signed32LE
    /// S24_LE: 24-bit precision in the low three bytes of a 32-bit word, sign-extended.
    case signed24LE

    /// The encodings to try for a requested format, in order of preference.
    /// Float and 24-bit fall back to 16-bit, which every device takes.
    static func candidates(for format: PCMSampleFormat) -> [DeviceSampleEncoding] {
        switch format {
        case .float32: [.float32LE, .signed16LE]
        case .signed16: [.signed16LE]
        case .signed24in32: [.signed32LE, .signed24LE, .signed16LE]
        }
    }

    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32LE: SND_PCM_FORMAT_FLOAT_LE
        case .signed16LE: SND_PCM_FORMAT_S16_LE
        case .signed32LE: SND_PCM_FORMAT_S32_LE
        case .signed24LE: SND_PCM_FORMAT_S24_LE
        }
    }

    /// ALSA's name for the format, for reports.
    var name: String {
        switch self {
        case .float32LE: "FLOAT_LE"
        case .signed16LE: "S16_LE"
        case .signed32LE: "S32_LE"
        case .signed24LE: "S24_LE"
        }
    }

    /// The format as nagi names it.
    var sampleFormat: PCMSampleFormat {
        switch self {
        case .float32LE: .float32
        case .signed16LE: .signed16
        case .signed32LE, .signed24LE: .signed24in32
        }
    }

    var bytesPerSample: Int {
        self == .signed16LE ? 2 : 4
    }

    /// Converts `sampleCount` Float samples into `destination` (`sampleCount * bytesPerSample` bytes, 4-byte aligned).
    /// NaN becomes 0 and values beyond ±1 are clamped, so a bad sample is never a wrapped-around click.
    func encode(_ source: UnsafePointer<Float>, sampleCount: Int, into destination: UnsafeMutableRawPointer) {
        switch self {
        case .float32LE:
            destination.copyMemory(from: source, byteCount: sampleCount * 4)
        case .signed16LE:
            let output = destination.bindMemory(to: Int16.self, capacity: sampleCount)
            for index in 0..<sampleCount {
                output[index] = Int16(Self.quantize(source[index], scale: 32767))
            }
        case .signed32LE:
            let output = destination.bindMemory(to: Int32.self, capacity: sampleCount)
            for index in 0..<sampleCount {
                output[index] = Self.quantize(source[index], scale: 8_388_607) << 8
            }
        case .signed24LE:
            let output = destination.bindMemory(to: Int32.self, capacity: sampleCount)
            for index in 0..<sampleCount {
                output[index] = Self.quantize(source[index], scale: 8_388_607)
            }
        }
    }

    /// round(clamp(sample) · scale), in Double so 24-bit steps round exactly.
    @inline(__always)
    static func quantize(_ sample: Float, scale: Double) -> Int32 {
        let clamped = sample.isNaN ? 0 : Swift.min(Swift.max(Double(sample), -1), 1)
        return Int32((clamped * scale).rounded(.toNearestOrEven))
    }
}
