import FoundationEssentials

/// The pages `nagi serve` shows and their assets, carried inside the binary, generated from the package's `Web/`.
package enum WebAssets {
    /// Every file's bytes, keyed by its path below `Web/` ("index.html", "assets/pacer.js"); decoded once, on first use.
    package static let files: [String: [UInt8]] = embeddedWebTable.compactMapValues { text in
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
