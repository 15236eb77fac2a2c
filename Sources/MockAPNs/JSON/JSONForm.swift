import Foundation

/// How one Swift type is written as a JSON value and read back: the form of a wire type's member (`JSONMember`).
///
/// Reading is lenient the way a client must be: a value of the wrong type, or a number out of range, reads as
/// `nil` (and a required member then refuses the object); nothing traps.
public struct JSONForm<T>: Sendable {
    /// The value's JSON; `nil` leaves the member out (`omittedWhenNil`).
    let write: @Sendable (T) -> JSONValue?
    /// The value `json` holds, or `nil` when it holds none of this form.
    let read: @Sendable (JSONValue) -> T?

    /// A form from its two directions.
    public init(write: @escaping @Sendable (T) -> JSONValue?, read: @escaping @Sendable (JSONValue) -> T?) {
        self.write = write
        self.read = read
    }

    /// `nil` as `null` (and `null` or a value not of this form read as `nil`).
    public static func optional<W>(_ wrapped: JSONForm<W>) -> JSONForm<W?> where T == W? {
        JSONForm<W?>(write: { $0.map(wrapped.write) ?? .null }, read: { .some(wrapped.read($0)) })
    }

    /// `nil` as no member at all; read as `optional` reads.
    public static func omittedWhenNil<W>(_ wrapped: JSONForm<W>) -> JSONForm<W?> where T == W? {
        JSONForm<W?>(write: { $0.flatMap(wrapped.write) }, read: { .some(wrapped.read($0)) })
    }

    /// An array; one element not of `element`'s form makes it unreadable.
    public static func array<E>(_ element: JSONForm<E>) -> JSONForm<[E]> where T == [E] {
        JSONForm<[E]>(
            write: { .array($0.compactMap(element.write)) },
            read: { json in
                guard case .array(let elements) = json else { return nil }
                var values: [E] = []
                values.reserveCapacity(elements.count)
                for json in elements {
                    guard let value = element.read(json) else { return nil }
                    values.append(value)
                }
                return values
            })
    }

    /// An array whose elements not of `element`'s form are skipped when read.
    public static func compactArray<E>(_ element: JSONForm<E>) -> JSONForm<[E]> where T == [E] {
        JSONForm<[E]>(
            write: { .array($0.compactMap(element.write)) },
            read: { json in
                guard case .array(let elements) = json else { return nil }
                return elements.compactMap(element.read)
            })
    }
}

extension JSONForm where T == String {
    /// A JSON string.
    public static var string: JSONForm {
        JSONForm(write: { .string($0) }, read: { $0.stringValue })
    }
}

extension JSONForm where T == Bool {
    /// `true` or `false`.
    public static var bool: JSONForm {
        JSONForm(write: { .bool($0) }, read: { if case .bool(let value) = $0 { value } else { nil } })
    }
}

extension JSONForm where T: FixedWidthInteger & Sendable {
    /// A whole number. Read from an integer, or from a number with a fraction or exponent cut toward zero
    /// (`10.0`, `1e3`); `nil` out of `T`'s range, never trapping.
    public static var integer: JSONForm {
        JSONForm(write: { .number(String($0)) }, read: { JSONForm.integer(from: $0) })
    }

    /// `json` as a `T`, as `integer` reads it.
    static func integer(from json: JSONValue) -> T? {
        guard case .number(let text) = json else { return nil }
        if let exact = T(text) { return exact }
        guard let number = Double(text), number.isFinite else { return nil }
        return T(exactly: number.rounded(.towardZero))
    }
}

extension JSONForm where T == Date {
    /// ISO 8601 with milliseconds in UTC (`Timestamp`), as records write every time.
    public static var timestamp: JSONForm {
        JSONForm(write: { .string(Timestamp.text($0)) }, read: { $0.stringValue.flatMap(Timestamp.date(fromText:)) })
    }
}

extension JSONForm where T == JSONValue {
    /// Any JSON, as it is.
    public static var value: JSONForm {
        JSONForm(write: { $0 }, read: { $0 })
    }
}

extension JSONForm where T: RawRepresentable & Sendable, T.RawValue == String {
    /// The raw value as a string; an unknown one reads as `nil`.
    public static var rawValue: JSONForm {
        JSONForm(write: { .string($0.rawValue) }, read: { $0.stringValue.flatMap(T.init(rawValue:)) })
    }
}

extension JSONForm where T: JSONMapped {
    /// The type's own object (`JSONMapped`).
    public static var object: JSONForm {
        let mapping = T.jsonMapping
        return JSONForm(write: { mapping.json($0) }, read: { mapping.read($0) })
    }
}
