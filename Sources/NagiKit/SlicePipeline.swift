import Synth
import Locking

/// A sliced write: renderers render consecutive slices of the session into buffers, each taking the next slice
/// as soon as one of its own two buffers is free, one on each worker thread and one on the calling thread, which
/// also writes the slices in order and frees their buffers. No round waits for its slowest member: a thread that
/// finishes early takes the next slice, and the calling thread writes (the file's encoder, meter and system
/// calls) whenever the next slice is ready, rendering only while it is not.
///
/// Which renderer renders a slice does not matter (each seeks exactly to the slice's first frame), so the
/// samples reach the writer in the same order and with the same values as from one renderer. A renderer computes
/// its slice's control points before it synthesizes and hands the next slice's checkpoint (`SeekCheckpoint`) on
/// at once, so the renderer that takes the next slice seeks from it instead of replaying the control curves of
/// every slice it skipped: each block's control is computed once, and a worker waits only for the control (about
/// a quarter of a slice's work) of the slice before its own.
///
/// Each renderer renders only into its own two buffers, so a buffer's lines are last written on the core that
/// writes them next; shared round a ring, a buffer had often been written last by the other thread (its slice
/// converted in place). Measured, the difference is within this machine's noise: a 10-minute render to a pipe on
/// two threads 118.9 → 115.4 ms in one A/B run, 115.0 → 115.1 ms in another.
final class SlicePipeline: @unchecked Sendable {
    // @unchecked: a renderer is used by one thread (the calling thread owns renderer 0, each worker one of the
    // others, for the whole write); `buffers` slots are written by the one thread that took their slice and read
    // by the writer only after that thread marked them rendered, under `state`; everything else mutable is
    // guarded by `state`.
    private let renderers: [SoundtrackRenderer]
    private let buffers: SliceBuffers
    private let sliceCount: Int
    private let sliceFrameCount: Int
    private let totalFrameCount: Int64
    private let channelCount: Int
    /// Guards what follows; the workers and the calling thread wait on conditions of their own (`workersWait`,
    /// `callerWaits`), so a slice handed over wakes only who waits for it.
    private let state = ConditionLock(conditionCount: 2)
    /// The condition workers wait on: a free buffer, a checkpoint, the stop.
    private static let workersWait = 0
    /// The condition the calling thread waits on: a rendered slice, a free buffer, a checkpoint.
    private static let callerWaits = 1
    /// The next slice a renderer will take.
    private var nextSlice = 0
    /// Per slice, the buffer it is rendered into (−1: not taken yet).
    private var sliceSlot: [Int]
    /// Per buffer, whether a slice taken into it is not written yet. Renderer r's buffers are 2r and 2r + 1.
    private var slotInUse: [Bool]
    /// Per buffer, the slice last rendered into it (−1: none yet).
    private var renderedSlice: [Int]
    /// Per slice from 1 on, where its synthesis starts, put there by the worker of the slice before once that
    /// worker has computed its control, taken by the slice's worker.
    private var checkpoints: [Int: Renderer.SeekCheckpoint] = [:]
    /// Set when the writer stops early (a failure, cancellation): workers take no more slices.
    private var isStopped = false
    /// The bed the renderers share, when there is one: its producer runs on a thread of the pipeline's.
    private let bedFeed: SharedBedFeed?
    /// Frames before a slice's first that its renderer's seek reads the bed from.
    private let seekPrerollFrames: Int
    /// Output frames before the bed's frame 0 (a countdown's lead-in: the bed follows the breathing's clock).
    private let bedLeadInFrames: Int64
    /// What a worker does with a slice it rendered, on its thread (metering, conversion); nil: nothing.
    private let finishing: SliceFinishing?
    /// Per renderer, a block of floats its slices are rendered into a piece at a time and finished from, when
    /// `finishing` takes them in pieces (nil: rendered whole into their buffers, then finished).
    private let pieceScratch: SliceBuffers?
    /// Frames a slice is rendered in when it is converted piece by piece: a piece stays in its core's cache
    /// between the synthesis writing it and the conversion reading it.
    static let pieceFrameCount = 8192

