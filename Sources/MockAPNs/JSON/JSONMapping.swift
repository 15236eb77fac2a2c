/// How a wire type is written as a JSON object and read back: its members in order, what reading starts from,
/// and how the filled-in draft becomes the value.
///
/// ```swift
/// extension ClockReading: JSONMapped {
///     public static let jsonMapping = JSONMapping(ClockReading(now: .distantPast, offset: .zero), [
///         .member("now", \.now, .timestamp, required: true),
///         ...
///     ])
/// }
/// ```
public struct JSONMapping<Value, Draft>: Sendable {
    /// The members, in the order they are written.
    let members: [JSONMember<Value, Draft>]
    /// The draft reading starts from: every member not read keeps its value here.
    let start: @Sendable () -> Draft
    /// The value the read draft makes; `nil` when the parts do not make one.
    let finish: @Sendable (Draft) -> Value?
    /// Objects of another shape the type keeps as received instead of reading them by the table; `nil` for most.
    let kept: Kept?

    /// Objects of another shape than the table's that a type keeps whole (journal records of a kind this program
    /// does not read member by member), and writes back as they were.
    public struct Kept: Sendable {
        /// Whether an object is of the other shape (then `read` alone decides).
        let claims: @Sendable ([(String, JSONValue)]) -> Bool
        /// The value an object of the other shape makes; `nil` when it makes none.
        let read: @Sendable ([(String, JSONValue)]) -> Value?
        /// The object a value of the other shape is written as; `nil` for a value of the table's shape.
        let object: @Sendable (Value) -> JSONValue?

        /// Kept objects from the three parts.
        public init(
            claims: @escaping @Sendable ([(String, JSONValue)]) -> Bool,
            read: @escaping @Sendable ([(String, JSONValue)]) -> Value?,
            object: @escaping @Sendable (Value) -> JSONValue?
        ) {
            self.claims = claims
            self.read = read
            self.object = object
        }
    }

    /// A mapping that reads into a `Draft` (starting from `start()`) and makes the value with `finish`; `kept`
    /// reads and writes the objects of another shape, if the type keeps any.
    public init(
        start: @escaping @Sendable () -> Draft, _ members: [JSONMember<Value, Draft>],
        finish: @escaping @Sendable (Draft) -> Value?, kept: Kept? = nil
    ) {
        self.members = members
        self.start = start
        self.finish = finish
        self.kept = kept
    }

    /// `value` as a JSON object.
    func json(_ value: Value) -> JSONValue {
        if let kept, let object = kept.object(value) { return object }
        var object: [(String, JSONValue)] = []
        object.reserveCapacity(members.count)
        for member in members {
            if let json = member.write(value) { object.append((member.name, json)) }
        }
        return .object(object)
    }

    /// Appends `value` as compact JSON text: the text of `json(value)`, without building the object first.
    func write(_ value: Value, to out: inout String) {
        if let kept, let object = kept.object(value) { return object.write(to: &out) }
        out += "{"
        var first = true
        for member in members {
            guard let json = member.write(value) else { continue }
            if !first { out += "," }
            first = false
            out += member.key
            json.write(to: &out)
        }
        out += "}"
    }

    /// The value `json` holds; `nil` when it is not an object or a member refuses it.
    func read(_ json: JSONValue) -> Value? {
        guard case .object(let object) = json else { return nil }
        if let kept, kept.claims(object) { return kept.read(object) }
        var draft = start()
        // Objects this program wrote have the members in the table's order: look there first.
        var next = object.startIndex
        for member in members {
            let found: JSONValue?
            if next < object.endIndex, object[next].0 == member.name {
                found = object[next].1
                next += 1
            } else {
                found = object.first { $0.0 == member.name }?.1
            }
            guard member.read(&draft, found) else { return nil }
        }
        return finish(draft)
    }
}

extension JSONMapping where Draft == Value {
    /// A mapping that reads member by member into a copy of `blank`.
    public init(_ blank: @autoclosure @escaping @Sendable () -> Value, _ members: [JSONMember<Value, Value>]) {
        self.init(start: blank, members, finish: { $0 })
    }
}
