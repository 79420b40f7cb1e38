// The elementary functions the pure model and DSP code need, from the C library, behind one small
// module: Breath and Synth import this instead of Glibc or Foundation (Foundation alone costs about
// 7 MB of resident memory at startup). Each wrapper inlines to the C call. `CLibrary` is the platform's
// C library (Glibc, Musl, Darwin, ...), picked there by `#if canImport`, so this builds on any Swift platform.

import CLibrary

/// The cosine of `x` radians.
@inlinable @inline(__always) public func cos(_ x: Double) -> Double { CLibrary.cos(x) }
/// The sine of `x` radians.
@inlinable @inline(__always) public func sin(_ x: Double) -> Double { CLibrary.sin(x) }
/// eˣ.
@inlinable @inline(__always) public func exp(_ x: Double) -> Double { CLibrary.exp(x) }
/// 2ˣ.
@inlinable @inline(__always) public func exp2(_ x: Double) -> Double { CLibrary.exp2(x) }
/// The natural logarithm.
@inlinable @inline(__always) public func log(_ x: Double) -> Double { CLibrary.log(x) }
/// The base-2 logarithm.
@inlinable @inline(__always) public func log2(_ x: Double) -> Double { CLibrary.log2(x) }
/// The base-10 logarithm.
@inlinable @inline(__always) public func log10(_ x: Double) -> Double { CLibrary.log10(x) }
/// xʸ.
@inlinable @inline(__always) public func pow(_ x: Double, _ y: Double) -> Double { CLibrary.pow(x, y) }
/// `x` rounded half away from zero.
@inlinable @inline(__always) public func round(_ x: Double) -> Double { CLibrary.round(x) }
/// The angle of the point (`x`, `y`) in radians, in (−π, π].
@inlinable @inline(__always) public func atan2(_ y: Double, _ x: Double) -> Double { CLibrary.atan2(y, x) }
