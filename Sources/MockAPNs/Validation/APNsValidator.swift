import Foundation

/// The APNs rules for `POST /3/device/<token>`, as a pure function of the request, the connection, the
/// world and the time.
///
/// Apple documents no order of checks; this one follows apns-reference.md §10 (close to Pushy's): connection,
/// method and path, duplicate headers, header formats, provider authentication, topic, token format, payload,
/// token state. The first failure decides, and the decision names its rule.
public struct APNsValidator: Sendable {
    public var world: World
    /// The update tokens the simulated phone issued (issue 12): devices in strict mode too, without a world
    /// change. Asked only for tokens the world does not list.
    public var issuedTokens: ActivityRegistry?
    /// `liveActivity.endedTokenUnregistered` when it is on: an ended activity's update token answers 410 (open).
    /// Passed beside `issuedTokens` rather than put in the world: it is a setting of the scenario's `liveActivity`
    /// section, with the phone's other settings, and `nil` keeps the check to one test.
    public var endedTokens: EndedActivityTokens?
    /// Where a provider token's `iat` falls on the mock's clock once that is moved from real time (the engine's,
    /// shared by every connection); `nil` reads every `iat` as it is.
    public var providerTokenClock: ProviderTokenClock?

    public init(
        world: World, issuedTokens: ActivityRegistry? = nil, endedTokens: EndedActivityTokens? = nil,
        providerTokenClock: ProviderTokenClock? = nil
    ) {
        self.world = world
        self.issuedTokens = issuedTokens
        self.endedTokens = endedTokens
        self.providerTokenClock = providerTokenClock
    }

    /// Decides one request. `auth` is the connection's provider-token state; a valid new token is installed.
    public func validate(
        _ request: APNsRequest, connection: ConnectionInfo, auth: inout ProviderAuthState, now: Date
    ) -> Verdict {
        validate(request, connection: connection, auth: &auth, memo: ValidationMemo(), now: now)
    }

    /// Decides one request, reusing what `memo` (the connection's, made with this validator) already worked out.
    ///
    /// Whatever decides, what the checks learned (notes, auth, push type) goes into the verdict.
    func validate(
        _ request: APNsRequest, connection: ConnectionInfo, auth: inout ProviderAuthState, memo: ValidationMemo,
        now: Date
    ) -> Verdict {
        var token: DeviceToken?
        return validate(request, connection: connection, auth: &auth, memo: memo, now: now, acceptedToken: &token)
    }

    /// Decides one request as above, and sets `acceptedToken` to its device token, checked and lower-cased, when
    /// the request is accepted: the token the device stage looks up (the path's may be upper case).
    func validate(
        _ request: APNsRequest, connection: ConnectionInfo, auth: inout ProviderAuthState, memo: ValidationMemo,
        now: Date, acceptedToken: inout DeviceToken?
    ) -> Verdict {
        var context = Context(clientCertificate: connection.clientCertificate, now: now, memo: memo)
        let outcome: Verdict.Decision
        let rule: String
        let explanation: String
        do throws(Rejection) {
            try checkConnection(request, &context)
            try checkMethodAndPath(request, &context)
            try checkDuplicateHeaders(request, &context)
            try checkHeaderFormats(request, &context)
            try checkProviderAuthentication(request, &context, auth: &auth)
            try checkTopic(request, &context)
            try checkDeviceTokenFormat(request, &context)
            try checkPayload(request, &context)
            try checkDeviceState(request, &context)
            if context.pushType == .liveactivity {
                noteLiveActivityStart(request, &context)
            } else if context.pushType == .alert, let note = context.payloadDisplay.note,
                !world.phone.enabled
            {
                // "An alert push with nothing to show: APNs answers 200; the phone shows nothing" (phone.md §5).
                // With the phone simulated, that is the push's device outcome (`nothing-to-show`) instead.
                context.notes.append(note)
            }
            outcome = .accepted
            // Normalised once, by `checkDeviceTokenFormat`: wrapping it is a retain, not a copy.
            acceptedToken = DeviceToken(validated: context.token)
            rule = "accepted"
            explanation = "every check passed"
        } catch {
            outcome = .rejected(error.reason, timestamp: error.timestamp)
            rule = error.rule
            explanation = error.explanation
        }
        // What the checks learned is moved out of the context, not copied (a retain and a release each).
        var notes: [String] = []
        swap(&notes, &context.notes)
        return Verdict(
            outcome: outcome, rule: rule, explanation: explanation, notes: notes, auth: context.auth.take(),
            pushType: context.pushType?.name, topic: request.fields.topic)
    }

    /// What the checks learn on the way, for later checks and for the record.
    struct Context {
        /// The connection's client certificate (nil on token connections): all the checks read of the connection.
        let clientCertificate: APNsClientCertificate?
        let now: Date
        /// The path's device token, lower-cased once its format is checked (`checkDeviceTokenFormat`).
        var token = ""
        var pushType: APNsPushType?
        var priority: Int?
        var topic: String?
        var bundleID: String?
        var auth: AuthSummary?
        /// The signing key, when it is limited to some topics (the only use the later checks make of it).
        var topicLimitedKey: SigningKey?
        /// What the phone would show for the payload (`checkPayload`).
        var payloadDisplay = PayloadDisplay.notAnObject
        var notes: [String] = []
        let memo: ValidationMemo

        init(clientCertificate: APNsClientCertificate?, now: Date, memo: ValidationMemo) {
            self.clientCertificate = clientCertificate
            self.now = now
            self.memo = memo
        }
    }

    // MARK: - Connection, method, path

    /// "A wrong-environment client certificate gets GOAWAY ... BadCertificateEnvironment" (§2, §6; doc/seen).
    /// With `certificateEnvironmentMismatch: reject` each request is answered 403 instead.
    func checkConnection(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        guard let certificate = context.clientCertificate else { return }
        if !certificate.environments.isEmpty, !certificate.environments.contains(world.environment) {
            throw Rejection(
                .badCertificateEnvironment, rule: "certificate.environment",
                "the client certificate is for \(certificate.environments.map(\.rawValue).sorted().joined(separator: ", ")) and this server is \(world.environment)"
            )
        }
    }

    /// "Any other path: 404 BadPath. Method other than POST: 405 MethodNotAllowed. `/3/device/` with no token:
    /// 400 MissingDeviceToken" (§1; doc). Which wins when both are wrong is open: `methodCheckedBeforePath`.
    func checkMethodAndPath(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        let methodOK = request.method == "POST"
        let token = request.deviceToken
        let pathRejection: Rejection?
        if let token {
            pathRejection =
                token.isEmpty
                ? Rejection(.missingDeviceToken, rule: "path.token", "the path /3/device/ has no device token")
                : nil
            context.token = token
        } else if request.path == "/3/device" {
            pathRejection = Rejection(.missingDeviceToken, rule: "path.token", "the path /3/device has no device token")
        } else {
            pathRejection = Rejection(
                .badPath, rule: "path", "\(request.path) is not a device path; APNs serves POST /3/device/<token>")
        }
        let methodRejection =
            methodOK
            ? nil
            : Rejection(.methodNotAllowed, rule: "method", "\(request.method) is not allowed; APNs takes POST")
        let first = world.fidelity.methodCheckedBeforePath ? methodRejection ?? pathRejection : pathRejection ?? methodRejection
        if let first { throw first }
    }

    /// "Any header twice: 400 DuplicateHeaders" (§3; doc).
    func checkDuplicateHeaders(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        if let name = request.fields.duplicate {
            throw Rejection(.duplicateHeaders, rule: "headers.duplicate", "the header \(name) is sent twice")
        }
    }
}
