extension ScenarioLoader.Reader {
    /// The `limits` section: `handshakeTimeout`, `idleTimeout`, `maxConnections`.
    func limits(_ field: Field) throws(ScenarioError) -> ConnectionLimits {
        let fields = try field.mapping(known: ["handshakeTimeout", "idleTimeout", "maxConnections"])
        var limits = ConnectionLimits()
        if let timeout = fields["handshakeTimeout"] {
            limits.handshakeTimeout = try duration(timeout, in: ConnectionLimits.handshakeTimeoutRange)
        }
        if let timeout = fields["idleTimeout"] {
            limits.idleTimeout = try duration(timeout, in: ConnectionLimits.idleTimeoutRange)
        }
        if let count = fields["maxConnections"] {
            limits.maxConnections = try count.integer(in: ConnectionLimits.maxConnectionsRange)
        }
        return limits
    }
}
