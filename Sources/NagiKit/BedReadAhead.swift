import BedSource
import NagiBase
import Glibc

/// A bed's frames read on a thread of its own, a few blocks ahead of their reader: a `FrameReader` in front of
/// another (the decoder, or the resampling stream), so that decoding, resampling and synthesis run on different
/// cores.
///
/// The output does not depend on timing: the producer reads its source in fixed blocks, pass after pass (it
/// rewinds by itself at each end), into a bounded ring; a block shorter than full marks a pass's end, where
/// `read` returns short exactly as the source would, and `rewind` then moves on to the pass the producer has
/// already begun (a rewind in the middle of a pass, as a seek makes, stops the producer and starts again from
/// the first frame). A failure is handed over with the block where it happened, so only a failure the reader
/// actually reached is thrown. The thread stops and is joined when this object goes.
///
/// A reader that must not wait (a real-time callback) sets `waits` to false: a read the producer has not
/// caught up with then returns what is there and sets `lastReadUnderran`, and the caller fills the rest.
final class BedReadAhead: FrameReader {
    let channelCount: Int
    let sampleRate: Int
    /// The source's length, as it says.
    let frameCount: Int64?
    /// Frames handed out since the last seek, from where it went.
    private(set) var nextFrame: Int64 = 0
    /// Frames the producer reads from its source at a time (a read past them waits for the next block).
    static var blockFrames: Int { BlockRing.blockFrames }
    /// Whether a read waits for the producer (the default: exact, the same frames as the source gives).
    var waits = true
    /// Whether the last read came back short because the producer was behind (only when `waits` is false).
    private(set) var lastReadUnderran = false
    private let source: any FrameReader<BedStreamError>
    private var ring: BlockRing
    private var thread = pthread_t()
    private var threadStarted = false
    /// Frames of the current block already handed out.
    private var blockOffset = 0
    /// A short read returned the end of a pass; `read` returns 0 until `rewind`.
    private var atPassEnd = false
    /// The failure reached, thrown again by every later read.
    private var failure: BedStreamError?

    /// Starts reading `source` ahead, pass after pass.
    init(reading source: any FrameReader<BedStreamError>) {
        channelCount = source.channelCount
        sampleRate = source.sampleRate
        frameCount = source.frameCount
        self.source = source
        ring = BlockRing(source: source)
        startProducer()
    }

    /// Starts the thread that fills `ring` (or, when no thread can start, has the reader fill it on demand).
    private func startProducer() {
        let context = Unmanaged.passRetained(ring).toOpaque()
        threadStarted = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            Unmanaged<BlockRing>.fromOpaque(context).takeRetainedValue().produce()
            return nil
        }, context) == 0
        if !threadStarted {
            // No second thread: the ring is filled on demand by the reader's thread instead.
            Unmanaged<BlockRing>.fromOpaque(context).release()
            ring.producesOnDemand = true
        }
    }

    /// Ends the producer thread and waits for it.
    private func stopProducer() {
        ring.stop()
        if threadStarted { pthread_join(thread, nil) }
        threadStarted = false
    }

    deinit {
        stopProducer()
    }

    func read(into output: UnsafeMutableBufferPointer<Float>) throws(BedStreamError) -> Int {
        if let failure { throw failure }
        lastReadUnderran = false
        guard let base = output.baseAddress, !atPassEnd else { return 0 }
        let frameCount = output.count / channelCount
        var done = 0
        while done < frameCount {
            guard let block = ring.front(waiting: waits) else {
                lastReadUnderran = !ring.isFinished
                break
            }
            let take = min(frameCount - done, block.frameCount - blockOffset)
            (base + done * channelCount).update(from: block.samples + blockOffset * channelCount, count: take * channelCount)
            done += take
            blockOffset += take
            if blockOffset == block.frameCount {
                ring.popFront()
                blockOffset = 0
                if let error = block.failure {
                    failure = error
                    if done == 0 { throw error }
                    break
                }
                if block.frameCount < BlockRing.blockFrames {
                    atPassEnd = true
                    break
                }
            }
        }
        nextFrame += Int64(done)
        return done
    }

    /// Moves to `frame`: back to the first frame (the pass the producer has begun, when the last ended), then
    /// reads on to `frame`, as the source would give them (waiting for the producer, whatever `waits` says: a
    /// seek is exact).
    /// - Throws: the failure reached, or one met getting there.
    func seek(toFrame frame: Int64) throws(BedStreamError) {
        try restart()
        guard frame > 0 else { return }
        let waited = waits
        waits = true
        defer { waits = waited }
        try skip(frameCount: frame)
    }

    /// Back to the source's first frame.
    private func restart() throws(BedStreamError) {
        if let failure { throw failure }
        nextFrame = 0
        if atPassEnd {
            // The producer began the next pass when it met the end.
            atPassEnd = false
            return
        }
        // Back from the middle of a pass (a seek): the producer is stopped, what it read ahead dropped, and
        // reading starts again from the source's first frame.
        stopProducer()
        do { try source.rewind() } catch {
            failure = error
            throw error
        }
        ring = BlockRing(source: source)
        blockOffset = 0
        startProducer()
    }
}

