import Glibc

/// Names of in-progress output files: ".<name>.nagi-partial-<pid>", hidden and never mistaken for a track, with
/// the writing process's id so a later run can tell a crashed writer's leftovers from a live one's.
enum PartialFileName {
    static let marker = ".nagi-partial-"

    /// The temporary name for a final file name.
    static func make(for finalName: String, pid: pid_t) -> String {
        ".\(finalName)\(marker)\(pid)"
    }

    /// The writer's process id encoded in a temporary name, or nil when `name` is not one.
    static func ownerPID(of name: String) -> pid_t? {
        guard name.hasPrefix("."), let range = lastRange(of: marker, in: name) else { return nil }
        // There must be a final name between the leading dot and the marker.
        guard name.index(after: name.startIndex) < range.lowerBound else { return nil }
        let digits = name[range.upperBound...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let pid = pid_t(digits), pid > 0
        else { return nil }
        return pid
    }

    /// The range of the last occurrence of `marker` in `name`.
    private static func lastRange(of marker: String, in name: String) -> Range<String.Index>? {
        var found: Range<String.Index>?
        var searchStart = name.startIndex
        while let range = name[searchStart...].firstRange(of: marker) {
            found = range
            searchStart = name.index(after: range.lowerBound)
        }
        return found
    }
}
