/// Path arithmetic on plain strings (what NSString offered), so the module needs only FoundationEssentials.
enum PathText {
    /// The last component: "/a/b.wav" → "b.wav".
    static func lastComponent(_ path: String) -> String {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// Everything before the last component: "/a/b.wav" → "/a", "/b" → "/", "b" → "".
    static func deletingLastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `folder` + "/" + `name`.
    static func appending(_ name: String, to folder: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
