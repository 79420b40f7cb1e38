import CSoxr

/// A libsoxr stream at high quality (the resampler sox uses): feed interleaved Float blocks of any size, get
/// the resampled frames appended, then `finish` to flush what the filter still holds.
///
/// libsoxr is driven with one buffer per channel (`SOXR_FLOAT32_S`) and modest chunks: measured on 10 minutes
/// of stereo 44.1 → 48 kHz, that costs about half the time of handing it interleaved frames in large chunks
/// (0.50 s against 1.0 s), the interleaving done here being a small part of it.
///
/// One owner, not shared between threads; the soxr handle is deleted with the object.
public final class StreamingResampler {
    public let channelCount: Int
    public let inputRate: Int
    public let outputRate: Int
    private let handle: soxr_t
    /// Input frames handed to libsoxr per call.
    private static let inputChunkFrames = 2_048
    /// Output frames asked of libsoxr per call.
    private static let outputChunkFrames = 4_096
    /// Input, one plane of `inputChunkFrames` per channel.
    private let inputPlanes: UnsafeMutablePointer<Float>
    /// Output, one plane of `outputChunkFrames` per channel.
    private let outputPlanes: UnsafeMutablePointer<Float>
    /// The output interleaved again, before it is appended.
    private let interleaved: UnsafeMutablePointer<Float>
    /// Each channel's plane start, as libsoxr's `soxr_cbufs_t` and `soxr_bufs_t` want them.
    private let inputPointers: UnsafeMutablePointer<UnsafeRawPointer?>
    private let outputPointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// - Throws: `.unsupported` for rates outside 1 Hz ... 1 MHz or channels outside 1 ... 8; `.soxr` naming
    ///   `soxr_create` when libsoxr refuses.
    public init(channelCount: Int, inputRate: Int, outputRate: Int) throws(ResamplingError) {
        guard (1...8).contains(channelCount) else { throw .unsupported("\(channelCount) channels (1 to 8)") }
        for rate in [inputRate, outputRate] where !(1...1_000_000).contains(rate) {
            throw .unsupported("\(rate) Hz (1 Hz to 1 MHz)")
        }
        var error: soxr_error_t?
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var io = soxr_io_spec(SOXR_FLOAT32_S, SOXR_FLOAT32_S)
        let created = soxr_create(
            Double(inputRate), Double(outputRate), UInt32(channelCount), &error, &io, &quality, nil)
        guard let created, error == nil else {
            if let created { soxr_delete(created) }
            throw .soxr(call: "soxr_create", reason: Self.text(error))
        }
        handle = created
        self.channelCount = channelCount
        self.inputRate = inputRate
        self.outputRate = outputRate
        inputPlanes = .allocate(capacity: Self.inputChunkFrames * channelCount)
        outputPlanes = .allocate(capacity: Self.outputChunkFrames * channelCount)
        interleaved = .allocate(capacity: Self.outputChunkFrames * channelCount)
        inputPointers = .allocate(capacity: channelCount)
        outputPointers = .allocate(capacity: channelCount)
        for channel in 0..<channelCount {
            inputPointers[channel] = UnsafeRawPointer(inputPlanes + channel * Self.inputChunkFrames)
            outputPointers[channel] = UnsafeMutableRawPointer(outputPlanes + channel * Self.outputChunkFrames)
        }
    }

    deinit {
        soxr_delete(handle)
        inputPlanes.deallocate()
        outputPlanes.deallocate()
        interleaved.deallocate()
        inputPointers.deallocate()
        outputPointers.deallocate()
    }

