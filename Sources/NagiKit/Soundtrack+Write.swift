import AudioFile
import Glibc

extension Soundtrack {
    /// Frames rendered and written per block: large enough to amortise libsndfile calls, small enough to check
    /// the cancellation token often.
    static let writeBlockFrameCount = 8192

    /// Renders the whole soundtrack into a file of `spec` (its rate and channels must be the soundtrack's)
    /// through libsndfile, reporting progress in [0, 1]; on cancellation or any failure nothing appears at the
    /// target (a regular file is written beside it and renamed only when complete).
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
            case let .file(path, overwrite):
                writer = try AudioFileWriter(path: path, spec: spec, overwrite: overwrite, stopsWaiting: { cancel.isCancelled })
            case .standardOutput: writer = try AudioFileWriter(standardOutputFor: spec)
            }
        } catch let error as AudioFileError {
            // Cancelled while waiting for a pipe's reader.
            if cancel.isCancelled { throw .cancelled }
            throw .output(error)
        } catch {
            throw .cannotCreate(path: destination.displayPath, reason: "\(error)")
        }
        let totalFrames = renderer.totalFrameCount
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
            do {
                try writer.write(UnsafeBufferPointer(rebasing: buffer[0..<(frames * channelCount)]))
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
        return SoundtrackWriteReport(frameCount: totalFrames, sampleRate: sampleRate, byteCount: byteCount, wallSeconds: seconds)
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
