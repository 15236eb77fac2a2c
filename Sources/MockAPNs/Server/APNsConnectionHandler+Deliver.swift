import CNGHTTP2
import Foundation
import NIOCore

extension APNsConnectionHandler {
    /// What the connection does with one decided stream once its record is in the journal.
    struct DeliveryStep {
        /// The stream the request came on.
        var streamID: Int32
        /// What to send on it.
        var reply: Reply

        /// What to send on a decided stream: the engine's `Reply`, or what the stream's fate since made of it.
        enum Reply {
            /// The answer, submitted to HTTP/2.
            case answer(APNsResponse)
            /// A scripted transport fault; for `.goaway`, `response` is the answer of the stream itself.
            case fault(RuleFault, response: APNsResponse?)
            /// Above a GOAWAY's last-stream-id: reset REFUSED_STREAM, and not recorded.
            case refuse
            /// The stream or the session ended before the answer: recorded as unanswered, nothing sent.
            case unanswered
        }
    }

    /// Decides the requests nghttp2 completed in this read, in order, then delivers them.
    ///
    /// Immediate answers gather into one batch, delivered at the end (one clock reading for their arrival, one
    /// journal append); a fault is delivered at once with what came before it, so that what follows it is decided
    /// after it acted (a GOAWAY refuses the streams above it); a delayed answer or fault is delivered on its own
    /// when its delay ends.
    func decideCompletedRequests(context: ChannelHandlerContext) {
        guard let session, !session.completedRequests.isEmpty else { return }
        if atFloor { return answerAtFloor(session) }
        // Swapped with spare arrays, not copied: all three keep their capacity from batch to batch.
        var requests = spareRequests
        swap(&requests, &session.completedRequests)
        var records = spareRecords
        var steps = spareSteps
        spareRecords = []
        spareSteps = []
        defer {
            requests.removeAll(keepingCapacity: true)
            spareRequests = requests
            spareRecords = records
            spareSteps = steps
        }
        connection.refreshWorld(from: engine)
        // The requests of one read arrived together: one clock reading is their arrival time.
        let receivedAt = engine.clock.now()
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
            let reply = connection.decide(request, receivedAt: receivedAt, engine: engine)
            switch consume reply {
            case .answer(let response, let record, let delay):
                let step = DeliveryStep(streamID: streamID, reply: .answer(response))
                if let delay {
                    deliver(record, step, after: delay, context: context)
                } else {
                    // Moved, not copied: a copy retains and releases each of the record's references.
                    records.append(consume record)
                    steps.append(step)
                }
            case .fault(let fault, let record, let response, let delay):
                let step = DeliveryStep(streamID: streamID, reply: .fault(fault, response: response))
                if let delay {
                    deliver(&records, &steps, context: context)  // what was decided before the fault goes first
                    deliver(record, step, after: delay, context: context)
                } else {
                    records.append(record)
                    steps.append(step)
                    deliver(&records, &steps, context: context)
                }
            }
        }
        deliver(&records, &steps, context: context)
    }

    /// `BenchFloor`: answers each completed request 200 and forgets it. The stream limit goes to the one an
    /// authenticated connection has, as after a first accepted push, so the client is not held to one stream.
    private func answerAtFloor(_ session: HTTP2Session) {
        let full = StreamStanding.limit(authenticated: true, inError: false, fidelity: connection.world.fidelity)
        if streamLimit.announced != full {
            let before = streamLimit.announced
            announce(streamLimit.want(full, now: NIODeadline.now().uptimeNanoseconds, interval: 0), before: before)
        }
        for request in session.completedRequests {
            session.submitResponse(streamID: request.streamID, response: BenchFloor.answer)
        }
        session.completedRequests.removeAll(keepingCapacity: true)
    }

    /// Records, then answers: the one path from a decision to the client, for a read's batch, a delayed answer and
    /// a fault alike. Stamps `answeredAt` once, appends every record with one journal lock, then submits, resets or
    /// GOAWAYs each stream in order: a client holding an answer can always find its request in the journal.
    ///
    /// `records[i]` belongs to `steps[i]`. A fault must be the last step. Leaves both arrays empty, with their
    /// capacity.
    func deliver(_ records: inout [JournalRecord], _ steps: inout [DeliveryStep], context: ChannelHandlerContext) {
        guard !records.isEmpty else { return }
        // Read once: nothing below changes them before the records are in the journal.
        let session = session
        let answerable = state.speaksHTTP2 && session?.isAlive == true
        var answeredAt: Date?
        var refused = false
        for index in steps.indices {
            let streamID = steps[index].streamID
            switch steps[index].reply {
            case .fault:
                // Stamped when it carries an answer (a GOAWAY's own stream), whether or not it can still be sent.
                guard records[index].response != nil else { continue }
            case .answer:
                // Above a GOAWAY sent since it was decided: the client was told it was never processed.
                if let session, streamID > session.goawayLastStreamID {
                    steps[index].reply = .refuse
                    refused = true
                    continue
                }
                // The client reset the stream (or left) before a delayed answer, or nghttp2 ended the session after
                // a protocol error: record that nothing was sent.
                guard answerable, let session, session.isStreamOpen(streamID) else {
                    let ended = state.speaksHTTP2 && session.map { $0.isStreamOpen(streamID) && !$0.isAlive } == true
                    records[index].response = nil
                    records[index].answeredAt = nil
                    records[index].note =
                        ended
                        ? "connection ended by an HTTP/2 protocol error before the answer"
                        : "stream closed by the client before the answer"
                    steps[index].reply = .unanswered
                    continue
                }
            case .refuse, .unanswered:
                continue
            }
            if answeredAt == nil { answeredAt = engine.clock.now() }
            records[index].answeredAt = answeredAt
        }
        if refused {
            // A broadcast refused this way never fans out: its place in the backlog is given back.
            for _ in Self.dropRefused(&records, steps) { engine.fanOutBacklog.release() }
        }
        engine.record(&records)
        for step in steps {
            switch step.reply {
            case .answer(let response):
                // A stream-limit change goes out before the answer that caused it, while the stream is still open.
                updateStanding(after: response)
                session?.submitResponse(streamID: step.streamID, response: response)
            case .fault(let fault, let response):
                inject(fault, streamID: step.streamID, response: response, context: context)
            case .refuse:
                session?.resetStream(step.streamID, errorCode: NGHTTP2_REFUSED_STREAM.rawValue)
            case .unanswered:
                break
            }
        }
        steps.removeAll(keepingCapacity: true)
    }

    /// Delivers one decided stream after a scripted delay, or earlier when the connection closes or the shutdown
    /// grace period ends, so that its record is still written.
    func deliver(
        _ record: JournalRecord, _ step: DeliveryStep, after delay: Duration, context: ChannelHandlerContext
    ) {
        let nanoseconds = delay.components.seconds * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000
        let key = held.reserveKey()
        let run = { [self] in
            held.forget(key)
            var records = [record]
            var steps = [step]
            deliver(&records, &steps, context: context)
            flush(context: context)
        }
        let task = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds), run)
        held.keep(key, task: task, run: run)
    }

    /// Keeps the records of the steps not refused (a rare case: only a delayed answer can meet a GOAWAY sent since);
    /// answers the fan-outs of the broadcasts dropped with them.
    private static func dropRefused(_ records: inout [JournalRecord], _ steps: [DeliveryStep]) -> [BroadcastFanOut] {
        var kept: [JournalRecord] = []
        var droppedFanOuts: [BroadcastFanOut] = []
        for (record, step) in zip(records, steps) {
            if case .refuse = step.reply {
                if let fanOut = record.fanOut { droppedFanOuts.append(fanOut) }
                continue
            }
            kept.append(record)
        }
        records = kept
        return droppedFanOuts
    }

    /// Injects a scripted transport fault on a recorded stream.
    private func inject(_ fault: RuleFault, streamID: Int32, response: APNsResponse?, context: ChannelHandlerContext) {
        guard state.speaksHTTP2, let session else { return }
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

    /// Tells the connection's standing an answer is going out, and announces a new stream limit when it asks for
    /// one and the announcer allows it; a held change goes out with the first answer after its interval, never
    /// alone on an idle connection.
    private func updateStanding(after response: APNsResponse) {
        guard let limit = connection.answered(status: response.status) else {
            if streamLimit.heldUntil != nil {
                let before = streamLimit.announced
                announce(streamLimit.release(now: NIODeadline.now().uptimeNanoseconds), before: before)
            }
            return
        }
        let interval = connection.validator.world.fidelity.streamLimitAnnounceInterval.nanoseconds
        let before = streamLimit.announced
        announce(streamLimit.want(limit, now: NIODeadline.now().uptimeNanoseconds, interval: interval), before: before)
    }

    /// Sends what `streamLimit` decided; when nghttp2 cannot submit it the client still has `before`, and the
    /// announcer (the one record of the client's value) is told so.
    private func announce(_ announcement: StreamLimitAnnouncer.Announcement, before: UInt32) {
        guard case .announce(let value) = announcement, session?.announceMaxConcurrentStreams(value) != true else { return }
        streamLimit.notAnnounced(clientHas: before)
    }
}
