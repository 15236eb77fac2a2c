import MockAPNs

extension ListenFailure {
    /// The `serve` flag that sets this listener's port.
    var portFlag: String {
        switch role {
        case .control: "--control-port"
        case .cleartext: "--cleartext-port"
        case .channels: "--channels-port"
        default: "--port"
        }
    }

    /// The `serve` flag that sets this listener's address.
    var hostFlag: String { role == .control ? "--control-host" : "--host" }

    /// The message `serve` exits with: what failed, why, and which flag or command to try next.
    var commandLineMessage: String {
        let lead = "cannot listen on \(address) for \(role): \(reason)."
        switch cause {
        case .portInUse:
            let off = role == .control ? ", or --no-control to run without it" : ""
            return "\(lead) Another mock-apns may be running. Pick another port with \(portFlag) "
                + "(\(portFlag) 0 takes a free one)\(off), or see who holds it: \(whoHoldsItCommand)"
        case .addressNotAvailable:
            return "\(lead) Give \(hostFlag) an address of this machine: 127.0.0.1, or 0.0.0.0 for every address."
        case .permissionDenied:
            return "\(lead) Pick a port of 1024 or more with \(portFlag)."
        case .other:
            return lead
        }
    }
}
