import Foundation

extension Device {
    /// The device as a scenario file's `devices:` entry (JSON, which is YAML too).
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("token", .string(token))]
        if let bundleID { members.append(("app", .string(bundleID))) }
        if let environment { members.append(("environment", .string(environment.rawValue))) }
        members.append(("kind", .string(kind.rawValue)))
        if let attributesType { members.append(("attributesType", .string(attributesType))) }
        if let phone { members.append(("phone", .string(phone))) }
        if let channel { members.append(("channel", .string(channel))) }
        if let unregisteredAt {
            members.append(("state", "unregistered"))
            members.append(("since", .string(Timestamp.text(unregisteredAt))))
        } else if let expiredAt {
            members.append(("state", "expired"))
            members.append(("since", .string(Timestamp.text(expiredAt))))
        } else {
            members.append(("state", "active"))
        }
        return .object(members)
    }
}

extension ScriptedRule {
    /// The rule as a scenario file's `rules:` entry (JSON, which is YAML too).
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name))]
        if !match.isEmpty { members.append(("match", match.scenarioJSON)) }
        if let nth { members.append(("nth", .number(String(nth)))) }
        if let times { members.append(("times", .number(String(times)))) }
        if !phone { members.append(("phone", .bool(false))) }
        switch action {
        case .respond(let status, let reason, let timestamp, let delay):
            var respond: [(String, JSONValue)] = [("status", .number(String(status)))]
            if let reason { respond.append(("reason", .string(reason))) }
            if let timestamp { respond.append(("timestamp", .string(Timestamp.text(timestamp)))) }
            if let delay { respond.append(("delay", .string(Self.durationText(delay)))) }
            members.append(("respond", .object(respond)))
        case .fault(let fault, let delay):
            members.append(("fault", .string(fault.rawValue)))
            if let delay { members.append(("delay", .string(Self.durationText(delay)))) }
        }
        return .object(members)
    }

    /// A literal payload value as written in `match.payload`: an object that would read as an operator mapping is
    /// wrapped in `{ equals: … }`.
    static func payloadLiteral(_ value: JSONValue) -> JSONValue {
        guard let members = value.objectMembers, MatchCondition.isOperatorMapping(keys: members.map(\.0)) else {
            return value
        }
        return .object([("equals", value)])
    }

    /// A duration as the scenario format writes it: whole milliseconds, `250ms`.
    static func durationText(_ duration: Duration) -> String {
        "\(DurationText.milliseconds(duration))ms"
    }
}

extension RuleMatch {
    /// Whether the match gives no field (and so matches every request).
    public var isEmpty: Bool {
        token == nil && topic == nil && pushType == nil && headers.isEmpty && payload.isEmpty && conditions.isEmpty
            && device == nil && issuedToken == nil && channelTerms.isEmpty
    }

    /// The `channel` and `operation` terms an `expect:` match's `channel:` and `operation:` give.
    var channelTerms: [MatchTerm] { terms.filter { $0.field == .channel || $0.field == .operation } }

    /// The match as a scenario file's `match:` mapping (JSON, which is YAML too), headers and paths sorted.
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = []
        func text(_ literal: String?, _ subject: MatchSubject) -> JSONValue? {
            literal.map { .string($0) } ?? conditions[subject]?.scenarioJSON
        }
        if let token = text(token, .token) ?? issuedToken?.scenarioJSON { members.append(("token", token)) }
        if let topic = text(topic, .topic) { members.append(("topic", topic)) }
        if let pushType = text(pushType, .pushType) { members.append(("pushType", pushType)) }
        var headers = headers.map { ($0.key, JSONValue.string($0.value)) }
        var payload = payload.map { ($0.key, ScriptedRule.payloadLiteral($0.value)) }
        for (subject, condition) in conditions {
            switch subject {
            case .header(let name): headers.append((name, condition.scenarioJSON))
            case .payload(let path): payload.append((path, condition.scenarioJSON))
            case .token, .topic, .pushType: break
            }
        }
        if !headers.isEmpty { members.append(("headers", .object(headers.sorted { $0.0 < $1.0 }))) }
        if !payload.isEmpty { members.append(("payload", .object(payload.sorted { $0.0 < $1.0 }))) }
        if let device { members.append(("device", device.scenarioJSON)) }
        for term in channelTerms { members.append((term.field.rawValue, .string(term.value))) }
        return .object(members)
    }
}

