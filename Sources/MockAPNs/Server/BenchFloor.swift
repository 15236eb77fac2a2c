import Foundation

/// The floor of the stack, for `bench/` only (issue 26): with `MOCK_APNS_BENCH_FLOOR=1` in its environment, the
/// server answers every completed request `200` with a fixed `apns-id`, and does nothing else with it: no rules, no
/// JWT, no JSON, no journal record, no phone. What is left is TLS, HTTP/2 and the request's assembly from nghttp2's
/// callbacks, so `bench/run.sh` can show what each stage above them costs. Never set outside a benchmark: the
/// server then records nothing, and the banner says so.
enum BenchFloor {
    /// The environment variable that turns the floor on.
    static let variable = "MOCK_APNS_BENCH_FLOOR"

    /// Whether this process answers at the floor; read once.
    static let isOn = ProcessInfo.processInfo.environment[variable] == "1"

    /// The one answer at the floor.
    static let answer = APNsResponse(status: 200, apnsID: "00000000-0000-0000-0000-000000000000")
}
