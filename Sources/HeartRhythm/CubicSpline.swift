/// A natural cubic spline through points with increasing x, evaluated on an even grid: how an RR series
/// (one value per beat, unevenly spaced) becomes an evenly sampled signal for a spectrum.
public struct CubicSpline: Sendable {
    let xs: [Double]
    let ys: [Double]
    /// Second derivatives at the knots (0 at both ends: a natural spline).
    let secondDerivatives: [Double]

    /// The spline through (`xs[i]`, `ys[i]`); `xs` must increase strictly and hold at least two points.
    public init(xs: [Double], ys: [Double]) {
        precondition(xs.count == ys.count && xs.count >= 2, "a spline needs two points or more")
        self.xs = xs
        self.ys = ys
        let count = xs.count
        var second = [Double](repeating: 0, count: count)
        var upper = [Double](repeating: 0, count: count)
        // The tridiagonal system for the inner knots, solved by the Thomas algorithm.
        for index in 1..<(count - 1) {
            let left = xs[index] - xs[index - 1]
            let right = xs[index + 1] - xs[index]
            let slope = (ys[index + 1] - ys[index]) / right - (ys[index] - ys[index - 1]) / left
            let diagonal = 2 * (left + right) - left * upper[index - 1]
            upper[index] = right / diagonal
            second[index] = (6 * slope - left * second[index - 1]) / diagonal
        }
        if count > 2 {
            for index in stride(from: count - 2, through: 1, by: -1) {
                second[index] -= upper[index] * second[index + 1]
            }
        }
        secondDerivatives = second
    }

    /// The spline at `x0, x0 + step, …` (`count` values); x beyond the ends is held at the end values.
    public func sample(from x0: Double, step: Double, count: Int) -> [Double] {
        var result = [Double](repeating: 0, count: count)
        var segment = 0
        let last = xs.count - 1
        for index in 0..<count {
            let x = x0 + Double(index) * step
            if x <= xs[0] { result[index] = ys[0]; continue }
            if x >= xs[last] { result[index] = ys[last]; continue }
            while segment < last - 1, xs[segment + 1] < x { segment += 1 }
            let width = xs[segment + 1] - xs[segment]
            let a = (xs[segment + 1] - x) / width
            let b = 1 - a
            result[index] = a * ys[segment] + b * ys[segment + 1]
                + ((a * a * a - a) * secondDerivatives[segment] + (b * b * b - b) * secondDerivatives[segment + 1]) * width * width / 6
        }
        return result
    }
}
