/// A horizontal strip of a plot: a box as wide as the plot's drawing area, from `top` down `height` pixels. Each
/// plot's panel adds its own time axis (`x`); the box and the value axis (`y`) are this one.
protocol PlotPanel {
    /// The strip's top edge, pixels from the drawing's top.
    var top: Double { get }
    /// The strip's height, pixels.
    var height: Double { get }
}

extension PlotPanel {
    /// The drawing area's left edge, pixels.
    var left: Double { SessionPlot.marginLeft }
    /// The drawing area's width, pixels.
    var plotWidth: Double { SessionPlot.width - SessionPlot.marginLeft - SessionPlot.marginRight }

    /// Where `value` stands in the strip, `range` spanning it bottom to top (clamped to the strip; the middle when
    /// the range is empty).
    func y(_ value: Double, in range: ClosedRange<Double>) -> Double {
        let span = range.upperBound - range.lowerBound
        let fraction = span > 0 ? (value - range.lowerBound) / span : 0.5
        return top + height * (1 - min(1, max(0, fraction)))
    }
}
