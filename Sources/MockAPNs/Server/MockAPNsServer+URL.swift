extension MockAPNsServer {
    /// `https://host:port`, for clients: a wildcard address (`0.0.0.0`, `::`) reads as `127.0.0.1`.
    public var url: String { url(port: port) }

    /// `https://host:channelsPort`: the broadcast channel management endpoint, written as `url` is.
    public var channelsURL: String { url(port: channelsPort) }

    private func url(port: Int) -> String {
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return shown.contains(":") ? "https://[\(shown)]:\(port)" : "https://\(shown):\(port)"
    }
}
