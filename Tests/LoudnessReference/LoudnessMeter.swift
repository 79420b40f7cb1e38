import CEbur128
import Glibc

/// An EBU R 128 / ITU-R BS.1770-4 meter through libebur128: feed interleaved Float blocks, read the
/// integrated loudness and the true peak of everything fed so far.
///
/// nagi's own measurements (beds, the loudness pass, gain tags) go through `GatedLoudnessMeter`; this is the
/// independent reference its figures and the rendered files are checked against, in the tests alone (no product
/// of nagi's links libebur128).
///
/// One owner; the libebur128 state is destroyed with the object.
public final class LoudnessMeter {
    public let channelCount: Int
    public let sampleRate: Int
    private var state: UnsafeMutablePointer<ebur128_state>?

    /// - Parameter truePeak: whether to track the true peak too (4× oversampling: about four times the cost of
    ///   the loudness alone); `truePeak()` needs it.
    /// - Throws: `.unsupported` for rates outside 8 kHz ... 384 kHz or channels outside 1 ... 8, `.ebur128`
    ///   naming `ebur128_init` when it returns nothing. Without `measuresTruePeak` the 4× oversampling is skipped
    ///   (most of the meter's cost) and `truePeak()` throws.
    public init(channelCount: Int, sampleRate: Int, measuresTruePeak: Bool = true) throws(LoudnessError) {
        guard (1...8).contains(channelCount) else { throw .unsupported("\(channelCount) channels (1 to 8)") }
        guard (8_000...384_000).contains(sampleRate) else { throw .unsupported("\(sampleRate) Hz (8 to 384 kHz)") }
        let mode = Int32(EBUR128_MODE_I.rawValue | (measuresTruePeak ? EBUR128_MODE_TRUE_PEAK.rawValue : 0))
        guard let state = ebur128_init(UInt32(channelCount), UInt(sampleRate), mode) else {
            throw .ebur128(call: "ebur128_init", code: -1)
        }
        self.state = state
        self.channelCount = channelCount
        self.sampleRate = sampleRate
    }

    deinit {
        ebur128_destroy(&state)
    }

    /// Adds interleaved frames (a whole number of them).
    /// - Throws: `.ebur128` naming `ebur128_add_frames_float`.
    public func add(_ interleaved: UnsafeBufferPointer<Float>) throws(LoudnessError) {
        precondition(interleaved.count % channelCount == 0, "a partial frame")
        guard let base = interleaved.baseAddress, !interleaved.isEmpty else { return }
        let code = ebur128_add_frames_float(state, base, interleaved.count / channelCount)
        guard code == EBUR128_SUCCESS.rawValue else { throw .ebur128(call: "ebur128_add_frames_float", code: code) }
    }

    /// Adds interleaved frames from an array.
    public func add(_ interleaved: [Float]) throws(LoudnessError) {
        try interleaved.withUnsafeBufferPointer { buffer throws(LoudnessError) in try add(buffer) }
    }

    /// Gated integrated loudness in LUFS of everything added; `-infinity` when nothing rose above the
    /// absolute gate (silence, or less than one 400 ms block).
    public func integratedLoudness() throws(LoudnessError) -> Double {
        var loudness = 0.0
        let code = ebur128_loudness_global(state, &loudness)
        guard code == EBUR128_SUCCESS.rawValue else { throw .ebur128(call: "ebur128_loudness_global", code: code) }
        return loudness
    }

    /// The gated integrated loudness in LUFS of everything several meters were fed, as if one meter had been
    /// fed it all (`ebur128_loudness_global_multiple`): consecutive stretches of one signal metered in parallel.
    public static func integratedLoudness(of meters: [LoudnessMeter]) throws(LoudnessError) -> Double {
        var states = meters.map(\.state)
        var loudness = 0.0
        let code = withExtendedLifetime(meters) {
            states.withUnsafeMutableBufferPointer { buffer in
                ebur128_loudness_global_multiple(buffer.baseAddress, buffer.count, &loudness)
            }
        }
        guard code == EBUR128_SUCCESS.rawValue else { throw .ebur128(call: "ebur128_loudness_global_multiple", code: code) }
        return loudness
    }

    /// The highest true peak over all channels (4× oversampled, as BS.1770-4), in dBTP; `-infinity` for silence.
    public func truePeak() throws(LoudnessError) -> Double {
        var highest = 0.0
        for channel in 0..<channelCount {
            var peak = 0.0
            let code = ebur128_true_peak(state, UInt32(channel), &peak)
            guard code == EBUR128_SUCCESS.rawValue else { throw .ebur128(call: "ebur128_true_peak", code: code) }
            highest = max(highest, peak)
        }
        return 20 * log10(highest)
    }
}
