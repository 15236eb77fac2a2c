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

    /// A mapping that reads into a `Draft` (starting from `start()`) and makes the value with `finish`.
    public init(
        start: @escaping @Sendable () -> Draft, _ members: [JSONMember<Value, Draft>],
        finish: @escaping @Sendable (Draft) -> Value?
    ) {
        self.members = members
        self.start = start
        self.finish = finish
    }

    /// `value` as a JSON object.
    func json(_ value: Value) -> JSONValue {
        var object: [(String, JSONValue)] = []
        object.reserveCapacity(members.count)
        for member in members {
            if let json = member.write(value) { object.append((member.name, json)) }
        }
        return .object(object)
    }

    /// Appends `value` as compact JSON text: the text of `json(value)`, without building the object first.
    func write(_ value: Value, to out: inout String) {
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
