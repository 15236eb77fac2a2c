import CNGHTTP2
import Logging
import NIOCore

/// Asks a connection to finish gracefully: GOAWAY `{"reason":"Shutdown"}`, answer what is in flight, close.
struct GracefulShutdownEvent: Sendable {}

/// One APNs connection: TLS (OpenSSL over memory BIOs) under an nghttp2 server session, on one event loop.
///
/// Bytes from the socket go to TLS, plaintext to HTTP/2; completed requests are decided by the engine,
/// recorded, answered; nghttp2's output is gathered into one TLS write per read batch.
final class APNsConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Mode {
        case handshaking
        case http2
        /// The client agreed on HTTP/1.1 (or spoke it): it gets a one-off refusal in words.
        case http1Refusal
        case closed
    }

    // The mutable state below belongs to this connection's event loop and is never accessed re-entrantly, so the
    // hottest of it skips Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`).
    private let engine: MockAPNsEngine
    private let tls: TLSConnection?
    @exclusivity(unchecked) private var session: HTTP2Session?
    @exclusivity(unchecked) private var info: ConnectionInfo
    @exclusivity(unchecked) private var auth = ProviderAuthState()
    @exclusivity(unchecked) private var ids = APNsIDGenerator()
    /// The verdict of the connection's last record, shared by the next while the decision is the same.
    @exclusivity(unchecked) private var lastVerdict: Verdict.Shared?
    @exclusivity(unchecked) private var plaintextIn: ByteBuffer?
    @exclusivity(unchecked) private var spareRequests: [APNsRequest] = []
    /// The highest stream decided on this connection: a scripted GOAWAY never leaves a recorded stream above it.
    @exclusivity(unchecked) private var highestDecidedStreamID: Int32 = 0
    @exclusivity(unchecked) private var plaintextOut: ByteBuffer?
    private var mode: Mode
    private var worldGeneration: UInt64
    /// The rules over the world as of `worldGeneration`: made once per change, not once per request (a World is a
    /// dozen collections and strings to retain and release on every copy).
    @exclusivity(unchecked) private var validator: APNsValidator
    /// What the validator worked out from this connection's repeated values; made anew with the validator.
    private var memo = ValidationMemo()
    private var world: World { validator.world }
    private var inErrorStanding = false
    private var draining = false
    private var sniffedPreface = false
    private let logger: Logger
    private let metrics: ServerMetrics
    /// The server's rate-limited log of failed handshakes and refused connections.
    private let connectionLog: RateLimitedLog
    /// Plaintext bytes taken by HTTP/2 until the client preface (24 bytes) is complete; then `nil`.
    private var prefaceBytes: Int? = 0
    /// Answers waiting on a scripted delay and streams held with no answer (ShutdownDeadlineEvent, close).
    private var held = HeldAnswers()

    init(
        engine: MockAPNsEngine, tls: TLSConnection?, info: ConnectionInfo, logger: Logger, metrics: ServerMetrics,
        connectionLog: RateLimitedLog
    ) {
        self.engine = engine
        self.tls = tls
        self.info = info
        self.logger = logger
        self.metrics = metrics
        self.connectionLog = connectionLog
        self.mode = tls == nil ? .http2 : .handshaking
        self.worldGeneration = engine.generation
        self.validator = APNsValidator(world: engine.world)
    }

    func channelActive(context: ChannelHandlerContext) {
        metrics.connectionOpened()
        if tls == nil { startHTTP2(context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if mode != .closed { metrics.connectionClosed() }
        reportControlFrames()
        mode = .closed
        session = nil
        // Delayed answers to a connection that is gone are recorded now (as unanswered), not when their delay ends.
        for run in held.takeAll().delayed { run() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error", metadata: ["connection": "\(info.id)", "error": "\(error)"])
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
        draining = true
        switch mode {
        case .http2:
            session?.submitGoaway(reason: APNsReason.shutdown.name)
            flush(context: context)
        case .handshaking, .http1Refusal:
            close(context: context)
        case .closed:
            break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard mode != .closed else { return }  // finishing: input is read and dropped until the peer closes
        let bytes = unwrapInboundIn(data)
        guard let tls else {
            receivePlaintext(bytes, context: context)
            return
        }
        tls.consumeDataFromNetwork(bytes)
        if mode == .handshaking {
            switch tls.doHandshake() {
            case .inProgress:
                writeCiphertext(context: context)
                return
            case .failed(let error):
                let failure = HandshakeFailure(error)
                connectionLog.log(
                    logger, kind: failure.kind, failure.message,
                    metadata: ["client": "\(info.remoteAddress)", "error": "\(error)"])
                metrics.handshakeFailed()
                writeCiphertext(context: context)
                finish(context: context)
                return
            case .complete:
                handshakeCompleted(tls: tls, context: context)
                guard mode != .closed else { return }
            }
        }
        // One buffer for the connection's life: a fresh 16 KiB allocation per read showed in profiles.
        var plaintext = plaintextIn ?? context.channel.allocator.buffer(capacity: 16_384)
        plaintextIn = nil
        plaintext.clear()
        let open = tls.readPlaintext(into: &plaintext)
        if plaintext.readableBytes > 0 { receivePlaintext(plaintext, context: context) }
        plaintextIn = plaintext
        if tls.refusedRenegotiation, mode != .closed {
            let failure = HandshakeFailure.renegotiation
            connectionLog.log(logger, kind: failure.kind, failure.message, metadata: ["client": "\(info.remoteAddress)"])
            flush(context: context)
            finish(context: context)  // sends the no_renegotiation alert OpenSSL queued, then close_notify
            return
        }
        // Alerts and session tickets OpenSSL wrote while reading, when no answer carried them out.
        writeCiphertext(context: context)
        if !open, mode != .closed {
            flush(context: context)
            finish(context: context)
        }
    }

    // MARK: - Set-up

    private func handshakeCompleted(tls: TLSConnection, context: ChannelHandlerContext) {
        info.alpn = tls.negotiatedProtocol
        switch tls.clientCertificate() {
        case .success(let certificate): info.clientCertificate = certificate
        case .failure(let error):
            logger.info("unreadable client certificate", metadata: ["connection": "\(info.id)", "error": "\(error)"])
            info.clientCertificate = APNsClientCertificate(
                commonName: nil, uid: nil, topics: [], hasTopicsExtension: false, environments: [], notAfter: nil)
        case nil: break
        }
        if let alpn = info.alpn, alpn != "h2" {
            mode = .http1Refusal
            writeCiphertext(context: context)
            return
        }
        startHTTP2(context: context)
        guard mode == .http2, let certificate = info.clientCertificate else { return }
        refreshWorld()
        // "A wrong-environment client certificate gets GOAWAY NO_ERROR last-stream 0
        // {"reason":"BadCertificateEnvironment"} right after SETTINGS" (§2; doc/seen).
        if world.fidelity.certificateEnvironmentMismatch == .goaway, !certificate.environments.isEmpty,
            !certificate.environments.contains(world.environment)
        {
            logger.info(
                "client certificate is for another environment: GOAWAY BadCertificateEnvironment",
                metadata: ["connection": "\(info.id)"])
            session?.submitGoaway(lastStreamID: 0, reason: APNsReason.badCertificateEnvironment.name)
            flush(context: context)
        }
    }

    private func startHTTP2(context: ChannelHandlerContext) {
        refreshWorld()
        let fidelity = world.fidelity
        var settings = HTTP2Settings()
        settings.maxConcurrentStreams = UInt32(clamping: desiredStreamLimit(fidelity))
        do {
            session = try HTTP2Session(settings: settings)
            streamLimit = StreamLimitAnnouncer(initial: settings.maxConcurrentStreams)
            mode = .http2
            // With ALPN h2 the server preface goes out at once; otherwise it waits for the client's first bytes,
            // so that an HTTP/1.1 client is refused in plain text, not with a binary SETTINGS frame first.
            if info.alpn == "h2" { flush(context: context) }
        } catch {
            logger.error("cannot start an HTTP/2 session", metadata: ["error": "\(error)"])
            close(context: context)
        }
    }

    // MARK: - Requests

    private func receivePlaintext(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        switch mode {
        case .http1Refusal:
            refuseHTTP1(context: context)
            return
        case .http2:
            break
        case .handshaking, .closed:
            return
        }
        guard let session else { return }
        if !sniffedPreface {
            sniffedPreface = true
            if Self.looksLikeHTTP1(bytes) {
                mode = .http1Refusal
                refuseHTTP1(context: context)
                return
            }
        }
        do {
            try session.receive(bytes)
            if let count = prefaceBytes { notePreface(count + bytes.readableBytes, context: context) }
        } catch {
            logger.debug("HTTP/2 protocol error", metadata: ["connection": "\(info.id)", "error": "\(error)"])
            processCompletedRequests(context: context)
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
        processCompletedRequests(context: context)
        flush(context: context)
    }

    /// A frame RFC 9113 §5.1 answers with a connection error: GOAWAY (what was read before it is still
    /// processed), then the connection ends.
    private func answerViolation(
        _ violation: HTTP2ConnectionViolation, session: HTTP2Session, context: ChannelHandlerContext
    ) {
        logger.debug(
            "HTTP/2 connection error", metadata: ["connection": "\(info.id)", "error": "\(violation.message)"])
        session.submitGoaway(
            lastStreamID: violation.lastStreamID, reason: nil, debugText: violation.message,
            errorCode: violation.errorCode)
        processCompletedRequests(context: context)
        flush(context: context)
        finish(context: context)
    }

    private func processCompletedRequests(context: ChannelHandlerContext) {
        guard let session, !session.completedRequests.isEmpty else { return }
        // Swapped with a spare array, not copied: both keep their capacity from batch to batch.
        var requests = spareRequests
        swap(&requests, &session.completedRequests)
        defer {
            requests.removeAll(keepingCapacity: true)
            spareRequests = requests
        }
        refreshWorld()
        // Read once per batch: passing the stored properties would copy them (a World and a ConnectionInfo are a
        // dozen references) for every request.
        let validator = validator
        let info = info
        let memo = memo
        // The requests of one read arrived together: one clock reading is their arrival time.
        let receivedAt = engine.clock.now()
        // A session nghttp2 has ended (a GOAWAY after a protocol error went out) sends nothing more.
        let answerable = session.isAlive
        // Each request is moved out of the batch (reversed, then popped from the end) and handed to `decide`,
        // which takes it apart into its journal record.
        requests.reverse()
        while let request = requests.popLast() {
            let streamID = request.streamID
            // Above a GOAWAY's last-stream-id: the client was told it was never processed (and may send it again);
            // REFUSED_STREAM closes it (RFC 9113 §8.7: not processed, safe to retry).
            guard streamID <= session.goawayLastStreamID else {
                session.resetStream(streamID, errorCode: NGHTTP2_REFUSED_STREAM.rawValue)
                continue
            }
            highestDecidedStreamID = max(highestDecidedStreamID, streamID)
            let action = engine.decide(
                request, receivedAt: receivedAt, validator: validator, connection: info, auth: &auth, memo: memo,
                ids: &ids, verdict: &lastVerdict)
            switch consume action {
            case .answer(let response, let record, let delay):
                if let delay {
                    scheduleDelayed(context: context, delay: delay) { handler, context in
                        handler.answer(streamID, response, record: record, context: context)
                    }
                } else if answerable, mode == .http2, session.isStreamOpen(streamID) {
                    batchRecords.append(record)
                    batchAnswers.append((streamID, response))
                } else {
                    answerBatch()
                    answer(streamID, response, record: consume record, context: context)
                }
            case .fault(let fault, let record, let response, let delay):
                answerBatch()  // what was decided before the fault goes first
                if let delay {
                    scheduleDelayed(context: context, delay: delay) { handler, context in
                        handler.inject(fault, streamID: streamID, response: response, record: record, context: context)
                    }
                } else {
                    inject(fault, streamID: streamID, response: response, record: record, context: context)
                }
            }
        }
        answerBatch()
    }

    /// The immediate answers of the batch being decided, and their records, in order.
    @exclusivity(unchecked) private var batchRecords: [JournalRecord] = []
    @exclusivity(unchecked) private var batchAnswers: [(streamID: Int32, response: APNsResponse)] = []

    /// Records the batch's answers with one journal append (one lock for the read, not one per push), then hands
    /// them to HTTP/2: each record is still in the journal before its answer is submitted.
    private func answerBatch() {
        guard !batchRecords.isEmpty else { return }
        let answeredAt = engine.clock.now()
        for index in batchRecords.indices { batchRecords[index].answeredAt = answeredAt }
        engine.journal.append(contentsOf: &batchRecords)
        for answer in batchAnswers {
            // A stream-limit change goes out before the answer that caused it, while the stream is still open.
            updateStanding(after: answer.response)
            session?.submitResponse(streamID: answer.streamID, response: answer.response)
        }
        batchAnswers.removeAll(keepingCapacity: true)
    }

    /// Picks up a changed world (devices, keys, settings); cached token verdicts may name changed keys.
    private func refreshWorld() {
        let generation = engine.generation
        guard generation != worldGeneration else { return }
        worldGeneration = generation
        validator = APNsValidator(world: engine.world)
        memo = ValidationMemo()
        auth.forgetVerdicts()
    }

    private func scheduleDelayed(
        context: ChannelHandlerContext, delay: Duration,
        _ work: @escaping (APNsConnectionHandler, ChannelHandlerContext) -> Void
    ) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        let key = held.reserveKey()
        let run = { [self] in
            held.forget(key)
            work(self, context)
            flush(context: context)
        }
        // Run early when the connection closes or the shutdown grace period ends, so the record is still written.
        held.keep(key, task: context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds), run), run: run)
    }

    /// Records, then answers. The record goes in first: a client holding an answer can find its request.
    private func answer(
        _ streamID: Int32, _ response: APNsResponse, record: consuming JournalRecord, context: ChannelHandlerContext
    ) {
        // Above a GOAWAY's last-stream-id: the client was told it was never processed.
        if let session, streamID > session.goawayLastStreamID {
            session.resetStream(streamID, errorCode: NGHTTP2_REFUSED_STREAM.rawValue)
            return
        }
        guard mode == .http2, let session, session.isStreamOpen(streamID), session.isAlive else {
            // The client reset the stream (or left) before a delayed answer, or nghttp2 ended the session after a
            // protocol error: record that nothing was sent.
            let ended = mode == .http2 && session.map { $0.isStreamOpen(streamID) && !$0.isAlive } == true
            record.response = nil
            record.answeredAt = nil
            record.note =
                ended
                ? "connection ended by an HTTP/2 protocol error before the answer"
                : "stream closed by the client before the answer"
            engine.journal.append(record)
            return
        }
        record.answeredAt = engine.clock.now()
        engine.journal.append(record)
        updateStanding(after: response)
        session.submitResponse(streamID: streamID, response: response)
    }

    private func inject(
        _ fault: RuleFault, streamID: Int32, response: APNsResponse?, record: JournalRecord,
        context: ChannelHandlerContext
    ) {
        var record = record
        if record.response != nil { record.answeredAt = engine.clock.now() }
        engine.journal.append(record)
        guard mode == .http2, let session else { return }
        switch fault {
        case .noResponse:
            held.hold(streamID) { session.isStreamOpen($0) }
        case .resetStream:
            session.resetStream(streamID)
        case .goaway:
            if let response { session.submitResponse(streamID: streamID, response: response) }
            // Covers every stream decided so far (an earlier read's, or one earlier in this batch): each is recorded
            // and answered, delayed ones too, so the journal and the GOAWAY agree.
            session.submitGoaway(lastStreamID: max(streamID, highestDecidedStreamID), reason: APNsReason.shutdown.name)
        case .closeConnection:
            close(context: context)
        }
    }

    /// The HTTP/2 standing of the real service (§2, seen): one stream after a rejection until a success, and
    /// one stream on a token connection until a valid provider token.
    private func updateStanding(after response: APNsResponse) {
        if response.status == 200 {
            inErrorStanding = false
        } else if (400..<500).contains(response.status), response.status != 410 {
            inErrorStanding = true
        }
        // The limit follows the world, the provider token and the error standing: worked out when one changed.
        let standing = Standing(world: worldGeneration, authenticated: auth.isAuthenticated, inError: inErrorStanding)
        guard standing != announcedStanding else {
            // A held change goes out with the first answer after its interval: never alone on an idle connection.
            if streamLimit.heldUntil != nil { releaseStreamLimit() }
            return
        }
        announcedStanding = standing
        let now = NIODeadline.now().uptimeNanoseconds
        let interval = world.fidelity.streamLimitAnnounceInterval.nanoseconds
        let value = UInt32(clamping: desiredStreamLimit(world.fidelity))
        let before = streamLimit.announced
        announce(streamLimit.want(value, now: now, interval: interval), before: before)
    }

    /// Announces the held stream limit once its interval has ended.
    private func releaseStreamLimit() {
        let before = streamLimit.announced
        announce(streamLimit.release(now: NIODeadline.now().uptimeNanoseconds), before: before)
    }

    /// Sends what `streamLimit` decided; when nghttp2 cannot submit it the client still has `before`, and the
    /// announcer (the one record of the client's value) is told so.
    private func announce(_ action: StreamLimitAnnouncer.Action, before: UInt32) {
        guard case .announce(let value) = action, session?.announceMaxConcurrentStreams(value) != true else { return }
        streamLimit.notAnnounced(clientHas: before)
    }

    /// When the stream limit may next be announced (`streamLimitAnnounceInterval`), and the value held till then.
    private var streamLimit = StreamLimitAnnouncer(initial: 0)

    private struct Standing: Equatable {
        var world: UInt64
        var authenticated: Bool
        var inError: Bool
    }

    /// What the stream limit last announced after an answer was worked out from.
    private var announcedStanding: Standing?

    private func desiredStreamLimit(_ fidelity: FidelitySettings) -> Int {
        let unauthenticated = !info.usesCertificateAuth && !auth.isAuthenticated
        if fidelity.singleStreamUntilAuthenticated && unauthenticated { return 1 }
        if fidelity.singleStreamAfterError && inErrorStanding { return 1 }
        return fidelity.maxConcurrentStreams
    }

    // MARK: - Output

    /// Moves nghttp2's queued frames into `plaintextOut`, to go out with the next flush. False when the session
    /// failed (the connection is closed).
    private func gatherOutput(context: ChannelHandlerContext) -> Bool {
        guard let session else { return false }
        var plaintext = plaintextOut ?? context.channel.allocator.buffer(capacity: 16_384)
        plaintextOut = nil
        do {
            try session.send(into: &plaintext)
        } catch {
            logger.debug("HTTP/2 send failed", metadata: ["connection": "\(info.id)", "error": "\(error)"])
            close(context: context)
            return false
        }
        plaintextOut = plaintext
        return true
    }

    private func flush(context: ChannelHandlerContext) {
        // What an earlier `gatherOutput` collected goes first, then the rest nghttp2 queued.
        guard mode == .http2, let session, gatherOutput(context: context), var plaintext = plaintextOut else { return }
        plaintextOut = nil
        // The buffer is emptied once written and kept for reuse over TLS.
        defer {
            if tls != nil {
                plaintext.clear()
                plaintextOut = plaintext
            }
        }
        if session.controlFrames.total != reportedControlFrames.total { reportControlFrames() }
        if plaintext.readableBytes > 0 {
            if let tls {
                let ok = plaintext.withUnsafeReadableBytes { tls.writePlaintext($0) }
                guard ok else {
                    close(context: context)
                    return
                }
                writeCiphertext(context: context)
            } else {
                context.writeAndFlush(wrapOutboundOut(plaintext), promise: nil)
            }
        }
        if !session.isAlive || (draining && session.openStreamCount == 0 && !session.wantsWrite) {
            finish(context: context)
        }
    }

    /// The control frames already added to the server's metrics.
    private var reportedControlFrames = HTTP2ControlFrameCounts()

    /// Adds the control frames sent since the last report to the server's metrics (a lock, taken only when a
    /// control frame went out).
    private func reportControlFrames() {
        guard let counts = session?.controlFrames, counts != reportedControlFrames else { return }
        metrics.controlFramesSent(counts.subtracting(reportedControlFrames))
        reportedControlFrames = counts
    }

    private func writeCiphertext(context: ChannelHandlerContext) {
        guard let tls, tls.hasCiphertext else { return }
        var buffer = context.channel.allocator.buffer(capacity: tls.pendingCiphertext)
        tls.takeCiphertext(into: &buffer)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    private func refuseHTTP1(context: ChannelHandlerContext) {
        let body = "mock-apns speaks HTTP/2 only, as APNs does. Use an HTTP/2 client (for curl: --http2).\n"
        let text =
            "HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-type: text/plain\r\nconnection: close\r\n"
            + "content-length: \(body.utf8.count)\r\n\r\n\(body)"
        var buffer = context.channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        if let tls {
            _ = buffer.withUnsafeReadableBytes { tls.writePlaintext($0) }
            tls.shutdown()
            writeCiphertext(context: context)
        } else {
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        }
        finish(context: context)
    }

    /// Ends the connection at once (a scripted fault, an I/O error).
    private func close(context: ChannelHandlerContext) {
        guard mode != .closed else { return }
        mode = .closed
        metrics.connectionClosed()
        context.close(promise: nil)
    }

    /// Ends the connection politely: close_notify, then FIN after everything written, and a full close once the
    /// peer has closed too (or after two seconds). Closing at once with unread input in the socket would make the
    /// kernel send RST, and the peer could lose the last answers and the GOAWAY.
    private func finish(context: ChannelHandlerContext) {
        guard mode != .closed else { return }
        mode = .closed
        metrics.connectionClosed()
        if let tls {
            tls.shutdown()
            writeCiphertext(context: context)
        }
        context.close(mode: .output, promise: nil)
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) {
            context.close(promise: nil)
        }
    }

    // MARK: - Lifecycle (ConnectionGuard, shutdown)

    /// Tells `ConnectionGuard` once the client preface is complete: the handshake timer ends, the idle one starts.
    private func notePreface(_ count: Int, context: ChannelHandlerContext) {
        guard count >= 24 else {
            prefaceBytes = count
            return
        }
        prefaceBytes = nil
        context.triggerUserOutboundEvent(ConnectionEstablishedEvent(), promise: nil)
    }

    /// An idle connection gets GOAWAY NO_ERROR `{"reason":"IdleTimeout"}` and is closed; at the end of the
    /// shutdown grace period, delayed answers go out at once and held streams are reset.
    private func lifecycleEvent(_ event: Any, context: ChannelHandlerContext) {
        if event is IdleTimeoutEvent {
            guard mode == .http2 else { return close(context: context) }
            session?.submitGoaway(reason: APNsReason.idleTimeout.name)
            flush(context: context)
            finish(context: context)
            return
        }
        let (delayed, streams) = held.takeAll()
        for run in delayed { run() }
        guard mode == .http2, let session else { return }
        for streamID in streams where session.isStreamOpen(streamID) {
            session.resetStream(streamID, errorCode: NGHTTP2_CANCEL.rawValue)
        }
        flush(context: context)
    }

    /// Whether the first bytes are an HTTP/1.x request line rather than the HTTP/2 preface.
    static func looksLikeHTTP1(_ bytes: ByteBuffer) -> Bool {
        guard let prefix = bytes.getString(at: bytes.readerIndex, length: min(bytes.readableBytes, 8)) else {
            return false
        }
        return ["GET ", "POST", "PUT ", "HEAD", "DELE", "OPTI", "PATC"].contains { prefix.hasPrefix($0) }
    }
}
