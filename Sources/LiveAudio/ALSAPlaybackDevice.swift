import CALSA
import CNagiALSA
import Glibc

/// An ALSA playback device: the one owner of its `snd_pcm_t`, opened in blocking mode with interleaved access.
///
/// Samples arrive as Float; when the device takes an integer format they are converted in a buffer allocated once
/// here. ALSA's own error lines are kept off the terminal: failures become one `LiveAudioError`.
/// Use from one thread at a time.
public final class ALSAPlaybackDevice: PCMSink {
    public let deviceName: String
    public let sampleRate: Int
    public let channelCount: Int
    /// The format in use: the requested one, or 16-bit after a fallback.
    public let format: PCMSampleFormat
    /// ALSA's name for the format in use ("FLOAT_LE", "S16_LE", "S32_LE" or "S24_LE").
    public let deviceFormatName: String
    /// The device buffer, in frames (about the requested latency).
    public let bufferFrameCount: Int
    /// The device period, in frames.
    public let periodFrameCount: Int

    private var handle: OpaquePointer?
    /// A configuration tree opened in place of the global one (tests); freed after the PCM.
    private var localConfiguration: OpaquePointer?
    private let encoding: DeviceSampleEncoding
    private let conversionBuffer: UnsafeMutableRawPointer?
    private let conversionFrameCapacity: Int

    /// Opens and configures `deviceName` for playback.
    ///
    /// - Parameters:
    ///   - format: the preferred format; `.float32` falls back to S16_LE when the device refuses float,
    ///     `.signed24in32` tries S32_LE, then S24_LE, then S16_LE.
    ///   - latencyMilliseconds: the device buffer length (100–500 ms suits a breathing guide).
    /// - Throws: `.deviceUnavailable` naming the failed ALSA call and its snd_strerror text.
    public convenience init(
        deviceName: String,
        sampleRate: Int,
        channelCount: Int,
        format: PCMSampleFormat = .float32,
        latencyMilliseconds: Int = 200
    ) throws(LiveAudioError) {
        try self.init(
            deviceName: deviceName,
            sampleRate: sampleRate,
            channelCount: channelCount,
            format: format,
            latencyMilliseconds: latencyMilliseconds,
            configurationText: nil
        )
    }

    /// Opens `deviceName` as defined in `configurationText` (ALSA configuration syntax) instead of the system's
    /// configuration, when given: lets tests build devices that refuse some formats.
    init(
        deviceName: String,
        sampleRate: Int,
        channelCount: Int,
        format: PCMSampleFormat,
        latencyMilliseconds: Int,
        configurationText: String?
    ) throws(LiveAudioError) {
        precondition(sampleRate > 0 && channelCount > 0 && latencyMilliseconds > 0, "invalid playback parameters")
        self.deviceName = deviceName
        self.sampleRate = sampleRate
        self.channelCount = channelCount

        // Before any ALSA call: a failed open otherwise prints a pile of "ALSA lib ..." lines.
        nagi_alsa_silence_errors()
        nagi_alsa_clear_errors()

        func unavailable(_ function: String, _ code: Int32) -> LiveAudioError {
            var reason = "\(function) failed: \(String(cString: snd_strerror(code)))"
            let detail = String(cString: nagi_alsa_first_error())
            if !detail.isEmpty {
                reason += " (\(detail))"
            }
            return .deviceUnavailable(device: deviceName, reason: reason)
        }

        var configuration: OpaquePointer?
        if let configurationText {
            configuration = try Self.loadConfiguration(configurationText, device: deviceName)
        }
        var pcm: OpaquePointer?
        let openCode: Int32 = if let configuration {
            snd_pcm_open_lconf(&pcm, deviceName, SND_PCM_STREAM_PLAYBACK, 0, configuration)
        } else {
            snd_pcm_open(&pcm, deviceName, SND_PCM_STREAM_PLAYBACK, 0)
        }
        guard openCode >= 0, let pcm else {
            if let configuration { snd_config_delete(configuration) }
            throw unavailable("snd_pcm_open", openCode)
        }
        func fail(_ error: LiveAudioError) -> LiveAudioError {
            snd_pcm_close(pcm)
            if let configuration { snd_config_delete(configuration) }
            return error
        }

        let candidates = DeviceSampleEncoding.candidates(for: format)
        let accepted: DeviceSampleEncoding?
        do {
            accepted = try Self.firstAccepted(candidates, by: pcm)
        } catch {
            throw fail(unavailable(error.function, error.code))
        }
        guard let chosen = accepted else {
            let names = candidates.map(\.name).joined(separator: ", ")
            throw fail(.deviceUnavailable(device: deviceName, reason: "the device takes none of \(names)"))
        }

        let setCode = snd_pcm_set_params(
            pcm,
            chosen.alsaFormat,
            SND_PCM_ACCESS_RW_INTERLEAVED,
            UInt32(clamping: channelCount),
            UInt32(clamping: sampleRate),
            1,  // let ALSA resample when the device cannot run at this rate
            UInt32(clamping: latencyMilliseconds * 1000)
        )
        guard setCode >= 0 else {
            throw fail(unavailable("snd_pcm_set_params", setCode))
        }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        let getCode = snd_pcm_get_params(pcm, &bufferSize, &periodSize)
        guard getCode >= 0 else {
            throw fail(unavailable("snd_pcm_get_params", getCode))
        }

        handle = pcm
        localConfiguration = configuration
        encoding = chosen
        self.format = chosen.sampleFormat
        deviceFormatName = chosen.name
        bufferFrameCount = Int(bufferSize)
        periodFrameCount = Int(periodSize)
        if chosen == .float32LE {
            conversionBuffer = nil
            conversionFrameCapacity = 0
        } else {
            conversionFrameCapacity = max(Int(periodSize), 1024)
            conversionBuffer = UnsafeMutableRawPointer.allocate(
                byteCount: conversionFrameCapacity * channelCount * chosen.bytesPerSample,
                alignment: 4
            )
        }
    }

