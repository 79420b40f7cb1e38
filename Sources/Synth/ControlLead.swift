/// Control points a renderer computed ahead of its synthesis (`Renderer.prepareControl`): for each control block
/// from the synthesis's next one on, the block's end point and the beat's increment there, which the blocks then
/// read in order instead of asking the control sequencer. A sliced render computes a slice's control first, hands
/// the state at the next slice's start to whichever renderer takes it, and only then synthesizes: each block's
/// control is computed once, where a seek would replay every slice its renderer skipped.
///
/// Owned by one renderer; the buffers grow (outside the render loop) to the longest lead asked for.
final class ControlLead {
    /// The end points of the blocks led, `readIndex..<count` still to be read.
    private(set) var points = UnsafeMutableBufferPointer<ControlSequencer.Point>(start: nil, count: 0)
    /// The beat's increment at each led block's end, cycles per frame (0 without a beat).
    private(set) var beatIncrements = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
    /// The next block's entry.
    var readIndex = 0
    /// Entries led.
    var count = 0
    /// The synthesis's state after the last block led (its phases advanced through every entry), valid while
    /// entries are left.
    var endState = Renderer.EngineState()

    deinit {
        points.deallocate()
        beatIncrements.deallocate()
    }

    /// Whether every entry has been read.
    var isEmpty: Bool { readIndex >= count }

    /// Forgets every entry.
    func clear() {
        readIndex = 0
        count = 0
    }

    /// Makes room for `extra` more entries after `count`, moving the unread ones to the front first.
    func reserve(_ extra: Int) {
        if readIndex > 0 {
            let unread = count - readIndex
            if unread > 0, let pointBase = points.baseAddress, let beatBase = beatIncrements.baseAddress {
                pointBase.update(from: pointBase + readIndex, count: unread)
                beatBase.update(from: beatBase + readIndex, count: unread)
            }
            readIndex = 0
            count = unread
        }
        guard count + extra > points.count else { return }
        let capacity = max(count + extra, 2 * points.count)
        let grownPoints = UnsafeMutableBufferPointer<ControlSequencer.Point>.allocate(capacity: capacity)
        let grownBeats = UnsafeMutableBufferPointer<Double>.allocate(capacity: capacity)
        if count > 0, let pointBase = points.baseAddress, let beatBase = beatIncrements.baseAddress {
            grownPoints.baseAddress?.initialize(from: pointBase, count: count)
            grownBeats.baseAddress?.initialize(from: beatBase, count: count)
        }
        points.deallocate()
        beatIncrements.deallocate()
        points = grownPoints
        beatIncrements = grownBeats
    }

    /// The unread entries as a value a render loop reads in order without touching this class (its buffers and
    /// place copied out); setting `readIndex` to the cursor's `index` afterwards takes the place back.
    var cursor: Cursor { Cursor(points: points, beatIncrements: beatIncrements, index: readIndex, count: count) }

    /// A reader of a lead's entries, in order: see `cursor`.
    struct Cursor {
        let points: UnsafeMutableBufferPointer<ControlSequencer.Point>
        let beatIncrements: UnsafeMutableBufferPointer<Double>
        /// The next entry.
        var index: Int
        let count: Int

        /// The next entry (its beat increment nil when the render has no beat), or nil when every one is read.
        @inline(__always)
        mutating func next(hasBeat: Bool) -> (point: ControlSequencer.Point, beatIncrement: Double?)? {
            guard index < count else { return nil }
            defer { index += 1 }
            return (points[index], hasBeat ? beatIncrements[index] : nil)
        }
    }

    /// Appends a block's end point and beat increment (room reserved).
    @inline(__always)
    func append(_ point: ControlSequencer.Point, beatIncrement: Double) {
        points[count] = point
        beatIncrements[count] = beatIncrement
        count += 1
    }
}
