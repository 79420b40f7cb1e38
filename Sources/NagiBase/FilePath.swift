/// A file-system path as nagi reads and builds it: a plain string with the arithmetic every module needs (its
/// last component, its parent folder, a name appended, a relative path resolved against a folder), written once
/// here after swift-system's `FilePath`. Pure Swift: the portable core uses it too.
///
/// Paths are POSIX: components separated by "/", absolute when they start with one. Nothing here touches the
/// file system; `.` and `..` are kept as written.
public struct FilePath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path as written.
    public var string: String

    public init(_ string: String) {
        self.string = string
    }

    public init(stringLiteral value: String) {
        string = value
    }

    public var description: String { string }

    /// Whether the path starts at the root.
    public var isAbsolute: Bool { string.hasPrefix("/") }

    /// The last component: "/a/b.wav" → "b.wav", "b.wav" → "b.wav", "/a/" → "a", "/" → "/".
    public var lastComponent: String {
        let trimmed = string.count > 1 && string.hasSuffix("/") ? String(string.dropLast()) : string
        guard trimmed != "/" else { return trimmed }
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// The folder holding the last component: "/a/b.wav" → "/a", "/b" → "/", "b.wav" → "." (the working folder).
    public var parent: FilePath {
        guard let slash = string.lastIndex(of: "/") else { return "." }
        return slash == string.startIndex ? "/" : FilePath(String(string[..<slash]))
    }

    /// The last component's extension, without its dot ("a/b.tar.gz" → "gz"); nil when it has none, only a
    /// leading dot (".hidden") or an empty one ("a.").
    public var fileExtension: String? {
        let name = lastComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let text = name[name.index(after: dot)...]
        return text.isEmpty ? nil : String(text)
    }

    /// `name` (a component, or a relative path) inside this folder: "a" + "b.wav" → "a/b.wav", "a/" + "b" → "a/b";
    /// an empty folder gives `name` alone.
    public func appending(_ name: String) -> FilePath {
        if string.isEmpty { return FilePath(name) }
        return FilePath(string.hasSuffix("/") ? string + name : string + "/" + name)
    }

    /// This path as read from `folder`: an absolute path unchanged, a relative one appended to `folder` (a path
    /// named inside a JSON file is read from the file's folder).
    public func resolved(against folder: FilePath) -> FilePath {
        isAbsolute ? self : folder.appending(string)
    }
}
