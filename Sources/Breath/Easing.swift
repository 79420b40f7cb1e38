import NagiMath

/// How the level moves within a phase: a pure function from progress p in [0, 1] to [0, 1].
public enum Easing: Sendable, Equatable {
    /// The cosine ease (1 − cos πp) / 2, the default (docs/sound-design.md § 1).
    case cosine
    /// A CSS-style cubic Bézier from (0, 0) to (1, 1) through two control points, solved for x by Newton's method.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// Constant speed.
    case linear

    /// The curve JSON names `"bezier"`: a symmetric ease in and out through (0.25, 0) and (0.75, 1)
    /// (docs/sound-design.md § 1).
    public static let easeInOutBezier = Easing.cubicBezier(x1: 0.25, y1: 0, x2: 0.75, y2: 1)

    /// The eased value at progress `p`; exactly 0 at p ≤ 0 and exactly 1 at p ≥ 1, non-decreasing between.
    public func value(at p: Double) -> Double {
        if !(p > 0) { return 0 }
        if p >= 1 { return 1 }
        switch self {
        case .linear:
            return p
        case .cosine:
            return (1 - cos(Double.pi * p)) * 0.5
        case let .cubicBezier(x1, y1, x2, y2):
            let t = Self.solveBezierParameter(x: p, x1: x1, x2: x2)
            return min(1, max(0, Self.bezier(t, y1, y2)))
        }
    }

    /// Whether the curve stays within [0, 1] and never falls: Bézier control points must lie in the unit square.
    public var isValid: Bool {
        switch self {
        case .linear, .cosine:
            return true
        case let .cubicBezier(x1, y1, x2, y2):
            return [x1, y1, x2, y2].allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 }
        }
    }

    /// The name used in JSON (`"cosine"`, `"linear"`, `"bezier"`).
    public var name: String {
        switch self {
        case .cosine: "cosine"
        case .linear: "linear"
        case .cubicBezier: "bezier"
        }
    }

    /// One coordinate of the Bézier at parameter t, with end points 0 and 1.
    static func bezier(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t
    }

    /// The derivative of `bezier` with respect to t.
    static func bezierSlope(_ t: Double, _ c1: Double, _ c2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * c1 + 6 * u * t * (c2 - c1) + 3 * t * t * (1 - c2)
    }

    /// The parameter t whose x is `x`: 8 Newton steps, falling back to bisection where the slope vanishes,
    /// so the answer stays within [0, 1] and keeps x(t) monotonic.
    static func solveBezierParameter(x: Double, x1: Double, x2: Double) -> Double {
        var t = x
        var converged = true
        for _ in 0..<8 {
            let error = bezier(t, x1, x2) - x
            if abs(error) < 1e-12 { return t }
            let slope = bezierSlope(t, x1, x2)
            if abs(slope) < 1e-9 { converged = false; break }
            t -= error / slope
            if t < 0 || t > 1 { converged = false; break }
        }
        if converged && abs(bezier(t, x1, x2) - x) < 1e-9 { return t }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<60 {
            t = (low + high) * 0.5
            if bezier(t, x1, x2) < x { low = t } else { high = t }
        }
        return t
    }
}

