/// What the JSON grammar makes of the values it reads: `JSONBuilder` builds `JSONValue`s, `JSONValidator` nothing.
///
/// The grammar calls these at each value it has read, after it has checked the value's syntax. Only the sink decides
/// whether a string's bytes are UTF-8 (`text`, `append(raw:to:)`); the grammar says where they are.
protocol JSONSink {
    /// A value read.
    associatedtype Value
    /// A string's contents, as a value or as an object member's name.
    associatedtype Text
    /// A string being put together around escapes.
    associatedtype TextBuffer
    /// An object's members so far.
    associatedtype Members
    /// An array's elements so far.
    associatedtype Elements

    /// `null`.
    static var null: Value { get }
    /// `true` or `false`.
    static func bool(_ value: Bool) -> Value
    /// A number, from its text (already checked against the grammar).
    static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Value
    /// A string.
    static func string(_ text: Text) -> Value

    /// A string without escapes, from the bytes between its quotes; `nil` if they are not UTF-8. `ascii` says that
    /// every byte is below 0x80 (and so UTF-8).
    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, ascii: Bool) -> Text?
    /// An empty buffer for a string with escapes.
    static func textBuffer() -> TextBuffer
    /// Appends bytes between escapes to `buffer`; `false` if they are not UTF-8.
    static func append(raw bytes: Slice<UnsafeBufferPointer<UInt8>>, to buffer: inout TextBuffer) -> Bool
    /// Appends an escaped character to `buffer`.
    static func append(_ scalar: Unicode.Scalar, to buffer: inout TextBuffer)
    /// The string put together in `buffer`.
    static func text(_ buffer: TextBuffer) -> Text

    /// An object's members, none yet.
    static func members() -> Members
    /// Appends a member to an object's.
    static func append(member name: Text, _ value: Value, to members: inout Members)
    /// An object.
    static func object(_ members: Members) -> Value

    /// An array's elements, none yet.
    static func elements() -> Elements
    /// Appends an element to an array's.
    static func append(element value: Value, to elements: inout Elements)
    /// An array.
    static func array(_ elements: Elements) -> Value
}

/// Builds the `JSONValue` that a text is (for `JSONParser.parse`).
enum JSONBuilder: JSONSink {
    static var null: JSONValue { .null }
    static func bool(_ value: Bool) -> JSONValue { .bool(value) }
    static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> JSONValue {
        .number(String(decoding: text, as: UTF8.self))
    }
    static func string(_ text: String) -> JSONValue { .string(text) }

    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, ascii: Bool) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
    static func textBuffer() -> String.UnicodeScalarView { String.UnicodeScalarView() }
    static func append(raw bytes: Slice<UnsafeBufferPointer<UInt8>>, to buffer: inout String.UnicodeScalarView) -> Bool
    {
        guard !bytes.isEmpty else { return true }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        buffer.append(contentsOf: text.unicodeScalars)
        return true
    }
    static func append(_ scalar: Unicode.Scalar, to buffer: inout String.UnicodeScalarView) {
        buffer.append(scalar)
    }
    static func text(_ buffer: String.UnicodeScalarView) -> String { String(buffer) }

    static func members() -> [(String, JSONValue)] { [] }
    static func append(member name: String, _ value: JSONValue, to members: inout [(String, JSONValue)]) {
        members.append((name, value))
    }
    static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(members) }

    static func elements() -> [JSONValue] { [] }
    static func append(element value: JSONValue, to elements: inout [JSONValue]) { elements.append(value) }
    static func array(_ elements: [JSONValue]) -> JSONValue { .array(elements) }
}

/// Keeps nothing: the grammar's checks alone (for `JSONParser.validate`). Specialised with it, the grammar is a scan
/// that allocates nothing; only the UTF-8 of non-ASCII strings is checked here.
enum JSONValidator: JSONSink {
    static var null: Void { () }
    static func bool(_ value: Bool) {}
    static func number(_ text: Slice<UnsafeBufferPointer<UInt8>>) {}
    static func string(_ text: Void) {}

    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, ascii: Bool) -> Void? {
        ascii || isUTF8(bytes) ? () : nil
    }
    static func textBuffer() {}
    static func append(raw bytes: Slice<UnsafeBufferPointer<UInt8>>, to buffer: inout Void) -> Bool {
        isUTF8(bytes)
    }
    static func append(_ scalar: Unicode.Scalar, to buffer: inout Void) {}
    static func text(_ buffer: Void) {}

    static func members() {}
    static func append(member name: Void, _ value: Void, to members: inout Void) {}
    static func object(_ members: Void) {}

    static func elements() {}
    static func append(element value: Void, to elements: inout Void) {}
    static func array(_ elements: Void) {}

    /// Whether `bytes` are well-formed UTF-8, as `String(validating:as:)` decides it, without making a string. ASCII
    /// (most runs between escapes) is told by one pass that ORs the bytes together, before any decoding.
    static func isUTF8(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var bitsSeen: UInt8 = 0
        for byte in bytes { bitsSeen |= byte }
        if bitsSeen < 0x80 { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
