/// A flag declared once as a typed key: its spec goes into a command's options, and a command reads it by key
/// (`arguments[OutputFlags.force]`), never by its spelling.
public struct Flag: Sendable {
    /// What the parser accepts and help shows.
    public let spec: OptionSpec

    /// - Parameter overHTTP: whether a request to `nagi serve` may give it (`OptionSpec.overHTTP`).
    public init(_ names: [String], help: String, overHTTP: Bool = false) {
        spec = OptionSpec(names: names, help: help, overHTTP: overHTTP)
    }

    /// The spelling values are stored and messages quote it under (`--force`).
    public var name: String { spec.canonicalName }
}
