import Foundation

extension InProcessControl {
    /// Sends record `sequence`'s request again (`edit` replacing its headers, its payload or both) through the one
    /// decision path a push on the APNs port takes (scripted rules, else the validator; the phone; the journal),
    /// as the only request on a new connection, and answers the new record (`replayOf` set, no connection).
    ///
    /// Authentication is the recorded request's: its `authorization` header as it was (an expired provider token is
    /// refused ExpiredProviderToken, as APNs would), or the client certificate of the connection it came on. A
    /// scripted delay is waited out; a scripted fault is recorded (there is no stream for it to act on).
    ///
    /// Throws `MockAPNsControlError`: 404 for no such record, 400 for an edit out of bounds, 409 when the control is
    /// read-only, 422 for a record that cannot be sent again as it was (of another kind, a payload the journal cut,
    /// a client certificate the server no longer knows).
    public func replay(_ sequence: UInt64, edit: ReplayEdit?) async throws -> JournalRecord {
        if let reason = readOnlyReason { throw MockAPNsControlError(status: 409, "read-only: \(reason)") }
        let record = try await replayable(sequence)
        if edit?.payload == nil, record.payloadTruncated {
            throw MockAPNsControlError(
                status: 422,
                "record #\(sequence)'s payload was \(record.payloadBytes) bytes and the journal kept only the first "
                    + "\(record.payload.count): it cannot be sent again as it was; give the payload to send in the "
                    + "body ({\"payload\": \"…\"})")
        }
        let certificate = try replayCertificate(of: record)
        let request: APNsRequest
        if let edit {
            let body = edit.payload ?? record.payload
            do { try edit.check(pseudoHeaderBytes: Self.pseudoHeaderBytes(record), payloadSize: body.count) } catch {
                throw MockAPNsControlError(error)
            }
            var headers = edit.headers ?? record.headers
            if edit.headers == nil, edit.payload != nil {
                // A client states the length of the payload it sends; the recorded one was the recorded payload's.
                headers = headers.map { $0.name == "content-length" ? APNsHeader($0.name, String(body.count)) : $0 }
            }
            request = APNsRequest(
                method: record.method, path: record.path, authority: record.authority, scheme: "https",
                headers: headers, body: body, streamID: 0)
        } else {
            request = APNsRequest(record.request, streamID: 0)
        }

        var connection = APNsConnection(
            info: ConnectionInfo(id: 0, remoteAddress: "", alpn: "h2", clientCertificate: certificate), engine: engine)
        let decided: JournalRecord
        let wait: Duration?
        switch connection.decide(request, receivedAt: engine.clock.now(), engine: engine) {
        case .answer(_, let record, let delay):
            (decided, wait) = (record, delay)
        case .fault(_, let record, _, let delay):
            (decided, wait) = (record, delay)
        }
        // A scripted delay holds the answer on the APNs port; here it holds the control API's answer.
        if let wait { try? await Task.sleep(for: wait) }
        var replayed = decided
        replayed.replayOf = sequence
        if replayed.response != nil { replayed.answeredAt = engine.clock.now() }
        var records = [replayed]
        replayed.sequence = engine.record(&records)
        return replayed
    }

    /// Record `sequence`'s request as a curl command to this mock's APNs port (`CurlCommand`).
    ///
    /// Throws `MockAPNsControlError`: 404 for no such record, 422 for a record of another kind.
    public func curl(_ sequence: UInt64) async throws -> String {
        let record = try await replayable(sequence)
        // The push came with a certificate when its auth says so, or the connection it came on had one.
        let certificate = record.auth?.kind == "certificate" || (try? replayCertificate(of: record)) != nil
        return CurlCommand(record: record, endpoint: endpoint, world: engine.world, certificate: certificate).text
    }

    /// Record `sequence`, when it is a device push; else the refusal.
    private func replayable(_ sequence: UInt64) async throws -> JournalRecord {
        guard let record = try await record(sequence: sequence) else {
            throw MockAPNsControlError.notFound(
                "no record #\(sequence): the journal holds \(journal.count) record(s) (cleared or dropped records are "
                    + "gone); list them with GET /v1/requests")
        }
        guard record.kind == .devicePush else {
            throw MockAPNsControlError(
                status: 422,
                "record #\(sequence) is a \(record.kind) record, not a push: only pushes (kind push) can be sent again")
        }
        return record
    }

    /// The client certificate `record`'s push came with: that of the connection it came on (for a replay, the
    /// connection of the record it replays), as the server's connection history knows it; `nil` for none.
    private func replayCertificate(of record: JournalRecord) throws -> APNsClientCertificate? {
        var origin = record
        // A replay of a replay: the first record's connection. Each step goes to a lower sequence number.
        while let earlier = origin.replayOf, earlier > 0, earlier < origin.sequence,
            let found = journal.records(after: earlier - 1).first, found.sequence == earlier
        {
            origin = found
        }
        let known = origin.connectionID == 0 ? nil : engine.connectionHistory.entry(id: origin.connectionID)
        if let certificate = known?.clientCertificate { return certificate }
        guard record.auth?.kind != "certificate" else {
            throw MockAPNsControlError(
                status: 422,
                "record #\(record.sequence) came with a client certificate, on a connection the server no longer "
                    + "knows (it keeps the last \(ConnectionHistory.capacity) connections): a replay without the "
                    + "certificate would be refused MissingProviderToken; send it again from the provider")
        }
        return nil
    }

    /// What the recorded pseudo-headers count against the header bytes, as the APNs port counts them.
    private static func pseudoHeaderBytes(_ record: JournalRecord) -> Int {
        let method = ":method".utf8.count + record.method.utf8.count + 32
        let path = ":path".utf8.count + record.path.utf8.count + 32
        let scheme = ":scheme".utf8.count + "https".utf8.count + 32
        let authority = record.authority.map { ":authority".utf8.count + $0.utf8.count + 32 } ?? 0
        return method + path + scheme + authority
    }
}
