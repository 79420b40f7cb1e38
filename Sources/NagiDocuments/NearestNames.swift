import Breath

/// Finds the names closest to a misspelt one, for "did you mean" hints.
public enum NearestNames {
    /// Names within `maxDistance` edits of `name` (case-insensitive), nearest first.
    public static func find(_ name: String, among candidates: [String], maxDistance: Int = 3) -> [String] {
        let target = Array(name.lowercased())
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let lowered = Array(candidate.lowercased())
            // Lengths further apart than maxDistance cannot be near: skip the quadratic work,
            // which a megabyte-long hostile name would otherwise make take seconds.
            guard abs(lowered.count - target.count) <= maxDistance else { return nil }
            let distance = editDistance(target, lowered)
            return distance <= maxDistance ? (candidate, distance) : nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    /// The optimal-string-alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbouring characters, so the common typo `--cylces` is one edit from `--cycles`.
    public static func editDistance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        let columnCount = target.count + 1
        // Three rolling rows: the swap rule looks two rows back.
        var beforePrevious = [Int](repeating: 0, count: columnCount)
        var previous = Array(0..<columnCount)
        var current = [Int](repeating: 0, count: columnCount)
        for row in 1...source.count {
            current[0] = row
            for column in 1...target.count {
                let substitutionCost = source[row - 1] == target[column - 1] ? 0 : 1
                var best = min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + substitutionCost)
                if row > 1, column > 1, source[row - 1] == target[column - 2], source[row - 2] == target[column - 1] {
                    best = min(best, beforePrevious[column - 2] + 1)
                }
                current[column] = best
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[target.count]
    }
}
