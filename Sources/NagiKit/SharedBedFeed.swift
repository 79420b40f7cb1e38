import BedSource
import NagiBase
import Locking
import Synth

/// One looped bed for all the renderers of a sliced write: a producer thread runs the bed's loop once, from its
/// first frame on, into a ring of session frames, and each renderer reads the frames of the slice it renders
/// through a `Cursor`. Without it every renderer would loop the bed itself, and a seek into a streamed bed
/// reads and discards the recording up to its place: two renderers taking turns each decoded the whole bed.
/// A bed held in memory needs none of this: its renderers read it straight (`HeldBed`).
///
/// The loop's frames do not depend on how they are read, so every renderer gets exactly what one renderer
/// reading the bed itself gets. The ring holds the frames from the oldest any renderer may still ask for
/// (`release(below:)`, which the writer raises as slices are written) to those the producer made ahead; the
/// producer waits when it is full, a reader when its frames are not made yet.
final class SharedBedFeed: LoopFrames, @unchecked Sendable {
    // @unchecked: the ring's frames are written by the producer only outside the span readers may still read
    // (below `lowestNeededFrame`, which never falls) and read only below `producedFrames`, both published under
    // `state`; the loop and the reader are the producer thread's alone, and `failure` is read after it ended.
    private let loop: any FrameReader<Never>
    private let reader: BedReader
    /// Interleaved channels per frame (the plan's).
    let channelCount: Int
    /// The session's rate, Hz.
    let sampleRate: Int
    private let ring: UnsafeMutableBufferPointer<Float>
    private let ringFrames: Int
    private let state = ConditionLock()
    /// Frames made so far: frames `producedFrames − ringFrames ..< producedFrames` are in the ring.
    private var producedFrames: Int64 = 0
    /// No read will ask for a frame before this.
    private var lowestNeededFrame: Int64 = 0
    /// The first frame no renderer reads (the session's first silent block, where the bed voice stops reading):
    /// the loop is run up to there and no further, so a recording damaged past what the session hears is read
    /// no further than one renderer reads it.
    private let endFrame: Int64
    private var isStopped = false

    /// Frames the producer makes at a time, and so how often a renderer waiting for the bed is woken: large,
    /// as the read-ahead's blocks are (`BedReadAhead`), so the threads hand over seldom.
    static let chunkFrames = 16_384

    /// A feed of `loop` (`reader` looped as `plan`'s bed voice loops it, made by
    /// `BedLooping.frames(of:for:largestRead:)` for reads of `chunkFrames`, at its first frame), holding at least
    /// `framesInFlight` frames (those between the oldest a renderer may still ask for and the newest).
    init(reader: BedReader, loop: any FrameReader<Never>, plan: RenderPlan, framesInFlight: Int) {
        self.reader = reader
        channelCount = plan.settings.channelCount
        sampleRate = plan.sampleRate
        self.loop = loop
        endFrame = Renderer.firstBedlessFrame(of: plan)
        // Room for a cursor's chunk past the newest frame asked for, and one for the producer to work ahead.
        let chunks = (framesInFlight + Self.chunkFrames - 1) / Self.chunkFrames + 2
        ringFrames = chunks * Self.chunkFrames
        ring = .allocate(capacity: ringFrames * channelCount)
        ring.initialize(repeating: 0)
    }

    deinit { ring.deallocate() }

    /// The recording's first failure, once the producer has ended (it then looped silence).
    var failure: SoundtrackError? { reader.failure.map { .bed($0) } }

    /// A reader of the feed's frames for one renderer, at frame 0: the loop's frames, endless (silence from the
    /// feed's last frame on). It lends the frames where they lie in the ring when they are all made and in one
    /// piece: the renderer mixes them from there (a copy of every bed frame into its scratch first was 1.4 % of a
    /// render over a streamed bed). They stay until the writer releases the slice being rendered, after the
    /// renderer is done with it.
    func makeCursor() -> LoopCursor<SharedBedFeed> { LoopCursor(self) }

