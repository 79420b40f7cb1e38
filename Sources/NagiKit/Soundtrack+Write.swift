import AudioFile
import Glibc
import Loudness

extension Soundtrack {
    /// Frames rendered and written per block: large enough to amortise libsndfile calls, small enough to check
    /// the cancellation token often.
    static let writeBlockFrameCount = 8192

    /// Renders the whole soundtrack into a file of `spec` (its rate and channels must be the soundtrack's)
    /// through libsndfile, reporting progress in [0, 1]; on cancellation or any failure nothing appears at the
    /// target (a regular file is written beside it and renamed only when complete).
    ///
    /// A tagged file's audio is metered as it is written (libebur128's integrated loudness, no true peak, and the
    /// sample peak), and its ReplayGain (or Opus R128) track gain is tagged from that: no second render pass.
    /// - Throws: `.output` / `.cannotCreate` / `.writeFailed` for the file (`.output(.unsupported)` for a spec
    ///   whose rate or channels are not the soundtrack's), `.bed` for a bed that failed part way, `.cancelled`.
    public func write(
        to destination: SoundtrackDestination, spec: AudioFileSpec, progress: (Double) -> Void = { _ in },
        cancel: Cancellation = .never
    ) throws(SoundtrackError) -> SoundtrackWriteReport {
        guard spec.sampleRate == sampleRate && spec.channelCount == channelCount else {
            throw .output(.unsupported("a file at \(spec.sampleRate) Hz in \(spec.channelCount) channels for a soundtrack at \(sampleRate) Hz in \(channelCount)"))
        }
        let start = ContinuousClock.now
        // A lossy encoder adds peaks of its own: the limiter holds the true peak that much lower for it.
        let renderer = try makeRenderer(
            plan: spec.format.isLossy ? plan.withEncodingHeadroom(decibels: RenderPlan.lossyEncodingHeadroomDecibels) : plan)
        let writer: AudioFileWriter
        do {
            switch destination {
            case let .file(path, overwrite): writer = try AudioFileWriter(path: path, spec: spec, overwrite: overwrite)
            case .standardOutput: writer = try AudioFileWriter(standardOutputFor: spec)
            }
        } catch let error as AudioFileError {
            throw .output(error)
        } catch {
            throw .cannotCreate(path: destination.displayPath, reason: "\(error)")
        }
        let totalFrames = renderer.totalFrameCount
        // Only a regular file is tagged after its audio, so only one is measured.
        var meter: LoudnessMeter?
        if case .file = destination, spec.format.supportsTags, writer.temporaryPath != nil {
            meter = try? LoudnessMeter(channelCount: channelCount, sampleRate: sampleRate, measuresTruePeak: false)
        }
        var samplePeak: Float = 0
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: Self.writeBlockFrameCount * channelCount)
        defer { buffer.deallocate() }
        var lastReported = -1.0
        while renderer.nextFrame < totalFrames {
            if cancel.isCancelled {
                writer.discard()
                throw .cancelled
            }
            let frames = Int(min(Int64(Self.writeBlockFrameCount), totalFrames - renderer.nextFrame))
            renderer.render(into: buffer, frameCount: frames)
            let block = UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)])
            if let meter {
                do {
                    try meter.add(block)
                } catch {
                    writer.discard()
                    throw .writeFailed(reason: "measuring the loudness: \(error)")
                }
                for sample in block { samplePeak = max(samplePeak, abs(sample)) }
            }
            do {
                try writer.write(block)
            } catch {
                writer.discard()
                throw Self.writeError(error)
            }
            let fraction = Double(renderer.nextFrame) / Double(totalFrames)
            if fraction - lastReported >= 0.005 {
                progress(fraction)
                lastReported = fraction
            }
        }
        if cancel.isCancelled {
            writer.discard()
            throw .cancelled
        }
        if let failure = renderer.bedFailure {
            writer.discard()
            throw failure
        }
        var loudnessLUFS: Double?
        if let meter, let loudness = try? meter.integratedLoudness() {
            loudnessLUFS = loudness
            // The file holds what the writer stores: a sample past full scale is clipped to it.
            let peak = min(Double(samplePeak), 1)
            writer.tags.gain = ReplayGain(trackLoudnessLUFS: loudness, trackPeak: peak)
        }
        do {
            try writer.commit()
        } catch {
            writer.discard()
            throw Self.writeError(error)
        }
        progress(1)
        var byteCount: Int64 = 0
        if case let .file(path, _) = destination {
            var status = stat()
            if stat(path, &status) == 0 { byteCount = Int64(status.st_size) }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return SoundtrackWriteReport(frameCount: totalFrames, sampleRate: sampleRate, byteCount: byteCount, wallSeconds: seconds, loudnessLUFS: loudnessLUFS, samplePeak: loudnessLUFS == nil ? nil : min(Double(samplePeak), 1))
    }

    /// A write or commit failure as data.
    private static func writeError(_ error: any Error) -> SoundtrackError {
        if let error = error as? AudioFileError { return .output(error) }
        return .writeFailed(reason: "\(error)")
    }
}

extension SoundtrackDestination {
    /// The destination as messages name it.
    var displayPath: String {
        switch self {
        case let .file(path, _): path
        case .standardOutput: "standard output"
        }
    }
}