extension DeviceCondition {
    /// The condition as a `match:`'s `device:` mapping: `outcome`, `rule` and `fired` when given (a name, or a list
    /// of several), then `reason`, `warnings: none` and `final: true` when given.
    public var scenarioJSON: JSONValue {
        func oneOrList(_ names: [String]) -> JSONValue {
            names.count == 1 ? .string(names[0]) : .array(names.map { .string($0) })
        }
        var members: [(String, JSONValue)] = []
        if !outcomes.isEmpty { members.append(("outcome", oneOrList(outcomes.map(\.rawValue)))) }
        if !rules.isEmpty { members.append(("rule", oneOrList(rules.map(\.id)))) }
        if !fired.isEmpty { members.append(("fired", oneOrList(fired.map(\.id)))) }
        if let reason {
            // A literal reason is kept as a one-element oneOf; write it back as the literal.
            if case .oneOf(let literals) = reason, literals.count == 1 {
                members.append(("reason", literals[0]))
            } else {
                members.append(("reason", reason.scenarioJSON))
            }
        }
        if noWarnings { members.append(("warnings", "none")) }
        if final { members.append(("final", .bool(true))) }
        if let count { members.append(("count", ScenarioExpectation.countJSON(count))) }
        return .object(members)
    }
}

extension ScenarioExpectation {
    /// The expectation as a scenario file's `expect:` entry (JSON, which is YAML too); loading it gives this
    /// expectation back (but its `line`).
    public var scenarioJSON: JSONValue {
        var members: [(String, JSONValue)] = [("name", .string(name))]
        if let notificationCenter {
            members.append(("notificationCenter", notificationCenter.scenarioJSON))
            members.append(("count", Self.countJSON(count)))
        } else if sequence.isEmpty {
            if !match.isEmpty { members.append(("match", match.scenarioJSON)) }
            members.append(("count", Self.countJSON(count)))
        } else {
            members.append(("sequence", .array(sequence.map(\.scenarioJSON))))
        }
        if let answered {
            members.append(("answered", answered.reason.map { .string($0) } ?? .number(String(answered.status ?? 200))))
        }
        if let within { members.append(("within", .string(ScriptedRule.durationText(within)))) }
        return .object(members)
    }

    /// `count:` as written: a number for an exact count, else `{ min, max }` without an unbounded max.
    static func countJSON(_ count: ClosedRange<Int>) -> JSONValue {
        if count.lowerBound == count.upperBound { return .number(String(count.lowerBound)) }
        var bounds: [(String, JSONValue)] = [("min", .number(String(count.lowerBound)))]
        if count.upperBound != Int.max { bounds.append(("max", .number(String(count.upperBound)))) }
        return .object(bounds)
    }
}

extension World {
    /// The world as the fields of a scenario file (environment, unknownDevices, unknownKeys, keys, apps with
    /// what their code does, devices, fidelity, and `simulation` when it differs from the defaults); keys carry
    /// their public key as inline `pem`.
    public var scenarioMembers: [(String, JSONValue)] {
        func acceptance(_ policy: StrictnessPolicy) -> JSONValue { policy == .lenient ? "accept" : "reject" }
        let keys: [JSONValue] = keys.values.sorted { $0.keyID < $1.keyID }.map { key in
            var members: [(String, JSONValue)] = [
                ("teamID", .string(key.teamID)), ("keyID", .string(key.keyID)), ("pem", .string(key.publicKey.pem)),
            ]
            if let environment = key.environment { members.append(("environment", .string(environment.rawValue))) }
            if !key.topics.isEmpty { members.append(("topics", .array(key.topics.map { .string($0) }))) }
            return .object(members)
        }
        let apps: [JSONValue] = apps.values.sorted { $0.bundleID < $1.bundleID }.map { app in
            var members: [(String, JSONValue)] = [("bundleID", .string(app.bundleID))]
            if let team = app.teamID { members.append(("teamID", .string(team))) }
            if let behaviour = phone.apps[app.bundleID] { members += behaviour.scenarioMembers }
            return .object(members)
        }
        return [
            ("environment", .string(environment.rawValue)),
            ("unknownDevices", acceptance(devicePolicy)),
            ("unknownKeys", acceptance(keyPolicy)),
            ("keys", .array(keys)),
            ("apps", .array(apps)),
            ("devices", .array(devices.values.sorted { $0.token < $1.token }.map(\.scenarioJSON))),
            ("fidelity", fidelity.scenarioJSON),
        ] + (phone.settings == SimulationSettings() ? [] : [("simulation", phone.settings.scenarioJSON)])
    }
}

