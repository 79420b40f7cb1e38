import BedSource
import Synth
import AudioFile
import Glibc
import Loudness
import NagiSystem

extension Soundtrack {
    /// Renders the whole soundtrack into a file as `file` describes it (`fileDescription`) through libsndfile, reporting progress in [0, 1]; on cancellation or any failure nothing appears at the
    /// target (a regular file is written beside it and renamed only when complete).
    ///
    /// With `threads` above 1 the session is rendered as consecutive slices (`sliceFrameCount`) by that many
    /// renderers, each seeking to the next slice it takes, one of them on the calling thread, which also
    /// encodes and writes the slices in order (`SlicePipeline`): the same samples in the same order as one renderer gives (seeks are exact), so a
    /// WAV, FLAC or raw file is the same byte for byte; a lossy encoder stays on one thread and is fed the same.
    ///
    /// A tagged file's audio is metered as it is written (`GatedLoudnessMeter`'s integrated loudness, no true
    /// peak, and the sample peak), and its ReplayGain (or Opus R128) track gain is tagged from that: no second
    /// render pass. Each slice is metered by the thread that rendered it (`LoudnessSlice`), and the writing
    /// thread completes the slices in order: the same figures from one renderer as from several. A 16-bit file's
    /// slices are converted there too (`SliceFinishing`), so the writing thread only writes.
    /// - Throws: `.output` / `.cannotCreate` / `.writeFailed` for the file (`.output(.unsupported)` for a spec
    ///   whose rate or channels are not the soundtrack's), `.bed` for a bed that failed part way, `.cancelled`.
    ///
    /// A stream may start at `startFrame` (a server answering a range of a file): the samples from there on, exactly
    /// those a write from frame 0 gives there, rendered by one renderer that seeks to it.
    public func write(
        to destination: SoundtrackDestination, file: SoundtrackFileDescription, threads: Int = 1, startFrame: Int64 = 0,
        progress: (Double) -> Void = { _ in }, cancel: Cancellation = .never
    ) throws(SoundtrackError) -> SoundtrackWriteReport {
        try write(to: destination, spec: file.spec, threads: threads, startFrame: startFrame, progress: progress, cancel: cancel)
    }

