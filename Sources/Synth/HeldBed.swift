import NagiBase

/// A bed recording held whole in memory, looped exactly as `BedLoop` loops it, for any number of renderers at
/// once: each reads through a cursor of its own, straight from the recording.
///
/// Held, the loop's frame at a session frame is a function of that frame alone: the first pass plays the
/// recording from 0, every later one from `fadeFrames` (its head was heard in the seam before it), and the last
/// `fadeFrames` of each pass fade out (`fadeOut`) as the head fades in (`fadeIn`). So a cursor seeks by
/// arithmetic, and a sliced write's renderers need neither a producer thread nor a ring between them and the
/// recording (`SharedBedFeed`, which a streamed bed still needs): the two copies of every bed frame that the
/// ring took are gone. The frames are the same as `BedLoop` gives, bit for bit (the seam is `BedLoop.mixSeam`'s,
/// mixed once).
///
/// `Sendable` because it is immutable: every buffer is filled before init returns (by the `BedLoop` that held the
/// recording) and only read after; a cursor's position is its own, and a cursor is not `Sendable`.
public final class HeldBed: LoopFrames, Sendable {
    /// Interleaved channels per frame.
    public let channelCount: Int
    /// The session's rate, Hz.
    public let sampleRate: Int
    /// The recording, whole.
    private let recording: FloatBuffer
    /// Its frames (0: a recording that gave none, heard as silence).
    private let recordingFrames: Int
    /// Frames of each seam's crossfade.
    private let fadeFrames: Int
    /// The seam, mixed once: the pass's last `fadeFrames` fading out as the head fades in. Every pass ends in
    /// the same frames, so mixing them per read (a quarter of a 7.3 s bed's frames) only repeated this.
    private let seam: FloatBuffer

    init(
        channelCount: Int, sampleRate: Int, recording: FloatBuffer, recordingFrames: Int, fadeFrames: Int, fadeOut: FloatBuffer,
        fadeIn: FloatBuffer
    ) {
        precondition(fadeFrames < recordingFrames || recordingFrames == 0, "a held pass is longer than its seam")
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.recording = recording
        self.recordingFrames = recordingFrames
        self.fadeFrames = fadeFrames
        seam = FloatBuffer(count: max(1, fadeFrames * channelCount))
        if recordingFrames > 0 {
            BedLoop.mixSeam(
                ending: UnsafePointer(recording.base + (recordingFrames - fadeFrames) * channelCount), head: recording.base,
                fadeOut: fadeOut.base, fadeIn: fadeIn.base, frameCount: fadeFrames, channelCount: channelCount, into: seam.base)
        }
    }

    /// A reader of the loop at session frame 0: endless, as `BedLoop` is, and lending the frames where they lie
    /// (`nextFramesInPlace`) whenever they lie in one piece.
    public func makeCursor() -> any FrameReader<Never> { LoopCursor(self) }

    /// Writes the loop's frames `first ..< first + frameCount` into `output` (all are made: `knownMade` is not
    /// needed).
    public func read(from first: Int64, frameCount: Int, into output: UnsafeMutablePointer<Float>, knownMade: inout Int64) {
        let channels = channelCount
        guard recordingFrames > 0 else {
            output.update(repeating: 0, count: frameCount * channels)
            return
        }
        let length = Int64(recordingFrames)
        let seamStart = recordingFrames - fadeFrames
        var done = 0
        while done < frameCount {
            let place = Int(BedLoop.recordingFrame(at: first + Int64(done), passFrames: length, fadeFrames: fadeFrames))
            let target = output + done * channels
            let source = UnsafePointer(recording.base + place * channels)
            if place < seamStart {
                let count = min(frameCount - done, seamStart - place)
                target.update(from: source, count: count * channels)
                done += count
            } else {
                // Inside a seam: the pass's last frames fade out as the head fades in.
                let count = min(frameCount - done, recordingFrames - place)
                target.update(from: seam.base + (place - seamStart) * channels, count: count * channels)
                done += count
            }
        }
    }

    /// Where the loop's frames `first ..< first + frameCount` lie when they lie in one piece (in the recording
    /// or in the mixed seam), else nil.
    public func framesInPlace(from first: Int64, frameCount: Int, knownMade: inout Int64) -> UnsafePointer<Float>? {
        guard recordingFrames > 0 else { return nil }
        let seamStart = recordingFrames - fadeFrames
        let place = Int(BedLoop.recordingFrame(at: first, passFrames: Int64(recordingFrames), fadeFrames: fadeFrames))
        if place + frameCount <= seamStart { return UnsafePointer(recording.base + place * channelCount) }
        if place >= seamStart, place + frameCount <= recordingFrames { return UnsafePointer(seam.base + (place - seamStart) * channelCount) }
        return nil
    }
}
