extension ScenarioLoader.Reader {
    /// The `limits` section: `handshakeTimeout`, `idleTimeout`, `maxConnections`.
    func limits(_ field: Field) throws(ScenarioError) -> ConnectionLimits {
        let fields = try field.mapping(known: ["handshakeTimeout", "idleTimeout", "maxConnections"])
        var limits = ConnectionLimits()
        if let timeout = fields["handshakeTimeout"] {
            limits.handshakeTimeout = try limitDuration(
                timeout, name: "handshakeTimeout", range: ConnectionLimits.handshakeTimeoutRange)
        }
        if let timeout = fields["idleTimeout"] {
            limits.idleTimeout = try limitDuration(
                timeout, name: "idleTimeout", range: ConnectionLimits.idleTimeoutRange)
        }
        if let count = fields["maxConnections"] {
            limits.maxConnections = try count.integer(in: ConnectionLimits.maxConnectionsRange)
        }
        return limits
    }

    private func limitDuration(
        _ field: Field, name: String, range: ClosedRange<Duration>
    ) throws(ScenarioError) -> Duration {
        switch LimitDuration.parse(try field.string(), name: name, range: range) {
        case .success(let duration): return duration
        case .failure(let error): throw field.error(error.message)
        }
    }
}
