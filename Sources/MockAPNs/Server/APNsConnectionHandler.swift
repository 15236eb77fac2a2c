import CNGHTTP2
import Logging
import NIOCore

/// Asks a connection to finish gracefully: GOAWAY `{"reason":"Shutdown"}`, answer what is in flight, close.
struct GracefulShutdownEvent: Sendable {}

/// One APNs connection's I/O: TLS (OpenSSL over memory BIOs) under an nghttp2 server session, on one event loop.
///
/// Bytes from the socket go to TLS, plaintext to HTTP/2; completed requests are decided on the connection's
/// `APNsConnection` (the APNs state, no I/O) and delivered (`deliver`: recorded, then answered); nghttp2's output is
/// gathered into one TLS write per read batch. This type knows NIO, TLS and HTTP/2, and nothing of APNs rules.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The state every connection shares: the world, the rules, the journal, the clock.
    let engine: MockAPNsEngine
    /// TLS over memory BIOs; `nil` on the cleartext (prior-knowledge HTTP/2) port.
    let tls: TLSConnection?
    /// The nghttp2 session, from the end of the handshake until the connection closes.
    var session: HTTP2Session?
    // The two fields below are touched once per push, on this connection's event loop and never re-entrantly, so
    // they skip Swift's dynamic exclusivity checks; the others are touched once per read batch or less.
    /// The connection's APNs state, lent to the engine for each push.
    @exclusivity(unchecked) var connection: APNsConnection
    /// The highest stream decided on this connection: a scripted GOAWAY never leaves a recorded stream above it.
    @exclusivity(unchecked) var highestDecidedStreamID: Int32 = 0
    /// Where the connection is in its life.
    var state: State
    /// The buffer TLS decrypts each read into, kept for the connection's life.
    private var plaintextIn: ByteBuffer?
    /// nghttp2's output waiting for the next flush; the buffer is kept for reuse over TLS.
    var plaintextOut: ByteBuffer?
    /// The buffer the last ciphertext went out in, kept for the next (`writeCiphertext`).
    var ciphertextOut: ByteBuffer?
    /// The array the next batch's requests are swapped into: it keeps its capacity from batch to batch.
    var spareRequests: [APNsRequest] = []
    /// The array the next batch's records gather in, kept as `spareRequests` is.
    var spareRecords: [JournalRecord] = []
    /// The array the next batch's delivery steps gather in, kept as `spareRequests` is.
    var spareSteps: [DeliveryStep] = []
    /// The server's logger.
    let logger: Logger
    /// The server's counters (connections, handshake failures, control frames).
    let metrics: ServerMetrics
    /// The server's rate-limited log of failed handshakes and refused connections.
    private let connectionLog: RateLimitedLog
    /// The CA file clients are told to trust (`listen.caFile`), named when a client does not trust the certificate.
    private let trustedCAFile: String?
    /// Answers waiting on a scripted delay and streams held with no answer (ShutdownDeadlineEvent, close).
    var held = HeldAnswers()
    /// When the stream limit may next be announced (`streamLimitAnnounceInterval`), and the value held till then.
    var streamLimit = StreamLimitAnnouncer(initial: 0)
    /// The control frames already added to the server's metrics.
    var reportedControlFrames = HTTP2FrameCounts(.sent)
    /// `BenchFloor.isOn`, read once per connection.
    let atFloor = BenchFloor.isOn
    /// The client's control frames already handed to the connection history.
    var reportedFramesReceived = HTTP2FrameCounts(.received)

    init(
        engine: MockAPNsEngine, tls: TLSConnection?, info: ConnectionInfo, logger: Logger, metrics: ServerMetrics,
        connectionLog: RateLimitedLog, trustedCAFile: String? = nil
    ) {
        self.engine = engine
        self.tls = tls
        self.connection = APNsConnection(info: info, engine: engine)
        self.logger = logger
        self.metrics = metrics
        self.connectionLog = connectionLog
        self.trustedCAFile = trustedCAFile
        self.state = tls == nil ? .awaitingPreface(received: 0, draining: false) : .handshaking
    }

    func channelActive(context: ChannelHandlerContext) {
        metrics.connectionOpened()
        engine.connectionHistory.opened(connection.info, at: engine.clock.now())
        if tls == nil { startHTTP2(context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if state != .closed { metrics.connectionClosed() }
        reportControlFrames()
        reportFramesReceived()
        engine.connectionHistory.closed(connection.info.id, at: engine.clock.now())
        state = .closed
        session = nil
        // Delayed answers to a connection that is gone are recorded now (as unanswered), not when their delay ends.
        for run in held.takeAll().delayed { run() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error", metadata: ["connection": "\(connection.info.id)", "error": "\(error)"])
        close(context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleTimeoutEvent || event is ShutdownDeadlineEvent {
            lifecycleEvent(event, context: context)
            return
        }
        guard event is GracefulShutdownEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        switch state {
        case .awaitingPreface(let received, _):
            state = .awaitingPreface(received: received, draining: true)
        case .http2:
            state = .http2(draining: true)
        case .handshaking, .refusingHTTP1:
            return close(context: context)
        case .closed:
            return
        }
        session?.submitGoaway(reason: APNsReason.shutdown.name)
        flush(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .closed else { return }  // finishing: input is read and dropped until the peer closes
        let bytes = unwrapInboundIn(data)
        guard let tls else {
            receivePlaintext(bytes, context: context)
            return
        }
        tls.consumeDataFromNetwork(bytes)
        if state == .handshaking {
            switch tls.doHandshake() {
            case .inProgress:
                writeCiphertext(context: context)
                return
            case .failed(let error):
                let failure = HandshakeFailure(error, trustedCAFile: trustedCAFile)
                connectionLog.log(
                    logger, level: failure.logLevel, kind: failure.kind, failure.message,
                    metadata: ["client": "\(connection.info.remoteAddress)", "error": "\(error)"])
                metrics.handshakeFailed(failure)
                writeCiphertext(context: context)
                finish(context: context)
                return
            case .complete:
                handshakeCompleted(tls: tls, context: context)
                guard state != .closed else { return }
            }
        }
        // One buffer for the connection's life: a fresh 16 KiB allocation per read showed in profiles.
        var plaintext = plaintextIn ?? context.channel.allocator.buffer(capacity: 16_384)
        plaintextIn = nil
        plaintext.clear()
        let open = tls.readPlaintext(into: &plaintext)
        if plaintext.readableBytes > 0 { receivePlaintext(plaintext, context: context) }
        plaintextIn = plaintext
        if tls.refusedRenegotiation, state != .closed {
            let failure = HandshakeFailure.renegotiation
            connectionLog.log(
                logger, kind: failure.kind, failure.message, metadata: ["client": "\(connection.info.remoteAddress)"])
            flush(context: context)
            finish(context: context)  // sends the no_renegotiation alert OpenSSL queued, then close_notify
            return
        }
        // Alerts and session tickets OpenSSL wrote while reading, when no answer carried them out.
        writeCiphertext(context: context)
        if !open, state != .closed {
            flush(context: context)
            finish(context: context)
        }
    }

    // MARK: - Set-up

    private func handshakeCompleted(tls: TLSConnection, context: ChannelHandlerContext) {
        connection.info.alpn = tls.negotiatedProtocol
        switch tls.clientCertificate() {
        case .success(let certificate): connection.info.clientCertificate = certificate
        case .failure(let error):
            logger.info(
                "unreadable client certificate", metadata: ["connection": "\(connection.info.id)", "error": "\(error)"])
            connection.info.clientCertificate = APNsClientCertificate(
                commonName: nil, uid: nil, topics: [], hasTopicsExtension: false, environments: [], notAfter: nil)
        case nil: break
        }
        engine.connectionHistory.identified(
            connection.info.id, alpn: connection.info.alpn, certificate: connection.info.clientCertificate)
        if let alpn = connection.info.alpn, alpn != "h2" {
            state = .refusingHTTP1
            writeCiphertext(context: context)
            return
        }
        startHTTP2(context: context)
        guard state.speaksHTTP2, connection.info.clientCertificate != nil else { return }
        connection.refreshWorld(from: engine)
        // "A wrong-environment client certificate gets GOAWAY NO_ERROR last-stream 0
        // {"reason":"BadCertificateEnvironment"} right after SETTINGS" (§2; doc/seen).
        if connection.certificateGetsGoaway {
            logger.info(
                "client certificate is for another environment: GOAWAY BadCertificateEnvironment",
                metadata: ["connection": "\(connection.info.id)"])
            session?.submitGoaway(lastStreamID: 0, reason: APNsReason.badCertificateEnvironment.name)
            flush(context: context)
        }
    }

    private func startHTTP2(context: ChannelHandlerContext) {
        connection.refreshWorld(from: engine)
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = connection.startStreamLimit()
        do {
            session = try HTTP2Session(settings: settings)
            streamLimit = StreamLimitAnnouncer(initial: settings.maxConcurrentStreams)
            state = .awaitingPreface(received: 0, draining: state.isDraining)
            // With ALPN h2 the server preface goes out at once; otherwise it waits for the client's first bytes,
            // so that an HTTP/1.1 client is refused in plain text, not with a binary SETTINGS frame first.
            if connection.info.alpn == "h2" { flush(context: context) }
        } catch {
            logger.error("cannot start an HTTP/2 session", metadata: ["error": "\(error)"])
            close(context: context)
        }
    }

    // MARK: - Input

    private func receivePlaintext(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        switch state {
        case .refusingHTTP1:
            return refuseHTTP1(context: context)
        case .awaitingPreface, .http2:
            break
        case .handshaking, .closed:
            return
        }
        guard let session else { return }
        if case .awaitingPreface(received: 0, _) = state, Self.looksLikeHTTP1(bytes) {
            state = .refusingHTTP1
            return refuseHTTP1(context: context)
        }
        do {
            try session.receive(bytes)
            if case .awaitingPreface(let received, let draining) = state {
                notePreface(received + bytes.readableBytes, draining: draining, context: context)
            }
        } catch {
            logger.debug(
                "HTTP/2 protocol error", metadata: ["connection": "\(connection.info.id)", "error": "\(error)"])
            decideCompletedRequests(context: context)
            flush(context: context)
            finish(context: context)
            return
        }
        if let violation = session.violation {
            answerViolation(violation, session: session, context: context)
            return
        }
        // nghttp2 may have queued a GOAWAY of its own while reading (its RST_STREAM rate limit): sending what is
        // queued first makes its last-stream-id known before any request of this read is recorded.
        if !session.completedRequests.isEmpty, session.wantsWrite, !gatherOutput(context: context) { return }
        decideCompletedRequests(context: context)
        flush(context: context)
    }

    /// A frame RFC 9113 §5.1 answers with a connection error: GOAWAY (what was read before it is still
    /// processed), then the connection ends.
    private func answerViolation(
        _ violation: HTTP2ConnectionViolation, session: HTTP2Session, context: ChannelHandlerContext
    ) {
        logger.debug(
            "HTTP/2 connection error",
            metadata: ["connection": "\(connection.info.id)", "error": "\(violation.message)"])
        session.submitGoaway(
            lastStreamID: violation.lastStreamID, reason: nil, debugText: violation.message,
            errorCode: violation.errorCode)
        decideCompletedRequests(context: context)
        flush(context: context)
        finish(context: context)
    }

    /// Tells `ConnectionGuard` once the client preface is complete: the handshake timer ends, the idle one starts.
    private func notePreface(_ count: Int, draining: Bool, context: ChannelHandlerContext) {
        guard count >= 24 else {
            state = .awaitingPreface(received: count, draining: draining)
            return
        }
        state = .http2(draining: draining)
        context.triggerUserOutboundEvent(ConnectionEstablishedEvent(), promise: nil)
    }

    /// Whether the first bytes are an HTTP/1.x request line rather than the HTTP/2 preface.
    static func looksLikeHTTP1(_ bytes: ByteBuffer) -> Bool {
        guard let prefix = bytes.getString(at: bytes.readerIndex, length: min(bytes.readableBytes, 8)) else {
            return false
        }
        return ["GET ", "POST", "PUT ", "HEAD", "DELE", "OPTI", "PATC"].contains { prefix.hasPrefix($0) }
    }
}
