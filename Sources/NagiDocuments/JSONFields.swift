import Breath
import NagiBase

/// Reads the members of one JSON object with its path, so every error names the file and JSON path,
/// and refuses keys it was not asked about (a typo must not be silently ignored).
public struct JSONFields {
    /// The file the object came from, for messages.
    public let file: String
    /// The object's JSON path (`$.stages[0]`).
    public let path: String
    private let members: [String: JSONValue]
    private let keys: [String]

    /// Wraps `value`, which must be an object.
    public init(_ value: JSONValue, file: String, path: String) throws(ContentError) {
        guard case let .object(members, keys) = value else {
            throw ContentError(file: file, path: path, reason: "expected an object, found \(value.typeDescription)")
        }
        self.file = file
        self.path = path
        self.members = members
        self.keys = keys
    }

    /// The path of a member.
    public func path(of key: String) -> String { "\(path).\(key)" }

    /// An error about a member (or the object itself when `key` is nil).
    public func error(_ key: String?, _ reason: String) -> ContentError {
        ContentError(file: file, path: key.map(path(of:)) ?? path, reason: reason)
    }

    /// Whether the object has `key`.
    public func has(_ key: String) -> Bool { members[key] != nil }

    /// The raw member, if present.
    public func value(_ key: String) -> JSONValue? { members[key] }

    /// Refuses any key outside `allowed`, naming the nearest allowed one.
    public func rejectUnknownKeys(allowed: [String]) throws(ContentError) {
        for key in keys where !allowed.contains(key) {
            let nearest = NearestNames.find(key, among: allowed, maxDistance: 3)
            let hint = nearest.first.map { " (did you mean \"\($0)\"?)" } ?? ""
            throw error(key, "unknown key\(hint); allowed here: \(allowed.joined(separator: ", "))")
        }
    }

    /// A string member.
    public func string(_ key: String) throws(ContentError) -> String? {
        guard let value = members[key] else { return nil }
        guard case let .string(text) = value else { throw error(key, "expected a string, found \(value.typeDescription)") }
        return text
    }

    /// A string member shown to people (a title, a description, an artist): one line of visible text under the
    /// rule of `DisplayText`, else an error at its path.
    public func displayText(_ key: String) throws(ContentError) -> String? {
        guard let text = try string(key) else { return nil }
        if let problem = DisplayText.problem(in: text) { throw error(key, problem) }
        return text
    }

    /// A finite number member within `range`.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(ContentError) -> Double? {
        guard let value = members[key] else { return nil }
        guard case let .number(number, text) = value else { throw error(key, "expected a number, found \(value.typeDescription)") }
        guard range.contains(number) else { throw error(key, "\(text) is outside \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))") }
        return number
    }

    /// A whole-number member within `range`.
    public func integer(_ key: String, in range: ClosedRange<Int>) throws(ContentError) -> Int? {
        guard let value = members[key] else { return nil }
        guard case let .number(number, text) = value else { throw error(key, "expected a whole number, found \(value.typeDescription)") }
        guard number.rounded() == number else { throw error(key, "expected a whole number, found \(text)") }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw error(key, "\(text) is outside \(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    /// A boolean member.
    public func bool(_ key: String) throws(ContentError) -> Bool? {
        guard let value = members[key] else { return nil }
        guard case let .bool(flag) = value else { throw error(key, "expected true or false, found \(value.typeDescription)") }
        return flag
    }

    /// A nested object member.
    public func object(_ key: String) throws(ContentError) -> JSONFields? {
        guard let value = members[key] else { return nil }
        return try JSONFields(value, file: file, path: path(of: key))
    }

    /// An array member, each element with its path.
    public func array(_ key: String) throws(ContentError) -> [(value: JSONValue, path: String)]? {
        guard let value = members[key] else { return nil }
        guard case let .array(elements) = value else { throw error(key, "expected an array, found \(value.typeDescription)") }
        return elements.enumerated().map { ($0.element, "\(path(of: key))[\($0.offset)]") }
    }

    /// A number array member, each within `range`.
    public func numbers(_ key: String, in range: ClosedRange<Double>, count: Int? = nil) throws(ContentError) -> [Double]? {
        guard let elements = try array(key) else { return nil }
        if let count, elements.count != count { throw error(key, "expected \(count) numbers, found \(elements.count)") }
        var result: [Double] = []
        for (value, elementPath) in elements {
            guard case let .number(number, text) = value else {
                throw ContentError(file: file, path: elementPath, reason: "expected a number, found \(value.typeDescription)")
            }
            guard range.contains(number) else {
                throw ContentError(file: file, path: elementPath, reason: "\(text) is outside \(Self.format(range.lowerBound))...\(Self.format(range.upperBound))")
            }
            result.append(number)
        }
        return result
    }

    /// Exact microseconds from a number member in `unitMicroseconds` (seconds, minutes), refusing sub-microsecond
    /// detail and values above the 24-hour limit. Uses the literal text so 5.5 is exactly 5 500 000 µs.
    public func microseconds(_ key: String, unitMicroseconds: Int64, unitName: String) throws(ContentError) -> Int64? {
        guard let value = members[key] else { return nil }
        guard case let .number(number, text) = value else {
            throw error(key, "expected a number of \(unitName), found \(value.typeDescription)")
        }
        guard number >= 0 else { throw error(key, "\(text) \(unitName) is negative; expected 0 or more") }
        if let exact = Microseconds.parseDecimal(Substring(text), unitMicroseconds: unitMicroseconds) { return exact }
        if let rounded = Microseconds.fromSeconds(number, unitMicroseconds: unitMicroseconds) { return rounded }
        if number * Double(unitMicroseconds) > Double(Microseconds.sessionLimit) {
            throw error(key, "\(text) \(unitName) is longer than nagi's 24-hour limit")
        }
        throw error(key, "\(text) \(unitName) is finer than a microsecond")
    }

    static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
