import Foundation

extension MockAPNsEngine {
    /// Decides a request to the channel management port (`ChannelValidator`): applies it to the channel store and
    /// makes its answer and its `channel` record.
    func decideChannelRequest(
        _ request: APNsRequest, receivedAt: Date, connection: inout APNsConnection
    ) -> Reply {
        let decision = ChannelValidator(validator: connection.validator, store: channels).decide(
            request, connection: connection.info, auth: &connection.auth, memo: connection.memo, now: receivedAt)
        let requestID = answerRequestID(request, &connection)
        var response: APNsResponse
        if let rejection = decision.rejection {
            response = .error(rejection.reason, id: requestID)
            response.broadcast = .plain
        } else {
            switch decision.operation {
            case .create:
                response = APNsResponse(status: 201, id: requestID)
                response.broadcast = BroadcastAnswerHeaders(channelID: decision.channelID)
            case .read:
                response = APNsResponse(status: 200, id: requestID, body: decision.channel?.readBody.jsonText)
                response.broadcast = .plain
            case .delete:
                response = APNsResponse(status: 204, id: requestID)
                response.broadcast = .plain
            case .list, nil:
                let ids = JSONValue.array((decision.listed ?? []).map { .string($0) })
                let body = JSONValue.object([("channels", ids)]).jsonText
                response = APNsResponse(status: 200, id: requestID, body: body)
                response.broadcast = .plain
            }
        }
        var members = Self.commonMembers(of: request, connection: connection.info)
        members += Self.answerMembers(response, rejection: decision.rejection)
        members += [
            ("operation", decision.operation.map { .string($0.rawValue) } ?? .null),
            ("app", decision.bundleID.map { .string($0) } ?? .null),
            ("environment", .string(connection.world.environment.rawValue)),
            ("channel", decision.channelID.map { .string($0) } ?? .null),
        ]
        if let channel = decision.channel {
            members.append(("storagePolicy", .number(String(channel.storagePolicy.rawValue))))
        }
        if let listed = decision.listed { members.append(("listed", .number(String(listed.count)))) }
        members.append(("form", .string(decision.form.rawValue)))
        members += Self.decisionMembers(
            response, rejection: decision.rejection, notes: decision.notes, auth: decision.auth,
            accepted: "channel \(decision.operation?.rawValue ?? "operation") done")
        members += Self.requestMembers(of: request)
        let record = JournalRecord(kind: .channel, receivedAt: receivedAt, members: members)
        return .answer(response, record: record.answered(on: connection.info, streamID: request.streamID), delay: nil)
    }

    /// Decides a broadcast (`POST /4/broadcasts/apps/<bundle>` on the APNs port, `BroadcastValidator`): its answer
    /// and its `broadcast` record; an accepted one counts on its channel.
    func decideBroadcast(_ request: APNsRequest, receivedAt: Date, connection: inout APNsConnection) -> Reply {
        let decision = BroadcastValidator(
            validator: connection.validator, store: channels, backlog: fanOutBacklog
        ).decide(
            request, connection: connection.info, auth: &connection.auth, memo: connection.memo, now: receivedAt)
        let requestID = answerRequestID(request, &connection)
        var response: APNsResponse
        var fanOut: BroadcastFanOut?
        if let rejection = decision.rejection {
            response = .error(rejection.reason, id: requestID)
        } else {
            response = .success(id: requestID, uniqueID: .generated(connection.ids.uuid(), uppercase: false))
            if let channel = decision.channel {
                let job = BroadcastFanOut(
                    channel: channel, payload: request.body, priority: decision.priority ?? 10,
                    receivedAt: receivedAt)
                let message = StoredBroadcast(
                    payload: String(decoding: request.body, as: UTF8.self), receivedAt: receivedAt,
                    expiration: decision.expiration ?? 0, priority: decision.priority ?? 10)
                channels.noteBroadcast(message, to: channel.id, number: job.number)
                fanOut = job
            }
        }
        response.broadcast = .plain
        var members = Self.commonMembers(of: request, connection: connection.info)
        members += Self.answerMembers(response, rejection: decision.rejection)
        members += [
            ("app", decision.bundleID.map { .string($0) } ?? .null),
            ("environment", .string(connection.world.environment.rawValue)),
            ("channel", decision.channelID.map { .string($0) } ?? .null),
            ("storagePolicy", decision.channel.map { .number(String($0.storagePolicy.rawValue)) } ?? .null),
            ("priority", decision.priority.map { .number(String($0)) } ?? .null),
            ("expiration", decision.expiration.map { .number(String($0)) } ?? .null),
            ("uniqueID", response.apnsUniqueID.map { .string($0) } ?? .null),
        ]
        members += Self.decisionMembers(
            response, rejection: decision.rejection, notes: decision.notes, auth: decision.auth,
            accepted: "broadcast accepted")
        members += Self.requestMembers(of: request)
        let payload = String(decoding: request.body.prefix(JournalRecord.keptPayloadLimit), as: UTF8.self)
        members.append(("payload", .string(payload)))
        let record = JournalRecord(kind: .broadcast, receivedAt: receivedAt, members: members, fanOut: fanOut)
        return .answer(response, record: record.answered(on: connection.info, streamID: request.streamID), delay: nil)
    }

    /// The `apns-request-id` of an answer: the request's when it is a UUID (echoed), else a generated one.
    private func answerRequestID(_ request: APNsRequest, _ connection: inout APNsConnection) -> APNsResponse.ID {
        if let given = request.header("apns-request-id"), APNsValidator.isCanonicalUUID(given) { return .text(given) }
        return .generated(connection.ids.uuid(), uppercase: false)
    }

    /// The members a broadcast or channel record starts with: where it came from.
    private static func commonMembers(of request: APNsRequest, connection: ConnectionInfo) -> [(String, JSONValue)] {
        [
            ("connection", .number(String(connection.id))), ("remoteAddress", .string(connection.remoteAddress)),
            ("stream", .number(String(request.streamID))),
        ]
    }

    /// The answer, first after the common members: `mock-apns requests` shows the members in order on one line.
    private static func answerMembers(_ response: APNsResponse, rejection: Rejection?) -> [(String, JSONValue)] {
        [
            ("status", .number(String(response.status))),
            ("reason", rejection.map { .string($0.reason.name) } ?? .null),
        ]
    }

    /// What the request asked, as it came: its method and path.
    private static func requestMembers(of request: APNsRequest) -> [(String, JSONValue)] {
        [("method", .string(request.method)), ("path", .string(request.path))]
    }

    /// The rule that decided, the request id answered, notes and auth.
    private static func decisionMembers(
        _ response: APNsResponse, rejection: Rejection?, notes: [String], auth: AuthSummary?, accepted: String
    ) -> [(String, JSONValue)] {
        [
            ("requestID", .string(response.apnsID)),
            ("rule", .string(rejection?.rule ?? "accepted")),
            ("explanation", .string(rejection?.explanation ?? accepted)),
            ("notes", .array(notes.map { .string($0) })),
            ("auth", auth?.json ?? .null),
        ]
    }
}

extension JournalRecord {
    /// This record of another kind, placed on the connection and stream its request came on.
    fileprivate func answered(on connection: ConnectionInfo, streamID: Int32) -> JournalRecord {
        var record = self
        record.connectionID = connection.id
        record.remoteAddress = connection.remoteAddress
        record.streamID = streamID
        return record
    }
}
