import Logging
import NIOCore

/// Sent toward the socket by `APNsConnectionHandler` once the TLS handshake and the client's HTTP/2 preface are
/// done: the handshake timer stops and the idle timer starts.
struct ConnectionEstablishedEvent: Sendable {}

/// Sent to `APNsConnectionHandler` when nothing arrived from the client for `limits.idleTimeout`: it answers
/// with GOAWAY NO_ERROR `{"reason":"IdleTimeout"}` and closes, as APNs does.
struct IdleTimeoutEvent: Sendable {}

/// The first handler of every connection: it enforces `ConnectionLimits` and applies back-pressure, so that
/// `APNsConnectionHandler` only ever sees clients that speak TLS (on the TLS port) and keep up.
///
/// - On the TLS port the first bytes must start a TLS record (0x16). Plain HTTP/1 gets a one-line HTTP/1.1 400 in
///   cleartext, HTTP/2 cleartext a GOAWAY saying to use TLS, anything else is closed; each is logged (rate-limited).
/// - The handshake and the preface must be done within `handshakeTimeout`, else the connection is closed.
/// - After that, `idleTimeout` without a byte from the client sends `IdleTimeoutEvent` down the pipeline.
/// - While the channel is not writable (more unsent output than its high water mark: a client that does not
///   read), it stops reading from the socket, and resumes once the output drained below the low mark.
///
/// Per read batch it costs one clock reading; timers live on the channel's event loop and end with it.
final class ConnectionGuard: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let limits: ConnectionLimits
    private let log: RateLimitedLog
    private let logger: Logger
    private let metrics: ServerMetrics
    /// Whether the first bytes still have to be checked for a TLS record (TLS port, nothing read yet).
    private var sniffing: Bool
    private var sniffed: ByteBuffer?
    /// Refused in cleartext: the rest of the input is read and dropped until the close.
    private var refused = false
    private var established = false
    private var handshakeTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?
    private var lastRead = NIODeadline.now()
    private var readPending = false

    /// A guard for one connection; `expectTLS` on the TLS port.
    init(limits: ConnectionLimits, expectTLS: Bool, log: RateLimitedLog, logger: Logger, metrics: ServerMetrics) {
        self.limits = limits
        self.sniffing = expectTLS
        self.log = log
        self.logger = logger
        self.metrics = metrics
    }

    func channelActive(context: ChannelHandlerContext) {
        lastRead = .now()
        let timeout = limits.handshakeTimeout
        handshakeTimer = context.eventLoop.assumeIsolated().scheduleTask(in: Self.amount(timeout)) { [self] in
            guard !established else { return }
            let failure = HandshakeFailure.timedOut(after: timeout)
            log.log(logger, kind: failure.kind, failure.message, metadata: remote(context))
            context.close(promise: nil)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        handshakeTimer?.cancel()
        idleTimer?.cancel()
        handshakeTimer = nil
        idleTimer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        if sniffing {
            sniff(context: context, unwrapInboundIn(data))
            return
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        lastRead = .now()
        context.fireChannelReadComplete()
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is ConnectionEstablishedEvent else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        promise?.succeed()
        guard !established else { return }
        established = true
        handshakeTimer?.cancel()
        handshakeTimer = nil
        scheduleIdleCheck(context: context, at: lastRead + Self.amount(limits.idleTimeout))
    }

    // MARK: - Idle

    private func scheduleIdleCheck(context: ChannelHandlerContext, at deadline: NIODeadline) {
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            let due = lastRead + Self.amount(limits.idleTimeout)
            if NIODeadline.now() < due {
                scheduleIdleCheck(context: context, at: due)
                return
            }
            idleTimer = nil
            logger.debug(
                "idle connection: GOAWAY IdleTimeout",
                metadata: ["timeout": "\(DurationText.text(limits.idleTimeout))"].merging(remote(context)) { $1 })
            context.fireUserInboundEventTriggered(IdleTimeoutEvent())
        }
    }

    // MARK: - Back-pressure

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            readPending = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, readPending {
            readPending = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    // MARK: - The first bytes on the TLS port

    private func sniff(context: ChannelHandlerContext, _ bytes: ByteBuffer) {
        var buffer = bytes
        if var held = sniffed {
            held.writeBuffer(&buffer)
            buffer = held
            sniffed = nil
        }
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        if first == 0x16 {  // a TLS handshake record: the common case, decided on the first byte
            sniffing = false
            context.fireChannelRead(wrapInboundOut(buffer))
            return
        }
        let prefix = buffer.getBytes(at: buffer.readerIndex, length: min(buffer.readableBytes, 4)) ?? []
        let letters = prefix.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || $0 == 0x20 }
        if prefix.count < 4, letters {
            sniffed = buffer  // "GE": wait for the method to be complete
            return
        }
        sniffing = false
        refused = true
        if prefix == Array("PRI ".utf8) {
            refuse(context: context, with: Self.cleartextGoaway(context.channel.allocator), as: .cleartextHTTP2)
        } else if APNsConnectionHandler.looksLikeHTTP1(buffer) {
            refuse(context: context, with: Self.plainHTTPAnswer(context.channel.allocator), as: .plainHTTP)
        } else {
            refuse(context: context, with: nil, as: .notTLS)
        }
    }

    private func refuse(context: ChannelHandlerContext, with answer: ByteBuffer?, as failure: HandshakeFailure) {
        log.log(logger, level: failure.logLevel, kind: failure.kind, failure.message, metadata: remote(context))
        metrics.handshakeFailed(failure)
        handshakeTimer?.cancel()
        handshakeTimer = nil
        guard let answer else {
            context.close(promise: nil)
            return
        }
        // Half-close after the answer and close fully a moment later: closing with unread input would send RST,
        // and the client could lose the answer.
        context.writeAndFlush(wrapOutboundOut(answer)).assumeIsolated().whenComplete { _ in
            context.close(mode: .output, promise: nil)
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { context.close(promise: nil) }
    }

    /// The one-line HTTP/1.1 400 for `http://` on the TLS port.
    static func plainHTTPAnswer(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let body =
            "This is the APNs port of mock-apns: it speaks HTTP/2 over TLS only, as APNs does."
            + " Use https:// and HTTP/2 (curl --http2 --cacert CA https://..., with the CA file that serve prints"
            + " under 'trust this CA').\n"
        let text =
            "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nconnection: close\r\n"
            + "content-length: \(body.utf8.count)\r\n\r\n\(body)"
        var buffer = allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        return buffer
    }

    /// The server preface (empty SETTINGS) and a GOAWAY PROTOCOL_ERROR whose debug data says to use TLS.
    static func cleartextGoaway(_ allocator: ByteBufferAllocator) -> ByteBuffer {
        let debug = Array("mock-apns needs TLS on this port (cleartext HTTP/2 only on serve --cleartext-port)".utf8)
        var buffer = allocator.buffer(capacity: 9 + 9 + 8 + debug.count)
        buffer.writeBytes([0, 0, 0, 0x4, 0, 0, 0, 0, 0])  // SETTINGS, no parameters, stream 0
        let length = 8 + debug.count
        buffer.writeBytes([UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), 0x7, 0])
        buffer.writeInteger(UInt32(0))  // stream 0
        buffer.writeInteger(UInt32(0))  // last stream id
        buffer.writeInteger(UInt32(0x1))  // PROTOCOL_ERROR
        buffer.writeBytes(debug)
        return buffer
    }

    private func remote(_ context: ChannelHandlerContext) -> Logger.Metadata {
        guard let address = context.channel.remoteAddress else { return [:] }
        return ["client": "\(address.ipAddress ?? "?"):\(address.port ?? 0)"]
    }

    /// A range-checked duration as NIO's time amount.
    static func amount(_ duration: Duration) -> TimeAmount {
        .milliseconds(DurationText.milliseconds(duration))
    }
}
