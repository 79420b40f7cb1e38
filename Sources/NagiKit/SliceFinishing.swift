import AudioFile

/// What the thread that rendered a slice does to it before the writer takes it: meters it (a tagged file's
/// `SliceMeters`) and, for a 16-bit file, converts it to 16-bit PCM in place, all but the frames the writer's
/// meter weights itself from the floats (`LoudnessSlice.headFrameCount`). Done there, the conversion reads a
/// slice still in the renderer's cache and leaves the writing thread, the pipeline's busiest, only the writing:
/// converting every slice on it was 8 ms of a 10-minute render's critical path.
struct SliceFinishing: Sendable {
    /// The metering of each buffer's slice, nil when the file is not metered.
    let meters: SliceMeters?
    /// Whether slices are converted where they were rendered (`AudioFileWriter.takesConvertedPCM16`).
    let converts: Bool
    let channelCount: Int

    /// Meters and converts `samples`, the stream's frames from `firstFrame` on, in buffer `index`.
    func finish(_ samples: UnsafeMutableBufferPointer<Float>, firstFrame: Int64, buffer index: Int) {
        meters?.measure(UnsafeBufferPointer(samples), firstFrame: firstFrame, into: index)
        guard converts, let base = samples.baseAddress else { return }
        let floatSamples = floatFrameCount(buffer: index, frameCount: samples.count / channelCount) * channelCount
        PCM16Conversion.convertInPlace(base + floatSamples, count: samples.count - floatSamples)
    }

    /// Whether a slice can be finished piece by piece as it is rendered (`finish(piece:frameCount:at:inSlice:)`):
    /// a stream only converted to 16 bits, not metered (standard output, raw PCM). A metered slice is weighted
    /// as two halves at once (`LoudnessSlice`), so it needs the whole slice's floats.
    var finishesInPieces: Bool { converts && meters == nil }

    /// Converts `frameCount` frames at `piece`, the slice's frames from `frameOffset` on, to 16-bit samples in
    /// `slice` (its buffer) where `finish` would have left them: the slice's samples, 16 bits each, from the
    /// buffer's first byte. The bytes are written by C into memory that stays bound to `Float`, as
    /// `PCM16Conversion.convertInPlace` writes them, and the writer hands them to C alone. Only when
    /// `finishesInPieces`.
    func finish(piece: UnsafePointer<Float>, frameCount: Int, at frameOffset: Int, inSlice slice: UnsafeMutablePointer<Float>) {
        precondition(finishesInPieces, "a metered slice is finished whole")
        let target = UnsafeMutableRawPointer(slice) + frameOffset * channelCount * MemoryLayout<Int16>.stride
        PCM16Conversion.convert(piece, count: frameCount * channelCount, into: target.assumingMemoryBound(to: Int16.self))
    }

    /// The frames at the start of buffer `index`'s slice of `frameCount` frames left as floats: the meter's head,
    /// or all of them when slices are not converted.
    func floatFrameCount(buffer index: Int, frameCount: Int) -> Int {
        guard converts else { return frameCount }
        return min(frameCount, meters?.slice(index).headFrameCount ?? 0)
    }
}
