import BedSource
import Glibc
import Synth

/// A recording read on a thread of its own, a few blocks ahead of its reader. The renderer's bed is two of
/// these in a row: one decodes the file (libFLAC and the like), the next resamples what it decoded (libsoxr),
/// and the renderer mixes; each costs about as much as the whole synthesis, so the three share the cores.
///
/// The output does not depend on timing: the producer reads the recording in fixed blocks, pass after pass
/// (it rewinds by itself at each end), into a bounded ring of blocks; a block shorter than full marks a pass's
/// end, where `read` returns short exactly as the stream would, and `rewind` then moves on to the next pass the
/// producer has already begun. A failure is handed over with the block where it happened, so only a failure
/// the renderer actually reached is reported. The thread stops and is joined when this object goes.
final class BedPrefetcher: BedRecording, PassReader {
    let channelCount: Int
    /// The first read failure the renderer reached, if any.
    private(set) var failure: BedStreamError?
    private let ring: BlockRing
    private var thread = pthread_t()
    private var threadStarted = false
    /// Frames of the current block already handed out.
    private var blockOffset = 0
    /// A short read returned the end of a pass; `read` returns 0 until `rewind`.
    private var atPassEnd = false

    /// The renderer's bed: `path` opened (and checked) as `StreamedBed` does, decoded on one read-ahead thread
    /// and resampled on this one's.
    convenience init(path: String, sampleRate: Int, channelCount: Int) throws(CLIError) {
        self.init(reading: try StreamedBed(path: path, sampleRate: sampleRate, channelCount: channelCount, decodesAhead: true))
    }

    /// Starts reading `source` ahead, pass after pass.
    init(reading source: PassReader) {
        channelCount = source.channelCount
        ring = BlockRing(source: source)
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

    deinit {
        ring.stop()
        if threadStarted { pthread_join(thread, nil) }
    }

    func read(into output: UnsafeMutablePointer<Float>, frameCount: Int) -> Int {
        if atPassEnd || failure != nil { return 0 }
        var done = 0
        while done < frameCount {
            guard let block = ring.front() else { break }
            let take = min(frameCount - done, block.frameCount - blockOffset)
            (output + done * channelCount).update(from: block.samples + blockOffset * channelCount, count: take * channelCount)
            done += take
            blockOffset += take
            if blockOffset == block.frameCount {
                ring.popFront()
                blockOffset = 0
                if let error = block.failure {
                    failure = error
                    break
                }
                if block.frameCount < BlockRing.blockFrames {
                    atPassEnd = true
                    break
                }
            }
        }
        return done
    }

    func rewind() {
        // The producer began the next pass when it met the end.
        atPassEnd = false
    }
}

/// The bounded ring of blocks between the bed's producer thread and the renderer, behind one mutex.
private final class BlockRing: @unchecked Sendable {
    /// Frames per block.
    static let blockFrames = 8_192
    /// Blocks in the ring: about 1.4 s ahead at 48 kHz.
    static let slotCount = 8

    /// One block as the consumer sees it.
    struct Block {
        var samples: UnsafeMutablePointer<Float>
        var frameCount: Int
        var failure: BedStreamError?
    }

    /// Filled on the consumer's thread when no producer thread could start.
    var producesOnDemand = false
    private let source: PassReader
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

    init(source: PassReader) {
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
        let frames = source.read(into: slot(index), frameCount: Self.blockFrames)
        frameCounts[index % Self.slotCount] = frames
        failures[index % Self.slotCount] = source.failure
        framesInPass += frames
        if source.failure != nil { return false }
        if frames < Self.blockFrames {
            // An empty pass would loop for ever: stop instead.
            if framesInPass == 0 { return false }
            framesInPass = 0
            source.rewind()
        }
        return true
    }

    /// The oldest unread block, waiting for the producer if need be; nil once nothing more will come.
    func front() -> Block? {
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
        while consumed == produced && !finished { pthread_cond_wait(changed, mutex) }
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
