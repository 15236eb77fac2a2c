import Foundation
import NIOCore

/// A listener that could not be opened: which one, on which address, and why, in words a person can act on.
///
/// `MockAPNsServer.start` and `MockAPNsControlAPI.start` throw this instead of NIO's
/// `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`, so that the command line (or a test
/// harness) can say which port is taken and what to do about it.
public struct ListenFailure: Error, Sendable, CustomStringConvertible {
    /// Which listener failed.
    public struct Role: Sendable, Hashable, CustomStringConvertible {
        /// How the listener is named in messages: "the APNs port", "the control API".
        public var description: String

        /// The APNs provider API (HTTP/2 over TLS).
        public static let apns = Role(description: "the APNs port")
        /// The cleartext HTTP/2 debugging port.
        public static let cleartext = Role(description: "the cleartext HTTP/2 port")
        /// The broadcast channel management port (HTTP/2 over TLS).
        public static let channels = Role(description: "the channels port")
        /// The control API (HTTP/1.1 + JSON).
        public static let control = Role(description: "the control API")
        /// The inspector over a journal file (`mock-apns inspect`).
        public static let inspector = Role(description: "the inspector")
    }

    /// Why the address could not be used.
    public enum Cause: Sendable, Hashable {
        /// Another socket holds the port (EADDRINUSE).
        case portInUse
        /// The address is not one of this machine's (EADDRNOTAVAIL), or the host name does not resolve.
        case addressNotAvailable
        /// Ports below 1024 need privileges (EACCES).
        case permissionDenied
        /// Anything else, as the system described it.
        case other(String)
    }

    /// Which listener failed.
    public var role: Role
    /// The address it tried to bind.
    public var host: String
    /// The port it tried to bind.
    public var port: Int
    /// Why.
    public var cause: Cause

    /// A failure of `role` on `host:port` for `cause`.
    public init(role: Role, host: String, port: Int, cause: Cause) {
        self.role = role
        self.host = host
        self.port = port
        self.cause = cause
    }

    /// A failure of `role` on `host:port`, with the cause read from the error NIO (or Hummingbird) threw.
    public init(role: Role, host: String, port: Int, error: any Error) {
        self.init(role: role, host: host, port: port, cause: Self.cause(of: error))
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var address: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The cause in a few words.
    public var reason: String {
        switch cause {
        case .portInUse: "the port is already in use by another process"
        case .addressNotAvailable: "'\(host)' is not an address of this machine"
        case .permissionDenied: "permission denied (ports below 1024 need root or CAP_NET_BIND_SERVICE)"
        case .other(let text): text
        }
    }

    /// The command that shows who holds the port (Linux `ss`; `lsof` elsewhere).
    public var whoHoldsItCommand: String {
        #if os(Linux)
        "ss -ltnp 'sport = :\(port)'"
        #else
        "lsof -nP -iTCP:\(port) -sTCP:LISTEN"
        #endif
    }

    /// One sentence for a library user: what failed, why, and what to try.
    public var description: String {
        let lead = "cannot listen on \(address) (\(role)): \(reason)"
        switch cause {
        case .portInUse: return "\(lead); use port 0 for a free one, or see who holds it: \(whoHoldsItCommand)"
        case .addressNotAvailable: return "\(lead); use 127.0.0.1, or 0.0.0.0 for every address"
        case .permissionDenied: return "\(lead); use a port of 1024 or more"
        case .other: return lead
        }
    }

    /// The cause behind a bind error: its errno when one can be found, else its description.
    static func cause(of error: any Error) -> Cause {
        switch SystemErrorNumber.of(error) {
        case EADDRINUSE: return .portInUse
        case EADDRNOTAVAIL: return .addressNotAvailable
        case EACCES: return .permissionDenied
        default:
            if error is SocketAddressError { return .addressNotAvailable }
            return .other("\(error)")
        }
    }
}
