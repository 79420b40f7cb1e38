/// Finds the names closest to a misspelt one, for "did you mean" hints.
public enum NearestNames {
    /// Names within `maxDistance` edits of `name` (case-insensitive), nearest first.
    public static func find(_ name: String, among candidates: [String], maxDistance: Int = 3) -> [String] {
        let target = Array(name.lowercased())
        let scored = candidates.compactMap { candidate -> (String, Int)? in
            let distance = editDistance(target, Array(candidate.lowercased()))
            return distance <= maxDistance ? (candidate, distance) : nil
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }.map(\.0)
    }

    /// The Levenshtein distance between two character arrays.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
