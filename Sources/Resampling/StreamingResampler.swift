import CSoxr

/// A libsoxr stream at high quality (the resampler sox uses): feed interleaved Float blocks of any size, get
/// the resampled frames appended, then `finish` to flush what the filter still holds.
///
/// One owner, not shared between threads; the soxr handle is deleted with the object.
public final class StreamingResampler {
    public let channelCount: Int
    public let inputRate: Int
    public let outputRate: Int
    private let handle: soxr_t
    /// Output frames per call to soxr_process; the loop runs until input is consumed and output drained.
    private static let chunkFrames = 4_096
    private var chunk: [Float]

    /// - Throws: `.unsupported` for rates outside 1 Hz ... 1 MHz or channels outside 1 ... 8; `.soxr` naming
    ///   `soxr_create` when libsoxr refuses.
    public init(channelCount: Int, inputRate: Int, outputRate: Int) throws(ResamplingError) {
        guard (1...8).contains(channelCount) else { throw .unsupported("\(channelCount) channels (1 to 8)") }
        for rate in [inputRate, outputRate] where !(1...1_000_000).contains(rate) {
            throw .unsupported("\(rate) Hz (1 Hz to 1 MHz)")
        }
        var error: soxr_error_t?
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
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
        chunk = [Float](repeating: 0, count: Self.chunkFrames * channelCount)
    }

    deinit {
        soxr_delete(handle)
    }

    /// Resamples `input` (interleaved, a whole number of frames) and appends what comes out to `output`.
    /// The filter holds back some frames (its delay); they arrive with later input or with `finish`.
    /// - Throws: `.soxr` naming `soxr_process`.
    public func process(_ input: UnsafeBufferPointer<Float>, appendingTo output: inout [Float]) throws(ResamplingError) {
        precondition(input.count % channelCount == 0, "a partial frame")
        var consumedFrames = 0
        let inputFrames = input.count / channelCount
        while true {
            var usedFrames = 0
            var producedFrames = 0
            let remaining = inputFrames - consumedFrames
            let error = chunk.withUnsafeMutableBufferPointer { out in
                soxr_process(
                    handle, input.baseAddress.map { $0 + consumedFrames * channelCount }, remaining, &usedFrames,
                    out.baseAddress, Self.chunkFrames, &producedFrames)
            }
            if let error { throw .soxr(call: "soxr_process", reason: Self.text(error)) }
            if usedFrames == 0 && producedFrames == 0 && consumedFrames < inputFrames {
                // libsoxr neither took input nor gave output: stop rather than spin.
                throw .soxr(call: "soxr_process", reason: "no progress with \(remaining) frames left")
            }
            consumedFrames += usedFrames
            output.append(contentsOf: chunk[0..<(producedFrames * channelCount)])
            // A full chunk may mean more is waiting; otherwise stop once the input is taken.
            if producedFrames < Self.chunkFrames && consumedFrames >= inputFrames { return }
        }
    }

    /// Tells libsoxr the input has ended and appends the frames its filter still held.
    /// - Throws: `.soxr` naming `soxr_process`.
    public func finish(appendingTo output: inout [Float]) throws(ResamplingError) {
        while true {
            var producedFrames = 0
            let error = chunk.withUnsafeMutableBufferPointer { out in
                soxr_process(handle, nil, 0, nil, out.baseAddress, Self.chunkFrames, &producedFrames)
            }
            if let error { throw .soxr(call: "soxr_process", reason: Self.text(error)) }
            output.append(contentsOf: chunk[0..<(producedFrames * channelCount)])
            if producedFrames == 0 { return }
        }
    }

    /// Forgets everything fed so far, for a fresh signal with the same rates (a bed that loops).
    /// - Throws: `.soxr` naming `soxr_clear`.
    public func reset() throws(ResamplingError) {
        if let error = soxr_clear(handle) { throw .soxr(call: "soxr_clear", reason: Self.text(error)) }
    }

    static func text(_ error: soxr_error_t?) -> String {
        guard let error else { return "unknown error" }
        return String(cString: error)
    }
}
