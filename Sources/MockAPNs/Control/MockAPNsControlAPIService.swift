import ServiceLifecycle

/// Runs a control API as a swift-service-lifecycle service: serves until graceful shutdown, then stops.
public struct MockAPNsControlAPIService: Service {
    /// The control API it stops.
    public let controlAPI: MockAPNsControlAPI

    /// A service for `controlAPI`, which is already listening.
    public init(controlAPI: MockAPNsControlAPI) {
        self.controlAPI = controlAPI
    }

    /// Waits for graceful shutdown, then ends open streams and waits and stops the control API.
    public func run() async throws {
        try? await gracefulShutdown()
        try await controlAPI.shutdown()
    }
}
