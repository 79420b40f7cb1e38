/// Finds the names closest to a misspelt one, for "did you mean" hints.
public enum NearestNames {
    /// The candidates within `maxDistance` edits of `name`, nearest first, ties in candidate order, each once.
    /// Case-insensitive unless `ignoringCase` is false (option names are case-sensitive).
    public static func find(_ name: String, among candidates: [String], maxDistance: Int = 3, ignoringCase: Bool = true) -> [String] {
        guard maxDistance >= 0 else { return [] }
        let target = ignoringCase ? Array(name.lowercased()) : Array(name)
        var scored: [(distance: Int, order: Int, name: String)] = []
        var seen: Set<String> = []
        for (order, candidate) in candidates.enumerated() where seen.insert(candidate).inserted {
            let folded = ignoringCase ? Array(candidate.lowercased()) : Array(candidate)
            // Lengths further apart than maxDistance cannot be near: skip the quadratic work,
            // which a megabyte-long hostile name would otherwise make take seconds.
            guard abs(folded.count - target.count) <= maxDistance else { continue }
            let distance = editDistance(target, folded)
            if distance <= maxDistance { scored.append((distance, order, candidate)) }
        }
        scored.sort { ($0.distance, $0.order) < ($1.distance, $1.order) }
        return scored.map(\.name)
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
