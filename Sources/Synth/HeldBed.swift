/// A bed recording held whole in memory, looped exactly as `BedLoop` loops it, for any number of renderers at
/// once: each reads through a cursor of its own, straight from the recording.
///
/// Held, the loop's frame at a session frame is a function of that frame alone: the first pass plays the
/// recording from 0, every later one from `fadeFrames` (its head was heard in the seam before it), and the last
/// `fadeFrames` of each pass fade out (`fadeOut`) as the head fades in (`fadeIn`). So a cursor seeks by
/// arithmetic, and a sliced write's renderers need neither a producer thread nor a ring between them and the
/// recording (`SharedBedFeed`, which a streamed bed still needs): the two copies of every bed frame that the
/// ring took are gone. The frames are the same as `BedLoop` gives, bit for bit (the seam is `BedLoop.mixSeam`).
public final class HeldBed: @unchecked Sendable {
    // @unchecked: every buffer is filled before init returns (by the BedLoop that held the recording) and only
    // read after; a cursor's position is its own.
    /// Interleaved channels per frame.
    public let channelCount: Int
    /// The recording, whole.
    private let recording: FloatBuffer
    /// Its frames (0: a recording that gave none, heard as silence).
    private let recordingFrames: Int
    /// Frames of each seam's crossfade.
    private let fadeFrames: Int
    /// The seam's gains, by frame into the seam.
    private let fadeOut: FloatBuffer
    private let fadeIn: FloatBuffer

    init(channelCount: Int, recording: FloatBuffer, recordingFrames: Int, fadeFrames: Int, fadeOut: FloatBuffer, fadeIn: FloatBuffer) {
        precondition(fadeFrames < recordingFrames || recordingFrames == 0, "a held pass is longer than its seam")
        self.channelCount = channelCount
        self.recording = recording
        self.recordingFrames = recordingFrames
        self.fadeFrames = fadeFrames
        self.fadeOut = fadeOut
        self.fadeIn = fadeIn
    }

    /// A reader of the loop at session frame 0.
    public func makeCursor() -> LoopedBedFrames { Cursor(bed: self) }

    /// Writes the loop's frames `first ..< first + frameCount` into `output`.
    fileprivate func read(from first: Int64, frameCount: Int, into output: UnsafeMutablePointer<Float>) {
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
                let seamOffset = place - seamStart
                let count = min(frameCount - done, recordingFrames - place)
                BedLoop.mixSeam(
                    ending: source, head: recording.base + seamOffset * channels, fadeOut: fadeOut.base + seamOffset,
                    fadeIn: fadeIn.base + seamOffset, frameCount: count, channelCount: channels, into: target)
                done += count
            }
        }
    }

    /// One renderer's place in the loop.
    private final class Cursor: LoopedBedFrames {
        private let bed: HeldBed
        private var position: Int64 = 0

        init(bed: HeldBed) {
            self.bed = bed
        }

        func seek(to frame: Int64) {
            position = frame
        }

        func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) {
            bed.read(from: position, frameCount: frameCount, into: output)
            position += Int64(frameCount)
        }

        var held: HeldBed? { bed }
    }
}
