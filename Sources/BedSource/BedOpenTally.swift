import Locking

/// The opens of bed recordings, counted by path for the paths a test watches: every bed is opened through
/// `BedDecoder.init`, so a test sees from here how often a render opened its bed (a render opens it at most 3
/// times: the measurement's two decoders, which the loudness pass then reads, and the held copy's read or the
/// write's stream). Paths nobody watches are not counted, so a long-lived server keeps nothing.
package enum BedOpenTally {
    private static let counts = Locked<[String: Int]>([:])

    /// Counts the opens of `path` from now on, from 0.
    package static func watch(_ path: String) {
        counts.withLock { $0[path] = 0 }
    }

    /// The opens of `path` since `watch(path)` (0 when it is not watched).
    package static func opens(of path: String) -> Int {
        counts.withLock { $0[path] ?? 0 }
    }

    /// Stops counting `path`.
    package static func forget(_ path: String) {
        counts.withLock { $0[path] = nil }
    }

    /// Counts an open of `path` when it is watched.
    static func opened(_ path: String) {
        counts.withLock { counts in
            if let opens = counts[path] { counts[path] = opens + 1 }
        }
    }
}
