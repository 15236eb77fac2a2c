import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ServiceLifecycle

/// A running mock APNs: the TLS listener, the broadcast channel management listener (and an optional cleartext
/// one), the engine, the journal.
///
/// ```swift
/// let server = try await MockAPNsServer.start(scenario: .embeddedDefault(port: 0))
/// print(server.port)          // the bound port
/// ... send pushes, read server.journal ...
/// try await server.shutdown()
/// ```
public final class MockAPNsServer: Sendable {
    /// The engine shared by all connections: world, scripted rules, journal, clock.
    public let engine: MockAPNsEngine
    /// The scenario the server started with.
    public let scenario: Scenario
    /// Every count the server keeps: connections, control frames, and the requests its journal counts.
    public var metrics: ServerMetrics { engine.journal.metrics }
    /// The TLS port actually bound.
    public let port: Int
    /// The cleartext HTTP/2 port actually bound, if one was asked for.
    public let cleartextPort: Int?
    /// The broadcast channel management port actually bound (HTTP/2 over TLS, the same certificate and auth).
    public let channelsPort: Int
    /// The host the listeners are bound to.
    public let host: String
    /// The PEM of the CA clients must trust (the embedded test CA unless the scenario names another).
    public let caPEM: String?
    /// When the server started listening (the clock's time): where `verify()` counts `within:` from by default.
    public let startedAt: Date
    /// The control operations in-process (`MockAPNsControl`): the server answers them through it, as does the
    /// control API.
    public let control: InProcessControl

    private let group: MultiThreadedEventLoopGroup
    private let ownsGroup: Bool
    private let listeners: [Channel]
    private let connections: ConnectionRegistry
    private let logger: Logger
    private let stopped = NIOLockedValueBox(false)

    /// The journal of every request.
    public var journal: Journal { engine.journal }

    /// How long `shutdown` (SIGTERM, SIGINT) waits for streams in flight before it answers or resets the rest.
    public static let shutdownGracePeriod = Duration.seconds(5)

    private init(
        engine: MockAPNsEngine, scenario: Scenario, port: Int, cleartextPort: Int?, channelsPort: Int, host: String,
        caPEM: String?, group: MultiThreadedEventLoopGroup, ownsGroup: Bool, listeners: [Channel],
        connections: ConnectionRegistry, logger: Logger
    ) {
        self.engine = engine
        self.scenario = scenario
        self.port = port
        self.cleartextPort = cleartextPort
        self.channelsPort = channelsPort
        self.host = host
        self.caPEM = caPEM
        self.startedAt = engine.clock.now()
        self.control = InProcessControl(
            engine: engine, scenario: scenario, startedAt: startedAt,
            endpoint: APNsEndpoint(host: host, port: port, listen: scenario.listen))
        self.group = group
        self.ownsGroup = ownsGroup
        self.listeners = listeners
        self.connections = connections
        self.logger = logger
    }

    /// Binds the listeners of `scenario` and starts serving.
    ///
    /// - Parameters:
    ///   - journalFile: also append every record to this JSON-lines file.
    ///   - clock: the time source: by default a `MovableClock` (real time plus the offset `POST /v1/clock` moves);
    ///     inject a `ManualClock` in tests.
    ///   - eventLoopGroup: loops to run on; by default one per core, owned and shut down by the server.
    ///   - tokenUploadTransport: how the app's token uploads (`tokenUpload:`) are sent, shut down with the server;
    ///     by default `PlainHTTPTokenUploadTransport`, which takes `http://` URLs only (an `https://` upload is
    ///     recorded as failed, saying why). `MockAPNsClient`'s `AsyncHTTPClientTokenUploadTransport` takes both.
    public static func start(
        scenario: Scenario, journalFile: String? = nil, clock: any APNsClock = MovableClock(),
        logger: Logger = Logger(label: "mock-apns"), eventLoopGroup: MultiThreadedEventLoopGroup? = nil,
        tokenUploadTransport: (any TokenUploadTransport)? = nil
    ) async throws -> MockAPNsServer {
        let listen = scenario.listen
        let tlsContext: TLSContext
        let caPEM: String?
        if let certificateFile = listen.certificateFile, let keyFile = listen.privateKeyFile {
            tlsContext = try TLSContext(
                certificateFile: certificateFile, privateKeyFile: keyFile,
                requestClientCertificate: listen.requestClientCertificate)
            caPEM = try listen.caFile.map { path in
                do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
                    throw TLSError("cannot read the CA file \(path)")
                }
            }
        } else if listen.certificateFile != nil || listen.privateKeyFile != nil {
            throw TLSError("give both a certificate and a private key file, or neither for the embedded test pair")
        } else {
            tlsContext = try TLSContext(
                certificateChainPEM: TestCredentials.serverCertificatePEM, privateKeyPEM: TestCredentials.serverKeyPEM,
                requestClientCertificate: listen.requestClientCertificate)
            caPEM = TestCredentials.caPEM
        }

