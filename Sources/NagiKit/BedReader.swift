import AudioFile
import BedSource
import NagiBase
import Synth

/// A user's recording as the renderer reads it: decoded and folded by libsndfile (`BedDecoder`), resampled to
/// the session's rate by libsoxr (`BedStream`), optionally on read-ahead threads, in the render's channels.
/// The one bed reader of every render, live play and loudness pass.
///
/// A mono recording under a stereo render is resampled once and copied to both sides. A `FrameReader` that
/// cannot throw, over the stream's that can: a failure part way is kept in `failure` for the owner to report
/// after the render (the pulled renderer cannot throw) and reads as the recording's end. One owner.
public final class BedReader: FrameReader {
    /// How a bed is read relative to the thread that renders.
    public enum ReadAhead: Sendable, Equatable {
        /// Everything on the rendering thread: no thread of its own (the loudness pass, whose two halves
        /// already fill the cores).
        case none
        /// Decoding on one thread and resampling on another, a few blocks ahead of the renderer: each costs
        /// about as much as the synthesis, so the three share the cores.
        case decodeAndResample
    }

    /// Interleaved channels per frame handed out: the render's 1 or 2.
    public let channelCount: Int
    /// The session's rate, Hz.
    public let sampleRate: Int
    /// The first read or rewind failure, if any.
    public private(set) var failure: BedStreamError?
    /// Reads that found the read-ahead behind and played silence instead (only when reads do not wait).
    public private(set) var underrunCount = 0
    /// The recording's length at the session's rate, as its file's header says (nil: unknown): a hint for
    /// memory, never trusted for timing (the loop learns the real length by reading).
    public let frameCount: Int64?
    private let stream: any FrameReader<BedStreamError>
    /// The resampled read-ahead, when there is one (it alone can come back short without ending a pass).
    private let readAhead: BedReadAhead?
    /// The DC-blocking high-pass, run here on the reader's thread when the stream is read ahead (nil: the
    /// stream filters). The same filter on the same frames in the same order, so the same samples: it was a
    /// third of the resampling thread's work, the longest stage of a streamed bed's pipeline.
    private var filter: DCBlockingFilter?
    /// Where the first pass is kept (`keepFirstPass`).
    private var keptPass = KeptPass.none
    /// Frames handed out since the last rewind: the place in the pass.
    public private(set) var nextFrame: Int64 = 0
    /// `finishReading` was called.
    private var isFinished = false
    /// Whether reads come from the kept first pass rather than the stream.
    var isReadingKeptPass: Bool {
        if case .whole = keptPass { return true }
        return false
    }
    /// The largest first pass kept on disk, bytes: 1 GiB, about 46 minutes of 48 kHz stereo.
    public static let firstPassByteLimit: Int64 = 1 << 30

    /// Opens the recording at `path` for a render at `sampleRate` in `channelCount` channels.
    /// - Throws: `BedStreamError` for a recording that cannot be used.
    public convenience init(path: String, sampleRate: Int, channelCount: Int, readAhead: ReadAhead = .none) throws(BedStreamError) {
        try self.init(decoder: BedDecoder(path: path, channelCount: channelCount), sampleRate: sampleRate, channelCount: channelCount, readAhead: readAhead)
    }

    /// Reads through `decoder` (already open, from its first frame; it is rewound), for a render at
    /// `sampleRate` in `channelCount` channels.
    init(decoder: BedDecoder, sampleRate: Int, channelCount: Int, readAhead: ReadAhead) throws(BedStreamError) {
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        frameCount = BedStream.frameCount(of: decoder, at: sampleRate)
        try decoder.rewind()
        decoder.channelCount = min(decoder.sourceChannelCount, channelCount)
        switch readAhead {
        case .none:
            stream = try BedStream(source: decoder, path: decoder.path, sampleRate: sampleRate)
            self.readAhead = nil
        case .decodeAndResample:
            let ahead = BedReadAhead(
                reading: try BedStream(source: BedReadAhead(reading: decoder), path: decoder.path, sampleRate: sampleRate, filtersDC: false))
            stream = ahead
            self.readAhead = ahead
            filter = DCBlockingFilter(sampleRate: sampleRate, channelCount: decoder.channelCount)
        }
    }

    /// Reads `stream` (frames already at the session's rate) on one read-ahead thread when `readsAhead`: the
    /// seam where a test puts a source of its own (a slow one, to see that a real-time read never waits).
    init(stream: any FrameReader<BedStreamError>, channelCount: Int, readsAhead: Bool) {
        self.channelCount = channelCount
        sampleRate = stream.sampleRate
        frameCount = nil
        let ahead = readsAhead ? BedReadAhead(reading: stream) : nil
        self.stream = ahead ?? stream
        readAhead = ahead
    }

    /// Whether a read waits for the read-ahead threads (true, the default: the output is the same whatever the
    /// timing). A real-time caller that must never block sets it false: a read the threads have not caught up
    /// with plays silence for what is missing, counted in `underrunCount`, and the bed resumes a little late.
    public var readsWait: Bool {
        get { readAhead?.waits ?? true }
        set { readAhead?.waits = newValue }
    }

