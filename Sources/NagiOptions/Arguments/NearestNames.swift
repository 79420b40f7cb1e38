import NagiDocuments

/// The candidates within `maxDistance` edits of `name`, nearest first (ties keep candidate order).
///
/// Edits are insertions, deletions, substitutions and swaps of two neighbouring characters
/// (optimal string alignment), so the common typo `--cylces` is one edit from `--cycles`.
/// Used for option and command suggestions and for preset names.
public func nearestNames(to name: String, among candidates: [String], maxDistance: Int) -> [String] {
    NearestNames.find(name, among: candidates, maxDistance: maxDistance, ignoringCase: false)
}

/// How far an unknown word may be from a known one and still be suggested: short words need
/// near-exact matches, or `-x` would suggest `-o`.
package func suggestionDistance(for word: String) -> Int {
    let letterCount = word.drop { $0 == "-" }.count
    return min(2, letterCount / 3)
}