        let metrics = ServerMetrics(clock: clock)
        let journal = try Journal(
            capacity: scenario.journalCapacity, maxBytes: scenario.journalMaxBytes, filePath: journalFile,
            metrics: metrics)
        let engine = MockAPNsEngine(
            world: scenario.world, rules: scenario.rules, journal: journal, clock: clock,
            tokenUploadTransport: tokenUploadTransport)
        engine.tokenUploads.useLogger(logger)
        if BenchFloor.isOn {
            logger.warning(
                "\(BenchFloor.variable)=1: every request is answered 200 and nothing is checked or recorded (bench only)")
        }
        engine.apply(scenario)
        let connections = ConnectionRegistry()
        let connectionLog = RateLimitedLog()
        // The file a client that fails the handshake is told to trust: the CA file clients are shown, if any.
        let trustedCAFile = caPEM == nil ? nil : listen.caFile
        let group = eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: UsableCores.count)

        var listeners: [Channel] = []
        var role = ListenFailure.Role.apns
        do {
            let tlsListener = try await bind(
                host: listen.host, port: listen.port, group: group, engine: engine, tlsContext: tlsContext,
                metrics: metrics, connections: connections, limits: scenario.limits, connectionLog: connectionLog,
                trustedCAFile: trustedCAFile, logger: logger)
            listeners.append(tlsListener)
            role = .channels
            listeners.append(
                try await bind(
                    host: listen.host, port: listen.effectiveChannelsPort, group: group, engine: engine,
                    tlsContext: tlsContext, metrics: metrics, connections: connections, limits: scenario.limits,
                    connectionLog: connectionLog, trustedCAFile: trustedCAFile, logger: logger, listener: .channels))
            if let cleartextPort = listen.cleartextPort {
                role = .cleartext
                listeners.append(
                    try await bind(
                        host: listen.host, port: cleartextPort, group: group, engine: engine, tlsContext: nil,
                        metrics: metrics, connections: connections, limits: scenario.limits,
                        connectionLog: connectionLog, trustedCAFile: trustedCAFile, logger: logger))
            }
        } catch {
            let port =
                switch role {
                case .apns: listen.port
                case .channels: listen.effectiveChannelsPort
                default: listen.cleartextPort ?? 0
                }
            for listener in listeners { try? await listener.close() }
            if eventLoopGroup == nil { try? await group.shutdownGracefully() }
            throw ListenFailure(role: role, host: listen.host, port: port, error: error)
        }
        return MockAPNsServer(
            engine: engine, scenario: scenario, port: listeners[0].localAddress?.port ?? listen.port,
            cleartextPort: listeners.count > 2 ? listeners[2].localAddress?.port : nil,
            channelsPort: listeners[1].localAddress?.port ?? listen.effectiveChannelsPort, host: listen.host,
            caPEM: caPEM, group: group, ownsGroup: eventLoopGroup == nil, listeners: listeners,
            connections: connections, logger: logger)
    }

    private static func bind(
        host: String, port: Int, group: MultiThreadedEventLoopGroup, engine: MockAPNsEngine, tlsContext: TLSContext?,
        metrics: ServerMetrics, connections: ConnectionRegistry, limits: ConnectionLimits,
        connectionLog: RateLimitedLog, trustedCAFile: String?, logger: Logger, listener: Listener.Kind = .device
    ) async throws -> Channel {
        let cap = ConnectionCap(limit: limits.maxConnections)
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelOption(.writeBufferWaterMark, value: ConnectionCap.writeBufferWaterMark)
            .childChannelInitializer { channel in
                guard cap.admit() else {
                    cap.logRefusal(connectionLog, logger: logger, port: channel.localAddress?.port)
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConnectionCap.CloseAtOnce())
                    }
                }
                channel.closeFuture.whenComplete { _ in cap.release() }
                let id = connections.nextID()
                let remote = channel.remoteAddress.map(Self.describe) ?? "unknown"
                let tls: TLSConnection?
                if let tlsContext {
                    do { tls = try TLSConnection(context: tlsContext) } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                } else {
                    tls = nil
                }
                let info = ConnectionInfo(
                    id: id, remoteAddress: remote, transport: tlsContext == nil ? .cleartext : .tls,
                    alpn: tlsContext == nil ? "h2c" : nil, listener: listener)
                connections.add(id, channel)
                channel.closeFuture.whenComplete { _ in connections.remove(id) }
                do {
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionGuard(
                            limits: limits, expectTLS: tls != nil, log: connectionLog, logger: logger, metrics: metrics))
                    try channel.pipeline.syncOperations.addHandler(
                        APNsConnectionHandler(
                            engine: engine, tls: tls, info: info, logger: logger, metrics: metrics,
                            connectionLog: connectionLog, trustedCAFile: trustedCAFile))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: host, port: port)
            .get()
    }

    private static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// Stops accepting, sends every connection GOAWAY `{"reason":"Shutdown"}`, lets streams in flight finish
    /// (up to `gracePeriod`), then sends at once the answers still waiting on a scripted delay and resets
    /// (RST_STREAM CANCEL) the streams a `no-response` rule holds, closes what is left, stops the token uploads
    /// still running (recorded as failed) and flushes the journal file.
    /// Logs "mock-apns stopped" once, however often it is called.
    public func shutdown(gracePeriod: Duration = MockAPNsServer.shutdownGracePeriod) async throws {
        let alreadyStopped = stopped.withLockedValue { value in
            defer { value = true }
            return value
        }
        guard !alreadyStopped else { return }
        for listener in listeners { try? await listener.close() }
        let open = connections.all()
        for channel in open {
            channel.pipeline.fireUserInboundEventTriggered(GracefulShutdownEvent())
        }
        let deadline = ContinuousClock.now + gracePeriod
        while !connections.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let late = connections.all()
        if !late.isEmpty {
            for channel in late { channel.pipeline.fireUserInboundEventTriggered(ShutdownDeadlineEvent()) }
            // Time for those answers and resets to reach the clients before the close.
            let closeBy = ContinuousClock.now + .milliseconds(500)
            while !connections.isEmpty, ContinuousClock.now < closeBy {
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        for channel in connections.all() { try? await channel.close() }
        await engine.tokenUploads.shutdown()
        journal.flush()
        if ownsGroup { try await group.shutdownGracefully() }
        logger.info("mock-apns stopped", metadata: ["recorded": "\(journal.totalCount)"])
    }
}

/// The open connections, so that shutdown can reach them.
final class ConnectionRegistry: Sendable {
    private let state = NIOLockedValueBox<(next: UInt64, channels: [UInt64: Channel])>((0, [:]))

    func nextID() -> UInt64 {
        state.withLockedValue { state in
            state.next += 1
            return state.next
        }
    }

    func add(_ id: UInt64, _ channel: Channel) {
        state.withLockedValue { $0.channels[id] = channel }
    }

    func remove(_ id: UInt64) {
        state.withLockedValue { _ = $0.channels.removeValue(forKey: id) }
    }

    func all() -> [Channel] {
        state.withLockedValue { Array($0.channels.values) }
    }

    var isEmpty: Bool { state.withLockedValue { $0.channels.isEmpty } }
}

/// Runs a server as a swift-service-lifecycle service: serves until graceful shutdown, then drains.
public struct MockAPNsService: Service {
    /// The server it stops.
    public let server: MockAPNsServer

    /// A service for `server`, which is already serving.
    public init(server: MockAPNsServer) {
        self.server = server
    }

    /// Waits for graceful shutdown, then shuts the server down (`MockAPNsServer.shutdown`).
    public func run() async throws {
        try? await gracefulShutdown()
        try await server.shutdown()
    }
}
