import NagiBase

/// Turns untrusted titles and names into file names that stay inside their folder.
package enum FileNames {
    /// A safe file name stem: no path separators, no `..`, none of the control or invisible characters
    /// `DisplayText` refuses (which could disguise a name), no leading dot,
    /// at most 120 UTF-8 bytes; never empty.
    package static func safeStem(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "/", "\\", ":", "*", "?", "\"", "<", ">", "|":
                scalars.append("-")
            case _ where DisplayText.isHidden(scalar):
                continue
            default:
                scalars.append(scalar)
            }
        }
        var stem = String(scalars).trimmingCharacters(in: " .")
        while stem.contains("..") {
            stem = stem.replacingOccurrences(of: "..", with: ".")
        }
        while stem.utf8.count > 120 {
            stem.removeLast()
        }
        stem = stem.trimmingCharacters(in: " .")
        return stem.isEmpty ? "untitled" : stem
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result.removeFirst() }
        while let last = result.last, set.contains(last) { result.removeLast() }
        return String(result)
    }

    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
