extension APNsValidator {
    /// "Malformed token: 400 BadDeviceToken. Do not assume 64 characters" (§9; doc/seen). `DeviceToken`'s rule:
    /// any even number of hex digits; upper case is open (`acceptUppercaseDeviceTokens`).
    func checkDeviceTokenFormat(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        let token = context.token
        let utf8 = token.utf8
        guard DeviceToken.hasTokenLength(utf8.count), utf8.count <= DeviceToken.maximumLength else {
            throw Rejection(
                .badDeviceToken, rule: "device-token.format",
                "the device token has \(utf8.count) characters; tokens are an even number of hex digits")
        }
        let digits = context.memo.digits(ofToken: token)
        guard digits.isHex else {
            throw Rejection(.badDeviceToken, rule: "device-token.format", "the device token is not hexadecimal")
        }
        if digits.hasUppercase {
            guard world.fidelity.acceptUppercaseDeviceTokens else {
                throw Rejection(.badDeviceToken, rule: "device-token.case", "the device token has upper-case hex digits")
            }
            context.token = token.lowercased()
        }
    }

    /// "Empty: 400 PayloadEmpty. Limit 4096 bytes; 5120 for voip. Over: 413 PayloadTooLarge" (§7; doc).
    /// A payload that is not a JSON object is open (`invalidJSONPayload`): accepted and flagged by default.
    func checkPayload(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        let body = request.body
        guard !body.isEmpty || request.bodyTruncated else {
            throw Rejection(.payloadEmpty, rule: "payload.empty", "the request has no payload")
        }
        let limit = (context.pushType ?? .alert).payloadLimit
        guard body.count <= limit, !request.bodyTruncated else {
            throw Rejection(
                .payloadTooLarge, rule: "payload.size", "the payload is \(body.count) bytes; the limit is \(limit)")
        }
        let scan = context.memo.payloadScan(body)
        if let problem = scan.problem {
            if let reason = world.fidelity.invalidJSONPayload {
                throw Rejection(reason, rule: "payload.json", "the payload \(problem)")
            }
            context.notes.append("the payload \(problem)")
        }
        context.payloadDisplay = scan.display
    }

    /// Token state (§9): environment, app, kind, unregistered, expired.
    func checkDeviceState(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {
        // A world that declares no device (the default one) looks nothing up: even a miss in an empty dictionary
        // copied a `Device?` out, about 15 ns a push in `bench/profile.sh`.
        guard !world.devices.isEmpty, let device = world.devices[context.token] else {
            // Only a token of the phone's length can be one it issued. Asked here, not in `checkUndeclaredToken`:
            // passing the context copies it, which every push to an undeclared token paid (`bench/profile.sh`).
            if context.token.utf8.count == ActivityRegistry.tokenLength {
                try checkUndeclaredToken(context)
            } else {
                try checkUnknownToken()
            }
            return
        }
        // "A valid token from the other environment: 400 BadDeviceToken" (§9; doc).
        if let environment = device.environment, environment != world.environment {
            throw Rejection(
                .badDeviceToken, rule: "device.environment",
                "the token was issued in \(environment); this server is \(world.environment)")
        }
        try checkTokenFits(kind: device.kind, bundleID: device.bundleID, context)
        // "Inactive: 410 Unregistered + timestamp. Expired: 410 ExpiredToken" (§9; doc).
        if let since = device.unregisteredAt, since <= context.now {
            throw Rejection(.unregistered, rule: "device.unregistered", "the token was unregistered", timestamp: since)
        }
        if let since = device.expiredAt, since <= context.now {
            throw Rejection(.expiredToken, rule: "device.expired", "the token has expired", timestamp: since)
        }
        // A declared live-activity token with an activity behind it (`attributesType`) can end like an issued one.
        if endedTokens != nil, device.kind == .liveActivity, device.attributesType != nil {
            try checkEndedActivityToken(context)
        }
    }

    /// A token the world does not list. An update token the simulated phone issued is a live-activity device all
    /// the same (issue 12; issue 20: an alert to it is refused as to a declared one), of the app whose push-to-start
    /// token started it when the world names one; any other token is unknown: BadDeviceToken in strict mode.
    ///
    /// The phone issues 160-digit tokens (`ActivityRegistry.tokenLength`); a shorter or longer token can only be one
    /// the world lists, so a push to it takes no lock (`checkDeviceState` asks). A 160-digit one takes the
    /// registry's lock once.
    private func checkUndeclaredToken(_ context: Context) throws(Rejection) {
        guard let issued = issuedTokens?.issuedToken(DeviceToken(validated: context.token)) else {
            return try checkUnknownToken()
        }
        let bundleID = issued.pushToStartToken.flatMap { world.devices[$0]?.bundleID }
        try checkTokenFits(kind: .liveActivity, bundleID: bundleID, context)
        if endedTokens != nil { try checkEndedActivityToken(context) }
    }

    /// A token neither the world nor the phone knows: BadDeviceToken in strict mode, else accepted.
    private func checkUnknownToken() throws(Rejection) {
        if world.devicePolicy == .strict {
            throw Rejection(.badDeviceToken, rule: "device.unknown", "no device has this token (strict mode)")
        }
    }

    /// Whether a token of `kind`, issued for `bundleID` (`nil`: any), takes this push: its app and its push type.
    private func checkTokenFits(kind: Device.Kind, bundleID: String?, _ context: Context) throws(Rejection) {
        // "Token for another app or target: 400 DeviceTokenNotForTopic" (§9; doc).
        if let bundleID, let requested = context.bundleID, bundleID != requested {
            throw Rejection(
                .deviceTokenNotForTopic, rule: "device.app", "the token belongs to \(bundleID), not \(requested)")
        }
        let pushType = context.pushType ?? .alert
        let kindFits: Bool =
            switch kind {
            case .app: pushType != .liveactivity && pushType != .voip
            case .voip: pushType == .voip
            case .pushToStart, .liveActivity: pushType == .liveactivity
            }
        if !kindFits {
            throw Rejection(
                .deviceTokenNotForTopic, rule: "device.kind",
                "the token is a \(kind.rawValue) token; it cannot take \(pushType.name) pushes")
        }
    }
}
