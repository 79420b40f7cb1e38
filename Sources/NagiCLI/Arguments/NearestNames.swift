import Breath
import NagiDocuments

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
        let distance = NearestNames.editDistance(target, Array(candidate))
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
