extension APNsConnectionHandler {
    /// Where the connection is in its life; each case carries what only it needs.
    enum State: Equatable {
        /// TLS is being negotiated (a cleartext connection starts in `awaitingPreface`).
        case handshaking
        /// HTTP/2 has started; `received` bytes of the client's 24-byte preface have come so far (the first bytes
        /// are checked for an HTTP/1 request line). `draining`: a graceful shutdown has sent GOAWAY.
        case awaitingPreface(received: Int, draining: Bool)
        /// The client preface is complete: requests are read, decided and answered.
        case http2(draining: Bool)
        /// The client agreed on HTTP/1.1 (or spoke it): it gets a one-off refusal in words.
        case refusingHTTP1
        /// Closed or finishing: input is read and dropped until the peer closes.
        case closed

        /// Whether the HTTP/2 session is running (it may answer and send).
        var speaksHTTP2: Bool {
            switch self {
            case .awaitingPreface, .http2: true
            case .handshaking, .refusingHTTP1, .closed: false
            }
        }

        /// Whether a graceful shutdown has begun: the connection finishes once no stream is left.
        var isDraining: Bool {
            switch self {
            case .awaitingPreface(_, let draining), .http2(let draining): draining
            case .handshaking, .refusingHTTP1, .closed: false
            }
        }
    }
}
