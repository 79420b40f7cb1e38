import Locking
import NagiKit

/// The soundtracks prepared lately, by their request's key, so that a browser's range requests (a seek, a replay)
/// do not prepare the same soundtrack again: its loudness pass, its bed's measurement and its plan. Holds at most
/// `capacity`, the least recently used leaving first.
final class SoundtrackCache: Sendable {
    private let capacity: Int
    /// Most recently used last.
    private let entries = Locked<[(key: String, soundtrack: Soundtrack)]>([])

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The soundtrack for `key`: the one kept, or a new one from `prepare` (outside the lock: two requests for one key
    /// at once may both prepare it; the samples are the same).
    func soundtrack(for key: String, prepare: () throws(SoundtrackError) -> Soundtrack) throws(SoundtrackError) -> Soundtrack {
        if let kept = entries.withLock({ entries -> Soundtrack? in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.soundtrack
        }) {
            return kept
        }
        let soundtrack = try prepare()
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            entries.append((key, soundtrack))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
        return soundtrack
    }
}
