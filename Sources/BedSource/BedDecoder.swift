import AudioFile
import NagiBase

/// A user's recording read through libsndfile in blocks and folded to the render's 1 or 2 channels, at the
/// recording's own rate: a `FrameReader` that throws `BedStreamError`, what a `BedStream` resamples and what
/// `BedLoudness` meters. One owner.
public final class BedDecoder: FrameReader {
    /// Source frames per `sf_readf_float` call.
    private static let blockFrames = 8_192

    /// The recording rates a bed may have, Hz: what libsoxr resamples and libebur128 measures cleanly.
    public static let sampleRateRange = 8_000...384_000
    /// The shortest bed, s.
    public static let minimumSeconds = 0.5

    /// The file, for messages.
    public let path: String
    /// The channels reads fold to, 1 or 2; may change between reads, so one open serves a measurement in the
    /// render's channels and then a mono stream that is resampled once and spread to both sides.
    public var channelCount: Int {
        didSet { precondition(channelCount == 1 || channelCount == 2, "a bed is folded to 1 or 2 channels") }
    }
    /// The recording's own rate, Hz.
    public let sampleRate: Int
    /// The recording's channels, before folding.
    public let sourceChannelCount: Int
    /// The recording's frames, as its header says (nil: it does not say).
    public let frameCount: Int64?
    /// The source frame the next read starts at.
    public private(set) var nextFrame: Int64 = 0
    private let file: AudioFileStream
    private let sourceBlock: UnsafeMutablePointer<Float>

    /// Opens the recording.
    /// - Throws: `BedStreamError`: missing or unreadable (66), not audio, no frames by its header, shorter than
    ///   `minimumSeconds` by its header, a rate outside `sampleRateRange` or more than 8 channels (65).
    public init(path: String, channelCount: Int) throws(BedStreamError) {
        precondition(channelCount == 1 || channelCount == 2, "a bed is folded to 1 or 2 channels")
        let file: AudioFileStream
        BedOpenTally.opened(path)
        do { file = try AudioFileStream(path: path) } catch { throw .file(error) }
        guard file.channelCount <= 8 else { throw .tooManyChannels(path: path, channelCount: file.channelCount) }
        if file.frameCount == 0 { throw .noFrames(path: path) }
        guard Self.sampleRateRange.contains(file.sampleRate) else {
            throw .unsupportedRate(path: path, sampleRate: file.sampleRate, supported: Self.sampleRateRange)
        }
        // A bed loops: under half a second it is a click train, not a sound under the session.
        if let frames = file.frameCount, Double(frames) < Self.minimumSeconds * Double(file.sampleRate) {
            throw .tooShort(path: path, minimumSeconds: Self.minimumSeconds)
        }
        self.file = file
        self.path = path
        self.channelCount = channelCount
        sampleRate = file.sampleRate
        sourceChannelCount = file.channelCount
        frameCount = file.frameCount
        sourceBlock = .allocate(capacity: Self.blockFrames * file.channelCount)
    }

    deinit {
        sourceBlock.deallocate()
    }

    /// Fills `output` with folded frames from `nextFrame`; returns how many it wrote, fewer than asked only at
    /// the recording's end.
    /// - Throws: `BedStreamError` for a failed read.
    public func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int {
        guard let target = output.baseAddress else { return 0 }
        let wantedFrames = output.count / channelCount
        var doneFrames = 0
        // Only a read that gives nothing is taken as the end: a short one is read on from, so that callers
        // (the read-ahead ring) can take a short return as the end of a pass.
        while doneFrames < wantedFrames {
            let askedFrames = min(Self.blockFrames, wantedFrames - doneFrames)
            // Channels that need no folding are read straight into place.
            let landing = sourceChannelCount == channelCount ? target + doneFrames * channelCount : sourceBlock
            let frames: Int
            do {
                frames = try file.read(into: UnsafeMutableBufferPointer(start: landing, count: askedFrames * sourceChannelCount))
            } catch { throw .file(error) }
            if frames == 0 { break }
            Self.zeroNonFinite(landing, count: frames * sourceChannelCount)
            if sourceChannelCount == channelCount {
                doneFrames += frames
                continue
            }
            ChannelDownmix.fold(
                UnsafeBufferPointer(start: sourceBlock, count: frames * sourceChannelCount),
                sourceChannelCount: sourceChannelCount, frameCount: frames,
                into: UnsafeMutableBufferPointer(start: target + doneFrames * channelCount, count: frames * channelCount),
                outputChannelCount: channelCount)
            doneFrames += frames
        }
        nextFrame += Int64(doneFrames)
        return doneFrames
    }

    /// Replaces NaN and infinite samples (a float file can hold them) by silence: one would otherwise poison the
    /// loudness measurement, the resampler's filter and every frame of the mix after it.
    private static func zeroNonFinite(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        for index in 0..<count {
            let sample = samples[index]
            // x − x is 0 for every finite x and NaN otherwise: a test the compiler can vectorise.
            samples[index] = sample - sample == 0 ? sample : 0
        }
    }

    /// Moves to source frame `frame`: to the start, to loop, or into the middle (a measurement split across
    /// threads).
    /// - Throws: `BedStreamError` when the seek fails.
    public func seek(toFrame frame: Int64) throws(BedStreamError) {
        do { try file.seek(toFrame: frame) } catch { throw .file(error) }
        nextFrame = frame
    }
}
