/// One member of a wire type's JSON object: its name, how it is written from the value, how it is read into the
/// draft (`JSONMapping`).
public struct JSONMember<Value, Draft>: Sendable {
    /// The member's name.
    let name: String
    /// `"name":`, escaped once.
    let key: String
    /// The member's JSON for a value; `nil` leaves it out.
    let write: @Sendable (Value) -> JSONValue?
    /// Reads the member (`nil` when the object lacks it) into the draft; `false` refuses the whole object.
    let read: @Sendable (inout Draft, JSONValue?) -> Bool

    /// A member written and read by the closures given: for the few members that are not one property in one form.
    public static func custom(
        _ name: String, write: @escaping @Sendable (Value) -> JSONValue?,
        read: @escaping @Sendable (inout Draft, JSONValue?) -> Bool
    ) -> JSONMember {
        JSONMember(name: name, key: "\"" + JSONText.escape(name) + "\":", write: write, read: read)
    }

    /// A member worked out from others, written and never read back (`payloadJSON`, a `summary`).
    public static func written(_ name: String, _ write: @escaping @Sendable (Value) -> JSONValue) -> JSONMember {
        custom(name, write: write, read: { _, _ in true })
    }

    /// A member written from `get` and read into `set`, in `form`. A `required` member that is missing or not of
    /// its form refuses the object; any other keeps the draft's value.
    public static func member<T>(
        _ name: String, _ get: @escaping @Sendable (Value) -> T, _ set: WritableKeyPath<Draft, T> & Sendable,
        _ form: JSONForm<T>, required: Bool = false
    ) -> JSONMember {
        custom(name, write: { form.write(get($0)) }) { draft, json in
            guard let json, let value = form.read(json) else { return !required }
            draft[keyPath: set] = value
            return true
        }
    }
}

extension JSONMember where Value == Draft {
    /// A member that is the property at `path`, written and read in `form`; see `member(_:_:_:_:required:)`.
    public static func member<T>(
        _ name: String, _ path: WritableKeyPath<Value, T> & Sendable, _ form: JSONForm<T>, required: Bool = false
    ) -> JSONMember {
        member(name, { $0[keyPath: path] }, path, form, required: required)
    }
}
