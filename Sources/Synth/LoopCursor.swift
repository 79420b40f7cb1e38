import NagiBase

/// The frames of an endless bed loop, addressed by session frame, that several renderers read at once, each
/// through a `LoopCursor` of its own: a bed held in memory (`HeldBed`) or a sliced write's shared feed.
public protocol LoopFrames: AnyObject {
    /// Interleaved channels per frame.
    var channelCount: Int { get }
    /// The session's rate, Hz.
    var sampleRate: Int { get }

    /// Writes the loop's frames `first ..< first + frameCount` into `output`. `knownMade` is the cursor's own
    /// note of how far the loop's frames are made, which a loop made as it is read keeps up to date (one whose
    /// frames are all there leaves it alone).
    func read(from first: Int64, frameCount: Int, into output: UnsafeMutablePointer<Float>, knownMade: inout Int64)

    /// Where the loop's frames `first ..< first + frameCount` lie when they lie in one piece, else nil (then
    /// `read` them); `knownMade` as for `read`.
    func framesInPlace(from first: Int64, frameCount: Int, knownMade: inout Int64) -> UnsafePointer<Float>?
}

/// One renderer's place in a loop that several share: endless, as the loop is, and lending the frames where they
/// lie (`nextFramesInPlace`) whenever they lie in one piece.
public final class LoopCursor<Frames: LoopFrames>: FrameReader {
    private let frames: Frames
    public private(set) var nextFrame: Int64 = 0
    /// What this cursor last learned of the frames made (`LoopFrames.read`).
    private var knownMade: Int64 = 0

    public init(_ frames: Frames) {
        self.frames = frames
    }

    public var channelCount: Int { frames.channelCount }
    public var sampleRate: Int { frames.sampleRate }
    /// Nil: the loop never ends.
    public var frameCount: Int64? { nil }

    public func seek(toFrame frame: Int64) {
        nextFrame = frame
    }

    public func read(into output: UnsafeMutableBufferPointer<Float>) -> Int {
        guard let base = output.baseAddress else { return 0 }
        let frameCount = output.count / frames.channelCount
        frames.read(from: nextFrame, frameCount: frameCount, into: base, knownMade: &knownMade)
        nextFrame += Int64(frameCount)
        return frameCount
    }

    public func nextFramesInPlace(frameCount: Int) -> UnsafePointer<Float>? {
        guard let lent = frames.framesInPlace(from: nextFrame, frameCount: frameCount, knownMade: &knownMade) else { return nil }
        nextFrame += Int64(frameCount)
        return lent
    }
}
