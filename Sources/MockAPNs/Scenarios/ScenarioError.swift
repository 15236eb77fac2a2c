/// Why a scenario file could not be loaded: where in the file, which field, and what is wrong.
///
/// Its description reads like a compiler diagnostic, so that editors and CI logs can jump to the spot:
/// `scenarios/x.yaml:12:10: devices[2].token: must be an even number of hex digits, got 63`.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The scenario file, as it was named to the loader; `nil` for text that came from no file.
    public var file: String?
    /// The 1-based line of the offending node, when known.
    public var line: Int?
    /// The 1-based column of the offending node, when known.
    public var column: Int?
    /// The path of the field, such as `devices[2].token`; empty for the document as a whole.
    public var field: String
    /// What is wrong and what is allowed instead.
    public var message: String

    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, field: String = "", message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.field = field
        self.message = message
    }

    /// `file:line:column: field: message`, leaving out the parts that are unknown or empty.
    public var description: String {
        var location = [String]()
        if let file { location.append(file) }
        if let line {
            location.append(String(line))
            if let column { location.append(String(column)) }
        }
        var parts = location.isEmpty ? [] : [location.joined(separator: ":")]
        if !field.isEmpty { parts.append(field) }
        parts.append(message)
        return parts.joined(separator: ": ")
    }
}
