/// One token upload as a transport sends it: `POST url` with the JSON `body`.
public struct TokenUploadRequest: Sendable {
    /// The provider's endpoint (`tokenUpload.url`), `http://` or `https://`.
    public var url: String
    /// The headers to send, in order: `Content-Type: application/json`, then the scenario's headers by name. The
    /// transport adds `Host` and `Content-Length` itself.
    public var headers: [(name: String, value: String)]
    /// The JSON body.
    public var body: [UInt8]
    /// How long the try may take, connection and whole answer included (`tokenUpload.timeout`).
    public var timeout: Duration

    /// A request of `body` to `url`.
    public init(url: String, headers: [(name: String, value: String)], body: [UInt8], timeout: Duration) {
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