    deinit {
        close()
        conversionBuffer?.deallocate()
    }

    /// Closes the device (what was written but not drained is dropped). Safe to call twice; later writes fail with EBADFD.
    public func close() {
        if let handle {
            snd_pcm_close(handle)
            self.handle = nil
        }
        if let localConfiguration {
            snd_config_delete(localConfiguration)
            self.localConfiguration = nil
        }
    }

    public func write(_ interleaved: UnsafeBufferPointer<Float>, frameCount: Int) -> PCMWriteResult {
        guard let handle else { return .failed(errno: EBADFD) }
        precondition(interleaved.count >= frameCount * channelCount, "buffer shorter than frameCount frames")
        guard frameCount > 0, let base = interleaved.baseAddress else { return .written(0) }
        var writtenFrameCount = 0
        while writtenFrameCount < frameCount {
            let source = base + writtenFrameCount * channelCount
            let chunkFrameCount: Int
            let result: snd_pcm_sframes_t
            if let conversionBuffer {
                chunkFrameCount = min(frameCount - writtenFrameCount, conversionFrameCapacity)
                encoding.encode(source, sampleCount: chunkFrameCount * channelCount, into: conversionBuffer)
                result = snd_pcm_writei(handle, conversionBuffer, snd_pcm_uframes_t(chunkFrameCount))
            } else {
                chunkFrameCount = frameCount - writtenFrameCount
                result = snd_pcm_writei(handle, source, snd_pcm_uframes_t(chunkFrameCount))
            }
            if result < 0 {
                // Frames already taken count; the error (EPIPE, ENODEV) comes back on the next write.
                return writtenFrameCount > 0 ? .written(writtenFrameCount) : .failed(errno: Int32(-result))
            }
            writtenFrameCount += Int(result)
            if Int(result) < chunkFrameCount { break }
        }
        return .written(writtenFrameCount)
    }

    public func recover(from errno: Int32) -> Bool {
        guard let handle else { return false }
        return snd_pcm_recover(handle, -errno, 1) >= 0
    }

    public func delayFrames() -> Int64 {
        guard let handle else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(handle, &delay) >= 0 else { return 0 }
        return Int64(max(0, delay))
    }

    public func drain() {
        guard let handle else { return }
        // A signal interrupts the wait, not the draining: wait again so the fade-out is heard to the end.
        while snd_pcm_drain(handle) == -EINTR {}
        // Drained leaves the PCM in SETUP; prepare so the next write (after a pause) plays.
        _ = snd_pcm_prepare(handle)
    }

    public func describeFailure(errno: Int32) -> String {
        "snd_pcm_writei failed: " + String(cString: snd_strerror(-errno))
    }

    /// The first encoding the device's hardware parameters allow, or nil if none.
    private static func firstAccepted(
        _ candidates: [DeviceSampleEncoding],
        by pcm: OpaquePointer
    ) throws(ALSACallFailure) -> DeviceSampleEncoding? {
        var parameters: OpaquePointer?
        let allocateCode = snd_pcm_hw_params_malloc(&parameters)
        guard allocateCode >= 0, let parameters else {
            throw ALSACallFailure(function: "snd_pcm_hw_params_malloc", code: allocateCode)
        }
        defer { snd_pcm_hw_params_free(parameters) }
        let anyCode = snd_pcm_hw_params_any(pcm, parameters)
        guard anyCode >= 0 else {
            throw ALSACallFailure(function: "snd_pcm_hw_params_any", code: anyCode)
        }
        return candidates.first { snd_pcm_hw_params_test_format(pcm, parameters, $0.alsaFormat) == 0 }
    }

    /// Parses ALSA configuration text into a new tree the caller owns.
    private static func loadConfiguration(_ text: String, device: String) throws(LiveAudioError) -> OpaquePointer {
        var top: OpaquePointer?
        guard snd_config_top(&top) >= 0, let top else {
            throw .deviceUnavailable(device: device, reason: "snd_config_top failed")
        }
        var input: OpaquePointer?
        let bytes = Array(text.utf8)
        let openCode = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { snd_input_buffer_open(&input, $0.baseAddress, buffer.count) }
        }
        guard openCode >= 0, let input else {
            snd_config_delete(top)
            throw .deviceUnavailable(device: device, reason: "snd_input_buffer_open failed: \(String(cString: snd_strerror(openCode)))")
        }
        let loadCode = snd_config_load(top, input)
        snd_input_close(input)
        guard loadCode >= 0 else {
            snd_config_delete(top)
            throw .deviceUnavailable(device: device, reason: "snd_config_load failed: \(String(cString: snd_strerror(loadCode)))")
        }
        return top
    }
}

/// A failed ALSA call and its negative return code.
struct ALSACallFailure: Error {
    let function: String
    let code: Int32
}
