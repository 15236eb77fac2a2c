extension MockAPNsServer {
    /// `https://host:port`, for clients: a wildcard address (`0.0.0.0`, `::`) reads as `127.0.0.1`.
    public var url: String {
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return shown.contains(":") ? "https://[\(shown)]:\(port)" : "https://\(shown):\(port)"
    }
}