    /// Resamples `input` (interleaved, a whole number of frames) and appends what comes out to `output`.
    /// The filter holds back some frames (its delay); they arrive with later input or with `finish`.
    /// - Throws: `.soxr` naming `soxr_process`.
    public func process(_ input: UnsafeBufferPointer<Float>, appendingTo output: inout [Float]) throws(ResamplingError) {
        precondition(input.count % channelCount == 0, "a partial frame")
        guard let source = input.baseAddress else { return }
        let channels = channelCount
        let inputFrames = input.count / channels
        var chunkStart = 0
        while chunkStart < inputFrames {
            let chunkFrames = min(Self.inputChunkFrames, inputFrames - chunkStart)
            let from = source + chunkStart * channels
            if channels == 2 {
                // The common case, written out: the general loop's stride kept it from vectorising.
                let left = inputPlanes, right = inputPlanes + Self.inputChunkFrames
                for frame in 0..<chunkFrames {
                    left[frame] = from[2 * frame]
                    right[frame] = from[2 * frame + 1]
                }
            } else {
                for channel in 0..<channels {
                    let plane = inputPlanes + channel * Self.inputChunkFrames
                    for frame in 0..<chunkFrames { plane[frame] = from[frame * channels + channel] }
                }
            }
            var consumedFrames = 0
            while true {
                var usedFrames = 0
                var producedFrames = 0
                for channel in 0..<channels {
                    inputPointers[channel] = UnsafeRawPointer(inputPlanes + channel * Self.inputChunkFrames + consumedFrames)
                }
                let error = soxr_process(
                    handle, UnsafeRawPointer(inputPointers), chunkFrames - consumedFrames, &usedFrames,
                    UnsafeMutableRawPointer(outputPointers), Self.outputChunkFrames, &producedFrames)
                if let error { throw .soxr(call: "soxr_process", reason: Self.text(error)) }
                if usedFrames == 0 && producedFrames == 0 && consumedFrames < chunkFrames {
                    // libsoxr neither took input nor gave output: stop rather than spin.
                    throw .soxr(call: "soxr_process", reason: "no progress with \(chunkFrames - consumedFrames) frames left")
                }
                consumedFrames += usedFrames
                append(producedFrames, to: &output)
                // A full chunk may mean more is waiting; otherwise stop once the input is taken.
                if producedFrames < Self.outputChunkFrames && consumedFrames >= chunkFrames { break }
            }
            chunkStart += chunkFrames
        }
    }

    /// Tells libsoxr the input has ended and appends the frames its filter still held.
    /// - Throws: `.soxr` naming `soxr_process`.
    public func finish(appendingTo output: inout [Float]) throws(ResamplingError) {
        while true {
            var producedFrames = 0
            let error = soxr_process(
                handle, nil, 0, nil, UnsafeMutableRawPointer(outputPointers), Self.outputChunkFrames, &producedFrames)
            if let error { throw .soxr(call: "soxr_process", reason: Self.text(error)) }
            append(producedFrames, to: &output)
            if producedFrames == 0 { return }
        }
    }

    /// Forgets everything fed so far, for a fresh signal with the same rates (a bed that loops).
    /// - Throws: `.soxr` naming `soxr_clear`.
    public func reset() throws(ResamplingError) {
        if let error = soxr_clear(handle) { throw .soxr(call: "soxr_clear", reason: Self.text(error)) }
    }

    /// Interleaves the first `frameCount` frames of the output planes onto the end of `output`.
    private func append(_ frameCount: Int, to output: inout [Float]) {
        guard frameCount > 0 else { return }
        let channels = channelCount
        if channels == 2 {
            let left = outputPlanes, right = outputPlanes + Self.outputChunkFrames
            for frame in 0..<frameCount {
                interleaved[2 * frame] = left[frame]
                interleaved[2 * frame + 1] = right[frame]
            }
        } else {
            for channel in 0..<channels {
                let plane = outputPlanes + channel * Self.outputChunkFrames
                for frame in 0..<frameCount { interleaved[frame * channels + channel] = plane[frame] }
            }
        }
        output.append(contentsOf: UnsafeBufferPointer(start: interleaved, count: frameCount * channels))
    }

    static func text(_ error: soxr_error_t?) -> String {
        guard let error else { return "unknown error" }
        return String(cString: error)
    }
}
