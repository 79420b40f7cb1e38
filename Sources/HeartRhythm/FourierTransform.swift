import NagiMath

/// An in-place radix-2 complex FFT of one power-of-two size, its twiddle factors computed once.
struct FourierTransform {
    let size: Int
    private let cosines: [Double]
    private let sines: [Double]

    /// A transform of `size` points; `size` must be a power of two.
    init(size: Int) {
        precondition(size > 0 && size & (size - 1) == 0, "the FFT size must be a power of two")
        self.size = size
        cosines = (0..<(size / 2)).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<(size / 2)).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
    }

    /// Transforms (`real`, `imaginary`) in place: X[k] = Σ x[n]·e^(−2πikn/N).
    func transform(real: inout [Double], imaginary: inout [Double]) {
        real.withUnsafeMutableBufferPointer { re in
            imaginary.withUnsafeMutableBufferPointer { im in
                var target = 0
                for index in 0..<size {
                    if index < target {
                        re.swapAt(index, target)
                        im.swapAt(index, target)
                    }
                    var bit = size >> 1
                    while bit > 0, target & bit != 0 {
                        target ^= bit
                        bit >>= 1
                    }
                    target |= bit
                }
                var length = 2
                while length <= size {
                    let half = length / 2
                    let stride = size / length
                    var start = 0
                    while start < size {
                        for offset in 0..<half {
                            let c = cosines[offset * stride], s = sines[offset * stride]
                            let even = start + offset, odd = even + half
                            let oddRe = re[odd] * c - im[odd] * s
                            let oddIm = re[odd] * s + im[odd] * c
                            re[odd] = re[even] - oddRe
                            im[odd] = im[even] - oddIm
                            re[even] += oddRe
                            im[even] += oddIm
                        }
                        start += length
                    }
                    length *= 2
                }
            }
        }
    }
}
