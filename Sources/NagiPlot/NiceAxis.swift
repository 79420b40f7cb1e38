import NagiDocuments

/// A value axis with round ticks: the step is 1, 2, 2.5 or 5 times a power of ten, and the axis runs
/// from a multiple of the step below the data to one above it, so every tick is a number a reader
/// would write (0.25, not "0.3"; 200 Hz, not 187.3).
struct NiceAxis: Equatable {
    /// The axis's span: the data's range widened to whole steps.
    var range: ClosedRange<Double>
    var step: Double
    /// The tick values, from `range.lowerBound` to `range.upperBound`.
    var ticks: [Double]
    /// Decimals that show every tick exactly.
    var decimals: Int

    /// An axis covering `data` with about `targetTickCount` ticks.
    init(covering data: ClosedRange<Double>, targetTickCount: Int = 5) {
        var low = data.lowerBound, high = data.upperBound
        if !(high - low > 1e-12) { low -= 1; high += 1 }
        let rough = (high - low) / Double(max(1, targetTickCount - 1))
        var magnitude = 1.0
        while magnitude > rough { magnitude /= 10 }
        while magnitude * 10 <= rough { magnitude *= 10 }
        // The round step nearest the rough one (by ratio), so 0...2.5 steps by 0.5, not 1.
        let multiple = [1.0, 2, 2.5, 5, 10].min { a, b in
            max(a * magnitude / rough, rough / (a * magnitude)) < max(b * magnitude / rough, rough / (b * magnitude))
        } ?? 1
        let step = multiple * magnitude
        // A hair of tolerance, so 1.0000000001 does not add a whole step.
        let first = (low / step + 1e-9).rounded(.down)
        let last = (high / step - 1e-9).rounded(.up)
        self.step = step
        range = (first * step)...(last * step)
        ticks = stride(from: first, through: last, by: 1).map { $0 * step + 0.0 }
        var places = 0
        var scaled = step
        while places < 6, abs(scaled - scaled.rounded()) > 1e-9 {
            scaled *= 10
            places += 1
        }
        decimals = places
    }

    /// A tick's label: exactly `decimals` decimals.
    func label(_ value: Double) -> String {
        NumberText.fixed(value, decimals: decimals)
    }
}
