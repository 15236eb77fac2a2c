extension ScenarioLoader.Reader {
    /// The token times in seconds a scenario may set: up to ten years.
    static let secondsRange = 0...315_360_000

    /// The fidelity fields, by `FidelitySettings` name (reasons by their wire name).
    static let fidelityFields = [
        "singleStreamUntilAuthenticated", "singleStreamAfterError", "maxConcurrentStreams",
        "streamLimitAnnounceInterval", "methodCheckedBeforePath", "topicSuffixMismatch", "backgroundPriorityTen",
        "certificateTopicNotAllowed", "keyTopicNotAllowed",
        "invalidJSONPayload", "acceptStringIssuedAt", "maxFutureIssuedAt", "providerTokenLifetime",
        "providerTokenMinimumInterval", "badEnvironmentKeyReason", "acceptUppercaseDeviceTokens", "missingPushType",
        "certificateEnvironmentMismatch", "sandboxUniqueID", "undocumentedChannelForms", "maxChannelsPerApp",
        "broadcastsPerHourPolicy0", "broadcastsPerHourPolicy1",
    ]

    /// The `fidelity` section: switches for open facts and the real service's HTTP/2 behaviour.
    func fidelity(_ field: Field) throws(ScenarioError) -> FidelitySettings {
        let fields = try field.mapping(known: Self.fidelityFields)
        var settings = FidelitySettings()
        if let value = fields["singleStreamUntilAuthenticated"] {
            settings.singleStreamUntilAuthenticated = try value.bool()
        }
        if let value = fields["singleStreamAfterError"] {
            settings.singleStreamAfterError = try value.bool()
        }
        if let value = fields["maxConcurrentStreams"] {
            settings.maxConcurrentStreams = try value.integer(in: 1...Int(Int32.max))
        }
        if let value = fields["streamLimitAnnounceInterval"] {
            // 0ms announces every change at once.
            settings.streamLimitAnnounceInterval = try duration(
                value, maximum: FidelitySettings.maxStreamLimitAnnounceInterval)
        }
        if let value = fields["methodCheckedBeforePath"] {
            settings.methodCheckedBeforePath = try value.bool()
        }
        if let value = fields["topicSuffixMismatch"] {
            settings.topicSuffixMismatch = try reason(value)
        }
        if let value = fields["backgroundPriorityTen"] {
            settings.backgroundPriorityTen = try reasonOrAccept(value)
        }
        if let value = fields["certificateTopicNotAllowed"] {
            settings.certificateTopicNotAllowed = try reason(value)
        }
        if let value = fields["keyTopicNotAllowed"] {
            settings.keyTopicNotAllowed = try reason(value)
        }
        if let value = fields["invalidJSONPayload"] {
            settings.invalidJSONPayload = try reasonOrAccept(value)
        }
        if let value = fields["acceptStringIssuedAt"] {
            settings.acceptStringIssuedAt = try value.bool()
        }
        if let value = fields["maxFutureIssuedAt"] {
            settings.maxFutureIssuedAt = Int64(try value.integer(in: Self.secondsRange))
        }
        if let value = fields["providerTokenLifetime"] {
            settings.providerTokenLifetime = Int64(try value.integer(in: 1...Self.secondsRange.upperBound))
        }
        if let value = fields["providerTokenMinimumInterval"] {
            settings.providerTokenMinimumInterval = Int64(try value.integer(in: Self.secondsRange))
        }
        if let value = fields["badEnvironmentKeyReason"] {
            settings.badEnvironmentKeyReasonName = try value.choice([
                "BadEnvironmentKeyInToken": "BadEnvironmentKeyInToken",
                "BadEnvironmentKeyIdInToken": "BadEnvironmentKeyIdInToken",
            ])
        }
        if let value = fields["acceptUppercaseDeviceTokens"] {
            settings.acceptUppercaseDeviceTokens = try value.bool()
        }
        if let value = fields["missingPushType"] {
            settings.missingPushTypeIsAlert = try value.choice(["alert": true, "reject": false])
        }
        if let value = fields["certificateEnvironmentMismatch"] {
            settings.certificateEnvironmentMismatch = try value.choice([
                "goaway": FidelitySettings.CertificateEnvironmentMismatch.goaway, "reject": .reject,
            ])
        }
        if let value = fields["sandboxUniqueID"] {
            settings.sandboxUniqueID = try value.bool()
        }
        if let value = fields["undocumentedChannelForms"] {
            settings.acceptUndocumentedChannelForms = try value.choice(["accept": true, "reject": false])
        }
        if let value = fields["maxChannelsPerApp"] {
            settings.maxChannelsPerApp = try value.integer(in: FidelitySettings.maxChannelsPerAppRange)
        }
        if let value = fields["broadcastsPerHourPolicy0"] {
            settings.broadcastsPerHourPolicy0 = try broadcastBudget(value)
        }
        if let value = fields["broadcastsPerHourPolicy1"] {
            settings.broadcastsPerHourPolicy1 = try broadcastBudget(value)
        }
        return settings
    }

    /// `unlimited` (`nil`), or a number of broadcasts within `FidelitySettings.broadcastsPerHourRange`.
    private func broadcastBudget(_ field: Field) throws(ScenarioError) -> Int? {
        if case .scalar(let scalar) = field.node, scalar.string == "unlimited" { return nil }
        guard field.tagName == .int, !field.isQuoted else {
            throw field.error("expected a number of broadcasts an hour or unlimited; got \(field.shortDescription)")
        }
        return try field.integer(in: FidelitySettings.broadcastsPerHourRange)
    }

    /// A reason APNs uses, by its wire name.
    func reason(_ field: Field) throws(ScenarioError) -> APNsReason {
        let name = try field.string()
        guard let reason = APNsReason.named(name) else {
            throw field.error(
                "unknown reason \(field.shortDescription); known reasons: "
                    + APNsReason.deviceAPI.map(\.name).joined(separator: ", ")
            )
        }
        return reason
    }

    /// `accept` (no error: `nil`) or a reason name.
    func reasonOrAccept(_ field: Field) throws(ScenarioError) -> APNsReason? {
        if try field.string() == "accept" { return nil }
        return try reason(field)
    }
}