    /// A pipeline of `renderers.count` renderers (renderer 0 on the calling thread, a worker thread for each
    /// other) over `sliceCount` slices of `sliceFrameCount` frames, with two buffers a renderer (so each can
    /// render one slice ahead of the writer).
    /// `bedFeed` is the looped bed `renderers` read (through cursors of it), nil without a bed, whose frame 0 is
    /// output frame `bedLeadInFrames`. `finishing` is given each slice as it is rendered, on the thread that
    /// rendered it, before the writer sees it (and may change it). When it takes slices in pieces
    /// (`SliceFinishing.finishesInPieces`: a stream only converted to 16 bits), each slice is rendered
    /// `pieceFrameCount` frames at a time into its renderer's scratch and converted from there, so the floats are
    /// read back from the core's cache rather than from a slice-long buffer (a 10-minute render to a pipe on two
    /// threads, about 120 ms: 1 to 3 ms sooner in five A/B runs of 21 to 61 rounds, 2 ms later in a sixth; the
    /// same bytes).
    init(
        renderers: [SoundtrackRenderer], sliceCount: Int, sliceFrameCount: Int, bedFeed: SharedBedFeed? = nil, bedLeadInFrames: Int64 = 0,
        finishing: SliceFinishing? = nil
    ) {
        self.renderers = renderers
        self.finishing = finishing
        pieceScratch = finishing?.finishesInPieces == true
            ? SliceBuffers(count: renderers.count, samples: Self.pieceFrameCount * renderers[0].channelCount) : nil
        self.bedFeed = bedFeed
        self.bedLeadInFrames = bedLeadInFrames
        seekPrerollFrames = Renderer.seekPrerollFrames(sampleRate: renderers[0].sampleRate)
        self.sliceCount = sliceCount
        self.sliceFrameCount = sliceFrameCount
        totalFrameCount = renderers[0].totalFrameCount
        channelCount = renderers[0].channelCount
        let slotCount = Self.bufferCount(workerCount: renderers.count)
        buffers = SliceBuffers(count: slotCount, samples: sliceFrameCount * channelCount)
        renderedSlice = Array(repeating: -1, count: slotCount)
        sliceSlot = Array(repeating: -1, count: sliceCount)
        slotInUse = Array(repeating: false, count: slotCount)
    }


    /// The buffers of a pipeline of `workerCount` renderers: two each.
    static func bufferCount(workerCount: Int) -> Int { 2 * workerCount }

    /// Renders every slice and hands each, in order, to `write` on the calling thread (with its first frame and
    /// the index of its buffer), which returns nil to go on or an error to stop; `shouldStop` is asked while the
    /// calling thread waits.
    ///
    /// The calling thread renders too (with renderer 0) whenever the next slice to write is not ready and one
    /// of its two buffers is free: `renderers.count` threads in all, not a writer beside them. On two cores a
    /// third thread only took turns with the renderers, and waking it for every slice cost two context switches
    /// a slice.
    /// - Returns: the first error `write` returned, or nil when every slice was written.
    func run(
        write: (_ samples: UnsafeBufferPointer<Float>, _ firstFrame: Int64, _ buffer: Int) -> SoundtrackError?,
        shouldStop: () -> SoundtrackError?
    ) -> SoundtrackError? {
        var failure: SoundtrackError?
        // Thread 0 makes the bed when there is one; the others render with renderers 1 and on.
        let producerCount = bedFeed == nil ? 0 : 1
        let worker: @Sendable (Int) -> Void = { [self] index in
            if index < producerCount {
                bedFeed?.produce()
            } else {
                renderSlices(rendererIndex: index - producerCount + 1)
            }
        }
        ParallelRunner.runBeside(workerCount: renderers.count - 1 + producerCount, worker: worker) { startedWorkers in
            guard startedWorkers >= producerCount else {
                failure = .writeFailed(reason: "no thread could be started to read the bed on")
                stop()
                return
            }
            failure = writeAndRenderSlices(write: write, shouldStop: shouldStop)
            stop()
        }
        return failure
    }

    /// A worker: takes the next slice whenever one of its renderer's buffers is free and renders it with renderer
    /// `rendererIndex`, until none is left.
    private func renderSlices(rendererIndex: Int) {
        let renderer = renderers[rendererIndex]
        while true {
            let taken: (slice: Int, slot: Int)? = state.waitUntil(
                on: Self.workersWait, { isStopped || nextSlice >= sliceCount || canTakeSlice(rendererIndex) }
            ) { _ in
                takeSlice(rendererIndex)
            }
            guard let taken, render(taken.slice, into: taken.slot, with: renderer, waitingOn: Self.workersWait) else { return }
        }
    }

    /// The calling thread: each slice in order, once rendered, written and its buffer freed; while the next is
    /// not rendered, it renders a slice itself when one can be taken.
    private func writeAndRenderSlices(
        write: (_ samples: UnsafeBufferPointer<Float>, _ firstFrame: Int64, _ buffer: Int) -> SoundtrackError?,
        shouldStop: () -> SoundtrackError?
    ) -> SoundtrackError? {
        let renderer = renderers[0]
        var slice = 0
        while slice < sliceCount {
            // Waits in short steps so a cancellation is seen while a slow worker renders.
            let step: CallerStep = state.waitUntil(
                on: Self.callerWaits, timeoutMilliseconds: 50, { isRendered(slice) || canTakeSlice(0) }
            ) { _ in
                if isRendered(slice) { return .write(slot: sliceSlot[slice]) }
                return takeSlice(0).map { .render($0.slice, slot: $0.slot) } ?? .wait
            }
            switch step {
            case .wait:
                if let reason = shouldStop() { return reason }
            case let .render(taken, slot):
                guard render(taken, into: slot, with: renderer, waitingOn: Self.callerWaits) else {
                    // Only this thread stops the pipeline, so this is not reached; were it, the file would be short.
                    return shouldStop() ?? .writeFailed(reason: "the sliced render stopped before its end")
                }
            case let .write(slot):
                let firstFrame = Int64(slice) * Int64(sliceFrameCount)
                let frameCount = Int(min(Int64(sliceFrameCount), totalFrameCount - firstFrame))
                let samples = buffers.buffer(slot)
                if let reason = write(UnsafeBufferPointer(rebasing: samples[0..<(frameCount * channelCount)]), firstFrame, slot) { return reason }
                slice += 1
                state.withLock(waking: Self.workersWait) { slotInUse[slot] = false }
                // The next slice's renderer reads the bed from its seek's pre-roll on, and no earlier slice is left.
                bedFeed?.release(below: Int64(slice) * Int64(sliceFrameCount) - bedLeadInFrames - Int64(seekPrerollFrames))
            }
        }
        return nil
    }