    /// Keeps the first pass through the recording in a nameless file in `folder` (`TemporarySampleFile`) and
    /// reads every later pass from it: when the recording loops under a session of `heardFrameCount` frames
    /// (its file says it is shorter), is longer than a bed held in memory and its pass is at most
    /// `firstPassByteLimit`. The same frames either way (a pass gives the same frames after every rewind);
    /// a pass cut short by a rewind is kept again from its start, a real-time read that underran keeps nothing,
    /// and a file that fails is given up for the stream. Call before the first read.
    /// - Returns: whether the first pass will be kept.
    @discardableResult
    public func keepFirstPass(inFolder folder: String, heardFrameCount: Int64) -> Bool {
        // At a pass's first frame (the next read starts one), and not kept yet.
        // A pass that loops but is not held in memory.
        guard nextFrame == 0, case .none = keptPass, let expected = frameCount, expected < heardFrameCount,
              !BedLooping.holdsInMemory(expectedFrameCount: expected, channelCount: channelCount, heardFrameCount: heardFrameCount) else { return false }
        let samples = expected * Int64(channelCount)
        let bytes = samples * Int64(MemoryLayout<Float>.stride)
        guard bytes <= Self.firstPassByteLimit,
              let file = TemporarySampleFile.create(inFolder: folder, expectedSampleCount: samples) else { return false }
        keptPass = .writing(file)
        return true
    }

    /// Lets go of the kept first pass once nothing will read this reader again (its only reader is done): the
    /// file is closed and its pages freed now, on the caller's thread. A sliced write's bed producer ends with
    /// it, so a 5-minute bed's 115 MB are torn down beside the renderers' last slices (about 7 ms) rather than
    /// after the write. Reads after it give nothing; `failure` stays.
    public func finishReading() {
        isFinished = true
        keptPass = .givenUp
    }

    /// Writes up to `output.count / channelCount` frames into `output`; fewer only at the recording's end (0
    /// after a failure, kept in `failure`).
    public func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let base = output.baseAddress else { return 0 }
        return read(into: base, frameCount: output.count / channelCount)
    }

    /// Writes up to `frameCount` frames into `output`; fewer only at the recording's end (0 after a failure).
    private func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        guard failure == nil, !isFinished else { return 0 }
        if case let .whole(file) = keptPass {
            let got = file.read(at: nextFrame * Int64(channelCount), into: output, count: frameCount * channelCount)
            if got >= 0 {
                nextFrame += Int64(got / channelCount)
                return got / channelCount
            }
            resumeStreamAfterFailedFile()
            if failure != nil { return 0 }
        }
        let frames = readStream(into: output, frameCount: frameCount)
        if case let .writing(file) = keptPass {
            let underran = readAhead?.lastReadUnderran ?? false
            if underran || failure != nil || !file.append(output, count: frames * channelCount) {
                keptPass = .givenUp
            } else if frames < frameCount {
                keptPass = file.flush() ? .whole(file) : .givenUp
            }
        }
        nextFrame += Int64(frames)
        return frames
    }

    /// After the kept first pass failed to read: the stream instead, from its start to where the file left
    /// off (read through the filter, so the frames that follow are the same).
    private func resumeStreamAfterFailedFile() {
        keptPass = .givenUp
        let target = nextFrame
        do { try stream.rewind() } catch { failure = error }
        filter?.reset()
        let chunkFrames = 4_096
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames * channelCount)
        defer { scratch.deallocate() }
        var skipped: Int64 = 0
        while skipped < target, failure == nil {
            let wanted = Int(min(Int64(chunkFrames), target - skipped))
            let got = readStream(into: scratch, frameCount: wanted)
            skipped += Int64(got)
            if got < wanted { break }
        }
    }

    /// Reads from the stream: decoded, resampled, filtered and spread to the render's channels.
    private func readStream(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        let streamChannels = stream.channelCount
        // A mono stream for a stereo render lands in the second half and is spread in place (each read sample
        // sits at or after the two it fills).
        let landing = streamChannels == channelCount ? output : output + frameCount
        var frames: Int
        do {
            frames = try stream.read(into: UnsafeMutableBufferPointer(start: landing, count: frameCount * streamChannels))
        } catch {
            failure = error
            return 0
        }
        // Before a real-time read's missing frames are filled with silence, as the stream would filter.
        filter?.process(landing, frameCount: frames)
        if let readAhead, readAhead.lastReadUnderran {
            (landing + frames * streamChannels).update(repeating: 0, count: (frameCount - frames) * streamChannels)
            underrunCount += 1
            frames = frameCount
        }
        if streamChannels != channelCount {
            for n in 0..<frames {
                let sample = landing[n]
                output[2 * n] = sample
                output[2 * n + 1] = sample
            }
        }
        return frames
    }

    /// Moves to the recording's frame `frame` (from anywhere: a seek rewinds mid-pass): back to its first frame
    /// (to loop, at 0), then reads on to `frame`, so the frames after it are those reads from the start give.
    /// A failure on the way is kept in `failure`, and the reader is then at its end.
    public func seek(toFrame frame: Int64) {
        guard failure == nil else { return }
        nextFrame = 0
        // The kept first pass is read by position: nothing to rewind.
        if !isReadingKeptPass {
            do { try stream.rewind() } catch { failure = error }
            filter?.reset()
            // A first pass cut short: kept again from its start.
            if case let .writing(file) = keptPass { file.removeAll() }
        }
        // A failure on the way reads as the end, which stops the skip.
        skip(frameCount: frame)
    }

    /// Where a bed's first pass is kept.
    private enum KeptPass {
        /// Not asked for, or the file could not be made.
        case none
        /// Being written as the first pass is read.
        case writing(TemporarySampleFile)
        /// Whole: every later pass is read from it.
        case whole(TemporarySampleFile)
        /// Dropped (a failed write or read, an underrun, a pass longer than its file may grow): the stream serves.
        case givenUp
    }
}