    /// `write(to:file:…)` with libsndfile's description of the file; its rate and channels must be the soundtrack's.
    public func write(
        to destination: SoundtrackDestination, spec: AudioFileSpec, threads: Int = 1, startFrame: Int64 = 0,
        progress: (Double) -> Void = { _ in }, cancel: Cancellation = .never
    ) throws(SoundtrackError) -> SoundtrackWriteReport {
        guard spec.sampleRate == sampleRate && spec.channelCount == channelCount else {
            throw .output(.unsupported("a file at \(spec.sampleRate) Hz in \(spec.channelCount) channels for a soundtrack at \(sampleRate) Hz in \(channelCount)"))
        }
        guard startFrame == 0 || (startFrame > 0 && startFrame <= totalFrameCount && destination.isStream) else {
            throw .output(.unsupported("a write from frame \(startFrame): only a stream starts past frame 0, and within the soundtrack's \(totalFrameCount) frames"))
        }
        let start = ContinuousClock.now
        // A lossy encoder adds peaks of its own: the limiter holds the true peak that much lower for it. A request
        // that named its encoder has the headroom in its plan already, and its loudness pass metered it so.
        let headroom = max(plan.settings.encodingHeadroomDecibels, SoundtrackRequest.encodingHeadroomDecibels(for: spec.format))
        let outputPlan = headroom != plan.settings.encodingHeadroomDecibels ? plan.withEncodingHeadroom(decibels: headroom) : plan
        let sliceCount = Int((totalFrameCount + Int64(Self.sliceFrameCount) - 1) / Int64(Self.sliceFrameCount))
        let workerCount = startFrame > 0 ? 1 : max(1, min(threads, sliceCount))
        var renderers: [SoundtrackRenderer] = []
        var bedFeed: SharedBedFeed?
        // The reader of a bed held in memory, for its failure (it was read whole before the render starts).
        var heldBedReader: BedReader?
        // A bed held while preparing needs nothing here: `makeRenderer` gives each renderer a cursor into it.
        if workerCount > 1, heldBed == nil, let mix = outputPlan.settings.bed {
            // One loop of the bed for every renderer (each seeking into its own would decode it once per renderer).
            let reader = try openBed(at: mix.path, for: outputPlan)
            let loop = BedLooping.frames(of: reader, for: outputPlan, largestRead: SharedBedFeed.chunkFrames)
            if let held = loop.held {
                // Held whole: each renderer reads it straight, through a cursor of its own.
                for _ in 0..<workerCount { renderers.append(SoundtrackRenderer(plan: outputPlan, loopedBed: held.makeCursor())) }
                heldBedReader = reader
            } else {
                let feed = SharedBedFeed(
                    reader: reader, loop: loop, plan: outputPlan,
                    framesInFlight: SlicePipeline.bedFramesInFlight(
                        workerCount: workerCount, sliceFrameCount: Self.sliceFrameCount, seekPrerollFrames: Renderer.seekPrerollFrames(sampleRate: sampleRate)))
                for _ in 0..<workerCount { renderers.append(SoundtrackRenderer(plan: outputPlan, loopedBed: feed.makeCursor())) }
                bedFeed = feed
            }
        } else if workerCount == 1, heldBed == nil, let mix = outputPlan.settings.bed {
            renderers.append(SoundtrackRenderer(plan: outputPlan, bed: try openBed(at: mix.path, for: outputPlan)))
        } else {
            for _ in 0..<workerCount { renderers.append(try makeRenderer(plan: outputPlan)) }
        }
        let writer: AudioFileWriter
        do {
            switch destination {
            case let .file(path, overwrite):
                writer = try AudioFileWriter(path: path, spec: spec, overwrite: overwrite, stopsWaiting: { cancel.isCancelled })
            case .standardOutput: writer = try AudioFileWriter(standardOutputFor: spec)
            case let .stream(descriptor): writer = try AudioFileWriter(streamingTo: descriptor, spec: spec, frameCount: totalFrameCount - startFrame)
            }
        } catch let error as AudioFileError {
            // Cancelled while waiting for a pipe's reader.
            if cancel.isCancelled { throw .cancelled }
            throw .output(error)
        } catch {
            throw .cannotCreate(path: destination.displayPath, reason: "\(error)")
        }
        // Only a regular file is tagged after its audio, so only one is measured.
        var meter: GatedLoudnessMeter?
        if case .file = destination, spec.format.supportsTags, writer.temporaryPath != nil {
            meter = GatedLoudnessMeter(channelCount: channelCount, sampleRate: sampleRate)
        }
        let output = MeteredWriter(writer, meter: meter, sliceBufferCount: workerCount == 1 ? 1 : SlicePipeline.bufferCount(workerCount: workerCount))
        do throws(SoundtrackError) {
            if workerCount == 1 {
                if startFrame > 0 { renderers[0].seek(toFrame: startFrame) }
                try Self.renderAlone(renderers[0], into: output, progress: progress, cancel: cancel)
            } else {
                try Self.renderInSlices(renderers, sliceCount: sliceCount, bedFeed: bedFeed, bedLeadInFrames: outputPlan.guide.framing.leadInFrameCount, into: output, progress: progress, cancel: cancel)
            }
            if cancel.isCancelled { throw .cancelled }
            if let failure = bedFeed?.failure ?? heldBedReader?.failure.map({ .bed($0) }) ?? renderers.lazy.compactMap(\.bedFailure).first { throw failure }
        } catch {
            writer.discard()
            throw error
        }
        var loudnessLUFS: Double?
        if let meter {
            let loudness = meter.integratedLoudness
            loudnessLUFS = loudness
            // The file holds what the writer stores: a sample past full scale is clipped to it. Silence has no gain.
            if loudness.isFinite {
                writer.tags.gain = ReplayGain(trackLoudnessLUFS: loudness, trackPeak: min(Double(output.samplePeak), 1))
            }
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
        return SoundtrackWriteReport(
            frameCount: totalFrameCount - startFrame, sampleRate: sampleRate, byteCount: byteCount, wallSeconds: seconds,
            loudnessLUFS: loudnessLUFS, samplePeak: loudnessLUFS == nil ? nil : min(Double(output.samplePeak), 1))
    }

    /// The bed at `path` read ahead for a file of `plan`, its first pass kept in a nameless temporary file when
    /// it loops and is too long to hold in memory (`BedReader.keepFirstPass`): a 5-minute bed under a 10-minute
    /// session was decoded and resampled twice, the second time for the same frames.
    private func openBed(at path: String, for plan: RenderPlan) throws(SoundtrackError) -> BedReader {
        let reader: BedReader
        do { reader = try BedReader(path: path, sampleRate: sampleRate, channelCount: channelCount, readAhead: .decodeAndResample) } catch { throw .bed(error) }
        let folder = ProcessEnvironment.temporaryFolder
        reader.keepFirstPass(inFolder: folder, heardFrameCount: plan.curves.silenceStartFrame)
        return reader
    }

    /// Frames per slice when several renderers share a file: long enough that a seek (a control-rate replay of
    /// the slices between, and the limiter's 30 ms pre-roll) costs little beside it, short enough that the
    /// slices in flight stay a few megabytes (2.7 s at 48 kHz: 1 MiB a slice in stereo float).
    public static let sliceFrameCount = 1 << 17

    /// Renders everything with one renderer on the calling thread, slice by slice (in blocks, asking `cancel`
    /// before each), each slice metered as a renderer of a sliced write meters it.
    private static func renderAlone(
        _ renderer: SoundtrackRenderer, into writer: MeteredWriter, progress: (Double) -> Void, cancel: Cancellation
    ) throws(SoundtrackError) {
        let channelCount = renderer.channelCount
        let totalFrames = renderer.totalFrameCount
        let buffer = UnsafeMutableBufferPointer<Float>.allocate(capacity: sliceFrameCount * channelCount)
        defer { buffer.deallocate() }
        while renderer.nextFrame < totalFrames {
            let firstFrame = renderer.nextFrame
            let sliceFrames = Int(min(Int64(sliceFrameCount), totalFrames - firstFrame))
            var done = 0
            while done < sliceFrames {
                if cancel.isCancelled { throw .cancelled }
                let frames = min(MeteredWriter.blockFrameCount, sliceFrames - done)
                renderer.render(into: UnsafeMutableBufferPointer(rebasing: buffer[(done * channelCount)...]), frameCount: frames)
                done += frames
            }
            let slice = UnsafeMutableBufferPointer(rebasing: buffer[0..<(sliceFrames * channelCount)])
            writer.finishing.finish(slice, firstFrame: firstFrame, buffer: 0)
            try writer.write(slice: UnsafeBufferPointer(slice), finishedIn: 0, cancel: cancel)
            progress(Double(renderer.nextFrame) / Double(totalFrames))
        }
    }

    /// Renders slice after slice on `renderers.count` worker threads (`SlicePipeline`), each finishing what it
    /// rendered (`SliceFinishing`: metered, converted), while the calling thread writes them in order.
    private static func renderInSlices(
        _ renderers: [SoundtrackRenderer], sliceCount: Int, bedFeed: SharedBedFeed?, bedLeadInFrames: Int64, into writer: MeteredWriter,
        progress: (Double) -> Void, cancel: Cancellation
    ) throws(SoundtrackError) {
        let totalFrames = renderers[0].totalFrameCount
        let channelCount = renderers[0].channelCount
        let pipeline = SlicePipeline(
            renderers: renderers, sliceCount: sliceCount, sliceFrameCount: sliceFrameCount, bedFeed: bedFeed,
            bedLeadInFrames: bedLeadInFrames, finishing: writer.finishing)
        let failure = pipeline.run(write: { (samples: UnsafeBufferPointer<Float>, firstFrame: Int64, buffer: Int) -> SoundtrackError? in
            do throws(SoundtrackError) {
                try writer.write(slice: samples, finishedIn: buffer, cancel: cancel)
            } catch {
                return error
            }
            progress(Double(firstFrame + Int64(samples.count / channelCount)) / Double(totalFrames))
            return nil
        }, shouldStop: { cancel.isCancelled ? .cancelled : nil })
        if let failure { throw failure }
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
        case .stream: "the stream"
        }
    }

    /// Whether the destination is written forward only, from any frame.
    var isStream: Bool {
        if case .stream = self { return true }
        return false
    }
}
