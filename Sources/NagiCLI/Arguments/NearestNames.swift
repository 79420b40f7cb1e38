/// The candidates within `maxDistance` edits of `name`, nearest first (ties keep candidate order).
///
/// Edits are insertions, deletions, substitutions and swaps of two neighbouring characters
/// (optimal string alignment), so the common typo `--cylces` is one edit from `--cycles`.
/// Used for option and command suggestions and for preset names.
public func nearestNames(to name: String, among candidates: [String], maxDistance: Int) -> [String] {
    guard maxDistance >= 0 else { return [] }
    let target = Array(name)
    var scored: [(distance: Int, order: Int, name: String)] = []
    var seen: Set<String> = []
    for (order, candidate) in candidates.enumerated() where seen.insert(candidate).inserted {
        let distance = editDistance(target, Array(candidate))
        if distance <= maxDistance {
            scored.append((distance, order, candidate))
        }
    }
    scored.sort { ($0.distance, $0.order) < ($1.distance, $1.order) }
    return scored.map(\.name)
}

/// How far an unknown word may be from a known one and still be suggested: short words need
/// near-exact matches, or `-x` would suggest `-o`.
func suggestionDistance(for word: String) -> Int {
    let letterCount = word.drop { $0 == "-" }.count
    return min(2, letterCount / 3)
}

/// Optimal-string-alignment distance between two character sequences.
func editDistance(_ source: [Character], _ target: [Character]) -> Int {
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
            var best = min(
                previous[column] + 1,
                current[column - 1] + 1,
                previous[column - 1] + substitutionCost
            )
            if row > 1, column > 1,
               source[row - 1] == target[column - 2], source[row - 2] == target[column - 1] {
                best = min(best, beforePrevious[column - 2] + 1)
            }
            current[column] = best
        }
        (beforePrevious, previous, current) = (previous, current, beforePrevious)
    }
    return previous[target.count]
}