/// The bounded ring of blocks between a bed's producer thread and its reader, behind one mutex.
private final class BlockRing: @unchecked Sendable {
    // @unchecked: `produced`, `consumed`, `stopping` and `finished` are read and written under `mutex` (but when no
    // producer thread runs, `producesOnDemand`: then the consumer is the only thread); a slot is filled only by the
    // producer while it is free and read only by the consumer once published; `source` and `framesInPass` are
    // the producer's alone.
    /// Frames per block: each block is a hand-over between threads, and a thread that waits for one costs two
    /// context switches. At 8 192 frames ten minutes over a 5-minute bed switched 7 000 to 12 700 times (all
    /// threads, `perf stat`); at 32 768, with the feed's larger chunks (`SharedBedFeed.chunkFrames`), 2 500 to
    /// 3 400, and the render took 5 % less time.
    static let blockFrames = 32_768
    /// Blocks in the ring: about 2.7 s ahead at 48 kHz (1 MiB in stereo).
    static let slotCount = 4

    /// One block as the consumer sees it.
    struct Block {
        var samples: UnsafeMutablePointer<Float>
        var frameCount: Int
        var failure: BedStreamError?
    }

    /// Filled on the consumer's thread when no producer thread could start.
    var producesOnDemand = false
    private let source: any FrameReader<BedStreamError>
    private let channelCount: Int
    private let storage: UnsafeMutablePointer<Float>
    /// Per slot, raw storage rather than arrays: the producer writes one slot while the consumer reads another,
    /// and an array's copy-on-write check would make that a race.
    private let frameCounts: UnsafeMutablePointer<Int>
    private let failures: UnsafeMutablePointer<BedStreamError?>
    private var produced = 0
    private var consumed = 0
    private var stopping = false
    /// The producer met a failure or an empty pass: nothing more will come.
    private var finished = false
    private var framesInPass = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    init(source: any FrameReader<BedStreamError>) {
        self.source = source
        channelCount = source.channelCount
        storage = .allocate(capacity: Self.slotCount * Self.blockFrames * source.channelCount)
        frameCounts = .allocate(capacity: Self.slotCount)
        frameCounts.initialize(repeating: 0, count: Self.slotCount)
        failures = .allocate(capacity: Self.slotCount)
        failures.initialize(repeating: nil, count: Self.slotCount)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
        storage.deallocate()
        frameCounts.deallocate()
        failures.deinitialize(count: Self.slotCount)
        failures.deallocate()
    }

    private func slot(_ index: Int) -> UnsafeMutablePointer<Float> {
        storage + (index % Self.slotCount) * Self.blockFrames * channelCount
    }

    /// The producer thread's loop: fill free slots until stopped or finished.
    func produce() {
        while true {
            pthread_mutex_lock(mutex)
            while !stopping && produced - consumed == Self.slotCount { pthread_cond_wait(changed, mutex) }
            let done = stopping || finished
            let index = produced
            pthread_mutex_unlock(mutex)
            if done { return }
            let more = fill(index)
            pthread_mutex_lock(mutex)
            produced += 1
            if !more { finished = true }
            pthread_cond_broadcast(changed)
            pthread_mutex_unlock(mutex)
            if !more { return }
        }
    }

    /// Reads one block into slot `index` (a free slot only this producer touches); false when nothing more
    /// can follow it.
    private func fill(_ index: Int) -> Bool {
        let target = UnsafeMutableBufferPointer(start: slot(index), count: Self.blockFrames * channelCount)
        var frames = 0
        var failure: BedStreamError?
        do { frames = try source.read(into: target) } catch { failure = error }
        frameCounts[index % Self.slotCount] = frames
        framesInPass += frames
        if failure == nil && frames < Self.blockFrames {
            // An empty pass would loop for ever: stop instead.
            if framesInPass == 0 { return false }
            framesInPass = 0
            do { try source.rewind() } catch { failure = error }
        }
        failures[index % Self.slotCount] = failure
        return failure == nil
    }

    /// Whether nothing more will come (read under the lock).
    var isFinished: Bool {
        if producesOnDemand { return finished && consumed == produced }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return finished && consumed == produced
    }

    /// The oldest unread block, waiting for the producer if `waiting` and need be; nil once nothing more will
    /// come, or (not waiting) when the producer is behind.
    func front(waiting: Bool) -> Block? {
        if producesOnDemand {
            if consumed == produced {
                if finished { return nil }
                let more = fill(produced)
                produced += 1
                if !more { finished = true }
            }
            return block(consumed)
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while waiting && consumed == produced && !finished { pthread_cond_wait(changed, mutex) }
        return consumed == produced ? nil : block(consumed)
    }

    private func block(_ index: Int) -> Block {
        Block(samples: slot(index), frameCount: frameCounts[index % Self.slotCount], failure: failures[index % Self.slotCount])
    }

    /// Frees the oldest block for the producer.
    func popFront() {
        pthread_mutex_lock(mutex)
        consumed += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// Asks the producer to end.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }
}
