import Foundation

/// The rules of the channel management port (shared/live-activities.md §3): create, read, delete and list an app's
/// broadcast channels, with the device port's certificate and provider-token authentication.
///
/// Check order (Apple documents none; the device API's, §10): certificate environment, path, method, request id,
/// provider authentication, app, then the operation's own (channel id, body, limit). The first failure decides.
struct ChannelValidator {
    /// The connection's rules over the world: authentication, the world's apps and settings.
    let validator: APNsValidator
    /// The channels of the run.
    let store: ChannelStore

    /// Decides one request, received at `now`, and applies it to the store when it is accepted. `auth` is the
    /// connection's provider-token state.
    func decide(
        _ request: APNsRequest, connection: ConnectionInfo, auth: inout ProviderAuthState, memo: ValidationMemo,
        now: Date
    ) -> ChannelDecision {
        var decision = ChannelDecision()
        var context = APNsValidator.Context(clientCertificate: connection.clientCertificate, now: now, memo: memo)
        do throws(Rejection) {
            try validator.checkConnection(request, &context)
            let path = try route(request, &decision)
            try validator.checkRequestID(request)
            try validator.checkProviderAuthentication(request, &context, auth: &auth)
            decision.auth = context.auth
            try validator.checkBroadcastApp(path.bundleID, &context)
            try perform(request, path: path, &decision, now: now)
        } catch {
            decision.rejection = error
        }
        decision.auth = context.auth
        decision.notes.insert(contentsOf: context.notes, at: 0)
        return decision
    }

    /// "Any other path: 404 BadPath; a method the path does not take: 405 MethodNotAllowed" (§3; doc). Which
    /// operation the request is, and in which form; APNSwift's undocumented forms are taken, and noted, unless
    /// `fidelity.acceptUndocumentedChannelForms` is off.
    private func route(_ request: APNsRequest, _ decision: inout ChannelDecision) throws(Rejection) -> ChannelPath {
        let undocumented = validator.world.fidelity.acceptUndocumentedChannelForms
        guard let path = ChannelPath(request.path) else {
            throw Rejection(
                .badPath, rule: "path",
                "\(request.path) is not a channel path; the channel port serves /1/apps/<bundle>/channels and "
                    + "/1/apps/<bundle>/all-channels")
        }
        decision.bundleID = path.bundleID
        let method = request.method
        switch path.resource {
        case .allChannels:
            guard method == "GET" else { throw Self.methodNotAllowed(method, path: "all-channels", takes: "GET") }
            decision.operation = .list
        case .channels(let id?):
            guard undocumented else {
                throw Rejection(
                    .badPath, rule: "path.channel-id",
                    "the channel id goes in the apns-channel-id header, not the path "
                        + "(undocumentedChannelForms: reject)")
            }
            decision.form = .idInPath
            decision.channelID = id
            switch method {
            case "GET": decision.operation = .read
            case "DELETE": decision.operation = .delete
            default: throw Self.methodNotAllowed(method, path: "channels/<id>", takes: "GET and DELETE")
            }
            decision.notes.append(
                "the channel id is in the path (/channels/<id>, as APNSwift sends it); Apple documents the "
                    + "apns-channel-id header")
        case .channels(nil):
            switch method {
            case "POST": decision.operation = .create
            case "DELETE": decision.operation = .delete
            case "GET":
                if request.header("apns-channel-id") == nil, undocumented {
                    decision.operation = .list
                    decision.form = .listAtChannels
                    decision.notes.append(
                        "GET /channels without apns-channel-id taken as the list (as APNSwift sends it); Apple "
                            + "documents GET /all-channels")
                } else {
                    decision.operation = .read
                }
            default: throw Self.methodNotAllowed(method, path: "channels", takes: "POST, GET and DELETE")
            }
        }
        return path
    }

    private static func methodNotAllowed(_ method: String, path: String, takes: String) -> Rejection {
        Rejection(.methodNotAllowed, rule: "method", "\(method) is not allowed on \(path); it takes \(takes)")
    }

    /// The operation itself, on the store.
    private func perform(
        _ request: APNsRequest, path: ChannelPath, _ decision: inout ChannelDecision, now: Date
    ) throws(Rejection) {
        let environment = validator.world.environment
        switch decision.operation {
        case .create:
            let policy = try createBody(request)
            switch store.create(
                bundleID: path.bundleID, environment: environment, storagePolicy: policy,
                limit: validator.world.fidelity.maxChannelsPerApp, now: now)
            {
            case .success(let channel):
                decision.channel = channel
                decision.channelID = channel.id
            case .failure(.limitReached(let limit)):
                throw Rejection(
                    .cannotCreateChannelConfig, rule: "channels.limit",
                    "\(path.bundleID) already has \(limit) channels in \(environment) (maxChannelsPerApp)")
            case .failure(.storeFull):
                throw Rejection(
                    .cannotCreateChannelConfig, rule: "channels.store-full",
                    "the mock already holds \(ChannelStore.maxChannels) channels of all apps; delete some or reset")
            }
        case .read, .delete:
            // "MissingChannelId, BadChannelId; an id this app does not have here: ChannelNotRegistered" (§3; doc).
            let id = try validator.checkChannelID(request, fromPath: decision.channelID)
            decision.channelID = id
            let found =
                decision.operation == .read
                ? store.channel(id, bundleID: path.bundleID, environment: environment)
                : store.delete(id, bundleID: path.bundleID, environment: environment)
            guard let found else {
                throw Rejection(
                    .channelNotRegistered, rule: "channel.unknown",
                    "\(path.bundleID) has no channel \(id) in \(environment) (never created, or deleted)")
            }
            decision.channel = found
        case .list:
            decision.listed = store.ids(bundleID: path.bundleID, environment: environment)
        case nil:
            break
        }
    }

    /// A create's body, `{"message-storage-policy": 0 or 1, "push-type": "LiveActivity"}`: its storage policy.
    /// "Empty: PayloadEmpty; not a JSON object: BadRequestPayload; no push-type: MissingPushType, another:
    /// InvalidPushType; the policy missing or not 0 or 1: BadRequestParams" (§3; the split by member is open).
    private func createBody(_ request: APNsRequest) throws(Rejection) -> BroadcastChannel.StoragePolicy {
        guard !request.body.isEmpty else {
            throw Rejection(.payloadEmpty, rule: "body.empty", "a create needs a JSON body")
        }
        guard case .object(let members)? = try? JSONParser.parse(request.body) else {
            throw Rejection(.badRequestPayload, rule: "body.json", "the body is not a JSON object")
        }
        func member(_ name: String) -> JSONValue? { members.first { $0.0 == name }?.1 }
        guard let pushType = member("push-type") else {
            throw Rejection(.missingPushType, rule: "body.push-type", "the body has no push-type")
        }
        guard case .string(let name) = pushType, name.lowercased() == BroadcastChannel.pushType.lowercased() else {
            throw Rejection(
                .invalidPushType, rule: "body.push-type",
                "push-type is \(pushType.jsonText); channels carry \(BroadcastChannel.pushType)")
        }
        guard let value = member("message-storage-policy") else {
            throw Rejection(
                .badRequestParams, rule: "body.message-storage-policy", "the body has no message-storage-policy")
        }
        guard case .number(let text) = value, let number = Int(text),
            let policy = BroadcastChannel.StoragePolicy(rawValue: number)
        else {
            throw Rejection(
                .badRequestParams, rule: "body.message-storage-policy",
                "message-storage-policy is \(value.jsonText); it takes 0 (no message stored) or 1 (the most recent)")
        }
        return policy
    }
}