    /// What the calling thread does next.
    private enum CallerStep {
        /// Write the next slice, rendered in this buffer.
        case write(slot: Int)
        /// Render this slice into this buffer (of the calling thread's own).
        case render(Int, slot: Int)
        case wait
    }

    /// Whether `slice` is rendered and not yet written (under `state`).
    private func isRendered(_ slice: Int) -> Bool {
        let slot = sliceSlot[slice]
        return slot >= 0 && renderedSlice[slot] == slice
    }

    /// A free buffer of renderer `index`'s own two, `2 · index` and `2 · index + 1` (under `state`).
    private func freeSlot(of index: Int) -> Int? {
        if !slotInUse[2 * index] { return 2 * index }
        if !slotInUse[2 * index + 1] { return 2 * index + 1 }
        return nil
    }

    /// Whether a slice is left and a buffer of renderer `index` free for it (under `state`).
    private func canTakeSlice(_ index: Int) -> Bool {
        !isStopped && nextSlice < sliceCount && freeSlot(of: index) != nil
    }

    /// Takes the next slice for renderer `index` with one of its free buffers, when one can be taken (under `state`).
    private func takeSlice(_ index: Int) -> (slice: Int, slot: Int)? {
        guard !isStopped, nextSlice < sliceCount, let slot = freeSlot(of: index) else { return nil }
        slotInUse[slot] = true
        sliceSlot[nextSlice] = slot
        nextSlice += 1
        return (nextSlice - 1, slot)
    }

    /// Renders `slice` with `renderer` into its buffer, waiting on `condition` for its checkpoint, and marks it
    /// rendered; false when the pipeline stopped first.
    private func render(_ slice: Int, into slot: Int, with renderer: SoundtrackRenderer, waitingOn condition: Int) -> Bool {
        let firstFrame = Int64(slice) * Int64(sliceFrameCount)
        let frameCount = Int(min(Int64(sliceFrameCount), totalFrameCount - firstFrame))
        if slice > 0 {
            // Taken even when this renderer rendered the slice before (then it made it, and needs no seek).
            let checkpoint: Renderer.SeekCheckpoint? = state.waitUntil(on: condition, { isStopped || checkpoints[slice] != nil }) { _ in
                isStopped ? nil : checkpoints.removeValue(forKey: slice)
            }
            guard let checkpoint else { return false }
            if renderer.nextFrame != firstFrame { renderer.seek(from: checkpoint) }
        }
        if slice + 1 < sliceCount {
            let next = renderer.prepareControl(frameCount: frameCount, checkpointAt: firstFrame + Int64(frameCount))
            // Whoever took the next slice may wait for this, the calling thread or a worker.
            state.withLockWakingAll { checkpoints[slice + 1] = next }
        }
        let buffer = buffers.buffer(slot)
        // Renderer r's buffers are 2r and 2r + 1, its scratch r.
        if let finishing, let scratch = pieceScratch?.buffer(slot / 2), let piece = scratch.baseAddress, let samples = buffer.baseAddress {
            var done = 0
            while done < frameCount {
                let frames = min(Self.pieceFrameCount, frameCount - done)
                renderer.render(into: scratch, frameCount: frames)
                finishing.finish(piece: piece, frameCount: frames, at: done, inSlice: samples)
                done += frames
            }
        } else {
            renderer.render(into: buffer, frameCount: frameCount)
            finishing?.finish(UnsafeMutableBufferPointer(rebasing: buffer[0..<(frameCount * channelCount)]), firstFrame: firstFrame, buffer: slot)
        }
        state.withLock(waking: Self.callerWaits) { renderedSlice[slot] = slice }
        return true
    }

    /// Tells the workers to take no more slices (those rendering finish theirs) and the bed's producer to end.
    private func stop() {
        state.withLockWakingAll { isStopped = true }
        bedFeed?.stop()
    }

    /// The bed frames a sliced write keeps in flight for `workerCount` renderers: from the pre-roll of the
    /// oldest slice not yet written to the end of the newest a renderer may take (one buffer each, two per
    /// renderer), and a slice more.
    static func bedFramesInFlight(workerCount: Int, sliceFrameCount: Int, seekPrerollFrames: Int) -> Int {
        (2 * workerCount + 1) * sliceFrameCount + seekPrerollFrames
    }
}