extension FidelitySettings {
    /// The settings as a scenario file's `fidelity:` section, every field written out.
    public var scenarioJSON: JSONValue {
        func reasonOrAccept(_ reason: APNsReason?) -> JSONValue { reason.map { .string($0.name) } ?? "accept" }
        return .object([
            ("singleStreamUntilAuthenticated", .bool(singleStreamUntilAuthenticated)),
            ("singleStreamAfterError", .bool(singleStreamAfterError)),
            ("maxConcurrentStreams", .number(String(maxConcurrentStreams))),
            ("streamLimitAnnounceInterval", .string(ScriptedRule.durationText(streamLimitAnnounceInterval))),
            ("methodCheckedBeforePath", .bool(methodCheckedBeforePath)),
            ("topicSuffixMismatch", .string(topicSuffixMismatch.name)),
            ("backgroundPriorityTen", reasonOrAccept(backgroundPriorityTen)),
            ("certificateTopicNotAllowed", .string(certificateTopicNotAllowed.name)),
            ("keyTopicNotAllowed", .string(keyTopicNotAllowed.name)),
            ("invalidJSONPayload", reasonOrAccept(invalidJSONPayload)),
            ("acceptStringIssuedAt", .bool(acceptStringIssuedAt)),
            ("maxFutureIssuedAt", .number(String(maxFutureIssuedAt))),
            ("providerTokenLifetime", .number(String(providerTokenLifetime))),
            ("providerTokenMinimumInterval", .number(String(providerTokenMinimumInterval))),
            ("badEnvironmentKeyReason", .string(badEnvironmentKeyReasonName)),
            ("acceptUppercaseDeviceTokens", .bool(acceptUppercaseDeviceTokens)),
            ("missingPushType", missingPushTypeIsAlert ? "alert" : "reject"),
            ("certificateEnvironmentMismatch", .string(certificateEnvironmentMismatch.rawValue)),
            ("sandboxUniqueID", .bool(sandboxUniqueID)),
            ("undocumentedChannelForms", acceptUndocumentedChannelForms ? "accept" : "reject"),
            ("maxChannelsPerApp", .number(String(maxChannelsPerApp))),
            ("broadcastsPerHourPolicy0", broadcastsPerHourPolicy0.map { .number(String($0)) } ?? "unlimited"),
            ("broadcastsPerHourPolicy1", broadcastsPerHourPolicy1.map { .number(String($0)) } ?? "unlimited"),
        ])
    }
}

extension ProviderCheck {
    /// The check as a `checks:` entry: its name, or with parameters that differ from the defaults a one-key
    /// mapping of its name to them (`{"backs-off": {"minimum": "2000ms"}}`).
    public var scenarioJSON: JSONValue {
        let defaults = ProviderCheck(kind)
        var parameters: [(String, JSONValue)] = []
        switch kind {
        case .backsOff where minimumBackoff != defaults.minimumBackoff:
            parameters.append(("minimum", .string(ScriptedRule.durationText(minimumBackoff))))
        case .reusesConnections where maxConnections != defaults.maxConnections:
            parameters.append(("maxConnections", .number(String(maxConnections))))
        case .tokenRefresh where maxTokenAge != defaults.maxTokenAge:
            parameters.append(("maxAge", .string(ScriptedRule.durationText(maxTokenAge))))
        default:
            break
        }
        return parameters.isEmpty ? .string(kind.rawValue) : .object([(kind.rawValue, .object(parameters))])
    }
}
