/// A window of values kept sorted as they come and go: a rolling quantile in O(window) per step.
struct SortedWindow {
    private var values: [Double]

    init(capacity: Int) {
        values = []
        values.reserveCapacity(capacity + 1)
    }

    var isEmpty: Bool { values.isEmpty }

    mutating func insert(_ value: Double) {
        values.insert(value, at: position(of: value))
    }

    mutating func remove(_ value: Double) {
        let index = position(of: value)
        if index < values.count, values[index] == value { values.remove(at: index) }
    }

    /// The quantile `p` (0…1) by linear interpolation between order statistics (as pandas and numpy default).
    func quantile(_ p: Double) -> Double {
        guard let first = values.first else { return 0 }
        guard values.count > 1 else { return first }
        let position = p * Double(values.count - 1)
        let low = Int(position.rounded(.down)), high = min(low + 1, values.count - 1)
        return values[low] + (values[high] - values[low]) * (position - Double(low))
    }

    /// The first index whose value is not below `value`.
    private func position(of value: Double) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
