import BedSource
import Synth

/// A bed read whole into memory on a thread of its own while a soundtrack is prepared (`Soundtrack.prepare`),
/// for every write of it to share: filled by that thread, read by the preparing one after it joined it.
final class HeldBedSlot: @unchecked Sendable {
    // @unchecked: `held` is written only by the reading thread, before it ends, and read only after the join.
    private(set) var held: HeldBed?

    /// The read of the bed at `path` into this slot, for a thread to run, when the recording (by what `decoder`,
    /// its first open, says of its length) is one a write would hold (`BedLooping.holdsInMemory`) under a session
    /// that hears `heardFrameCount` frames at `sampleRate`. Nil for any other: each write streams it.
    func reading(path: String, decoder: BedDecoder, sampleRate: Int, heardFrameCount: Int64) -> (@Sendable () -> Void)? {
        let channels = decoder.channelCount
        guard let expected = BedStream.frameCount(of: decoder, at: sampleRate),
              BedLooping.holdsInMemory(expectedFrameCount: expected, channelCount: channels, heardFrameCount: heardFrameCount) else { return nil }
        return { [self] in
            // On this thread alone (the other core measures the bed and compiles the plan meanwhile). On any fault
            // nothing is held, and the write opens the bed as it did before this, meeting and reporting the fault.
            guard let reader = try? BedReader(path: path, sampleRate: sampleRate, channelCount: channels, readAhead: .none) else { return }
            let loop = BedLooping.frames(of: reader, sampleRate: sampleRate, heardFrameCount: heardFrameCount, largestRead: SharedBedFeed.chunkFrames)
            if reader.failure == nil { held = loop.held }
        }
    }
}
