import CNGHTTP2
import NIOCore

extension APNsConnectionHandler {
    /// Moves nghttp2's queued frames into `plaintextOut`, to go out with the next flush. False when the session
    /// failed (the connection is closed).
    func gatherOutput(context: ChannelHandlerContext) -> Bool {
        guard let session else { return false }
        var plaintext = plaintextOut ?? context.channel.allocator.buffer(capacity: 16_384)
        plaintextOut = nil
        do {
            try session.send(into: &plaintext)
        } catch {
            logger.debug("HTTP/2 send failed", metadata: ["connection": "\(connection.info.id)", "error": "\(error)"])
            close(context: context)
            return false
        }
        plaintextOut = plaintext
        return true
    }

    /// Sends what nghttp2 queued (through TLS when there is TLS); finishes the connection once the session has
    /// ended, or once a draining connection has no stream left.
    func flush(context: ChannelHandlerContext) {
        // What an earlier `gatherOutput` collected goes first, then the rest nghttp2 queued.
        guard state.speaksHTTP2, let session, gatherOutput(context: context), var plaintext = plaintextOut else {
            return
        }
        plaintextOut = nil
        // The buffer is emptied once written and kept for reuse over TLS.
        defer {
            if tls != nil {
                plaintext.clear()
                plaintextOut = plaintext
            }
        }
        if session.controlFrames.total != reportedControlFrames.total { reportControlFrames() }
        if session.framesReceived.total != reportedFramesReceived.total { reportFramesReceived() }
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
        if !session.isAlive || (state.isDraining && session.openStreamCount == 0 && !session.wantsWrite) {
            finish(context: context)
        }
    }

    /// Adds the control frames sent since the last report to the server's metrics (a lock, taken only when a
    /// control frame went out), and the GOAWAY, RST_STREAM and stream-limit frames among them to the connection's
    /// history (another, only when one of those went out).
    func reportControlFrames() {
        guard let session, session.controlFrames != reportedControlFrames else { return }
        metrics.controlFramesSent(session.controlFrames.subtracting(reportedControlFrames))
        reportedControlFrames = session.controlFrames
        guard !session.sentFrames.isEmpty || session.sentFramesDropped > 0 else { return }
        let (frames, dropped) = session.takeSentFrames()
        engine.connectionHistory.sent(frames, dropped: dropped, on: connection.info.id, at: engine.clock.now())
    }

    /// Hands the control frames the client sent to the connection's history (a lock, taken only when one came).
    func reportFramesReceived() {
        guard let session, session.framesReceived != reportedFramesReceived else { return }
        reportedFramesReceived = session.framesReceived
        engine.connectionHistory.received(session.framesReceived, on: connection.info.id)
    }

    /// Writes what TLS has encrypted (answers, alerts, session tickets, close_notify) to the socket.
    ///
    /// The buffer is kept for the next write: once the socket has taken it, the connection holds the only reference
    /// and `clear()` reuses its memory (a buffer still queued in NIO is copied instead). A new buffer per write
    /// showed in profiles (malloc of several KiB per flush); one over 64 KiB is not kept.
    func writeCiphertext(context: ChannelHandlerContext) {
        guard let tls, tls.hasCiphertext else { return }
        var buffer = ciphertextOut ?? context.channel.allocator.buffer(capacity: tls.pendingCiphertext)
        ciphertextOut = nil
        buffer.clear()
        tls.takeCiphertext(into: &buffer)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        if buffer.capacity <= 65_536 { ciphertextOut = buffer }
    }

    /// Answers an HTTP/1 client once, in words (505), then finishes the connection.
    func refuseHTTP1(context: ChannelHandlerContext) {
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

    // MARK: - Closing

    /// Ends the connection at once (a scripted fault, an I/O error).
    func close(context: ChannelHandlerContext) {
        guard state != .closed else { return }
        state = .closed
        metrics.connectionClosed()
        context.close(promise: nil)
    }

    /// Ends the connection politely: close_notify, then FIN after everything written, and a full close once the
    /// peer has closed too (or after two seconds). Closing at once with unread input in the socket would make the
    /// kernel send RST, and the peer could lose the last answers and the GOAWAY.
    func finish(context: ChannelHandlerContext) {
        guard state != .closed else { return }
        state = .closed
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

    /// An idle connection gets GOAWAY NO_ERROR `{"reason":"IdleTimeout"}` and is closed; at the end of the
    /// shutdown grace period, delayed answers go out at once and held streams are reset.
    func lifecycleEvent(_ event: Any, context: ChannelHandlerContext) {
        if event is IdleTimeoutEvent {
            guard state.speaksHTTP2 else { return close(context: context) }
            session?.submitGoaway(reason: APNsReason.idleTimeout.name)
            flush(context: context)
            finish(context: context)
            return
        }
        let (delayed, streams) = held.takeAll()
        for run in delayed { run() }
        guard state.speaksHTTP2, let session else { return }
        for streamID in streams where session.isStreamOpen(streamID) {
            session.resetStream(streamID, errorCode: NGHTTP2_CANCEL.rawValue)
        }
        flush(context: context)
    }
}
