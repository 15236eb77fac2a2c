import ArgumentParser
import MockAPNs

/// `mock-apns clock`: shows a running server's clock, or moves it (`--advance 9h`, `--set ISO`, `--reset`).
struct ClockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clock",
        abstract: "Show or move a running mock-apns's clock: the time it records and decides with.",
        discussion: """
            The clock is real time plus an offset; it drives provider-token lifetimes, the since of unregistered \
            devices and records' times. `mock-apns clock --advance 61m` makes a fresh provider token expired; \
            scripted delays stay in real time. `mock-apns reset` also sets the clock back.
            """)

    @Option(
        name: .long, parsing: .unconditional, help: "Move the clock by this duration: 9h, 90m, 1.5s; -5m moves it back."
    )
    var advance: String?

    @Option(name: .long, help: "Set the clock to this ISO 8601 time, such as 2026-11-22T18:00:00Z.")
    var set: String?

    @Flag(name: .long, help: "Set the clock back to real time (offset 0s).")
    var reset = false

    @Flag(name: .long, help: "Print the clock as JSON, as GET /v1/clock answers it.")
    var json = false

    @OptionGroup var control: ControlOptions

    func validate() throws {
        let moves = [advance != nil, set != nil, reset].filter { $0 }.count
        if moves > 1 { throw ValidationError("give at most one of --advance, --set and --reset") }
    }

    func run() async throws {
        // The server's own body check, run here first: the same messages, before any network call.
        let move: ClockMove? = try await controlCall {
            if let advance { return try ClockMove(json: JSONValue.object([("advance", .string(advance))]).jsonText) }
            if let set { return try ClockMove(json: JSONValue.object([("set", .string(set))]).jsonText) }
            return reset ? .reset : nil
        }
        let client = control.client()
        let reading = try await controlCall {
            if let move { return try await client.moveClock(move) }
            return try await client.clock()
        }
        if json {
            print(reading.json.jsonText)
        } else {
            let now = reading.json["now"]?.stringValue ?? "?"
            let sign = reading.offset < .zero ? "" : "+"
            print("\(now) (real time \(sign)\(ClockReading.offsetText(reading.offset)))")
        }
    }
}
