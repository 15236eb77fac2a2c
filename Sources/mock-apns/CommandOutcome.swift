import MockAPNs
import Spawn

/// How the COMMAND of `mock-apns run` ended.
enum CommandOutcome: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it (SIGKILL, or a SIGINT or SIGTERM it did not catch).
    case signalled(Int32)
    /// `--timeout` passed; it was sent SIGTERM, then SIGKILL after a grace period.
    case timedOut(Duration)

    /// How a COMMAND that ended by itself ended.
    init(_ termination: Spawn.Termination) {
        switch termination {
        case .exited(let status): self = .exited(status)
        case .signalled(let signal): self = .signalled(signal)
        }
    }

    /// Whether it counts as a success: exit status 0.
    var succeeded: Bool { self == .exited(0) }

    /// `exited 0`, `exited 7`, `was killed by signal 9`, `ran past --timeout 1s and was stopped`.
    var text: String {
        switch self {
        case .exited(let status): "exited \(status)"
        case .signalled(let signal): "was killed by signal \(signal)\(Self.signalName(signal).map { " (\($0))" } ?? "")"
        case .timedOut(let limit): "ran past --timeout \(DurationText.text(limit)) and was stopped"
        }
    }

    private static func signalName(_ signal: Int32) -> String? {
        [1: "SIGHUP", 2: "SIGINT", 6: "SIGABRT", 9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM"][signal]
    }
}