    /// The producer: makes chunk after chunk while there is room, until `stop()` or its last frame; then it
    /// lets the recording go (`BedReader.finishReading`: the loop reads it no more).
    func produce() {
        defer { reader.finishReading() }
        while true {
            let start: Int64? = state.waitUntil({ isStopped || producedFrames + Int64(Self.chunkFrames) <= lowestNeededFrame + Int64(ringFrames) }) { _ in
                isStopped || producedFrames >= endFrame ? nil : producedFrames
            }
            guard let start, let base = ring.baseAddress else { return }
            let frameCount = Int(min(Int64(Self.chunkFrames), endFrame - start))
            // The ring is whole chunks long and chunks start on chunk boundaries: a chunk never wraps.
            let chunk = base + Int(start % Int64(ringFrames)) * channelCount
            _ = loop.read(into: UnsafeMutableBufferPointer(start: chunk, count: frameCount * channelCount))
            state.withLockWakingAll { producedFrames += Int64(frameCount) }
        }
    }

    /// Tells the producer no read will ask for a frame before `frame` again.
    func release(below frame: Int64) {
        state.withLockWakingAll { lowestNeededFrame = max(lowestNeededFrame, frame) }
    }

    /// Ends the producer (a read waiting for frames it will not make gets silence).
    func stop() {
        state.withLockWakingAll { isStopped = true }
    }

    /// What is made now, once frames up to `wanted` are (or the feed stopped): `knownMade` (what a reader last
    /// learned of `producedFrames`, which only grows) when it covers them, without the lock, since frames below
    /// `producedFrames` stay until released, and only the writer releases, past frames no reader asks for again.
    private func madeFrames(through wanted: Int64, knownMade: Int64) -> Int64 {
        knownMade >= wanted ? knownMade : state.waitUntil({ isStopped || producedFrames >= wanted }) { _ in producedFrames }
    }

    /// Copies frames `first ..< first + frameCount` into `output`, waiting until they are made unless
    /// `knownMade` (what this reader last learned of `producedFrames`, which only grows) already covers them
    /// (silence from `endFrame` on, and once the feed stopped without them); sets `knownMade` to what it knows is
    /// made now.
    func read(from first: Int64, frameCount: Int, into output: UnsafeMutablePointer<Float>, knownMade: inout Int64) {
        let wanted = max(first, min(first + Int64(frameCount), endFrame))
        let made = madeFrames(through: wanted, knownMade: knownMade)
        let copied = made >= wanted ? Int(wanted - first) : 0
        if copied > 0, let base = ring.baseAddress {
            precondition(first >= made - Int64(ringFrames), "a bed read behind the frames the feed still holds")
            var done = 0
            while done < copied {
                let index = Int((first + Int64(done)) % Int64(ringFrames))
                let count = min(copied - done, ringFrames - index)
                (output + done * channelCount).update(from: base + index * channelCount, count: count * channelCount)
                done += count
            }
        }
        (output + copied * channelCount).update(repeating: 0, count: (frameCount - copied) * channelCount)
        knownMade = made
    }

    /// Frames `first ..< first + frameCount` where they lie in the ring, `knownMade` updated as `read` updates it,
    /// or nil when they are not all made (past `endFrame`, or the feed stopped without them) or wrap round the
    /// ring's end: then `read` them.
    func framesInPlace(from first: Int64, frameCount: Int, knownMade: inout Int64) -> UnsafePointer<Float>? {
        let wanted = first + Int64(frameCount)
        guard wanted <= endFrame, let base = ring.baseAddress else { return nil }
        let made = madeFrames(through: wanted, knownMade: knownMade)
        let index = Int(first % Int64(ringFrames))
        knownMade = made
        guard made >= wanted, index + frameCount <= ringFrames else { return nil }
        precondition(first >= made - Int64(ringFrames), "a bed read behind the frames the feed still holds")
        return UnsafePointer(base + index * channelCount)
    }
}
