import Foundation
import Yams

extension ScenarioLoader.Reader {
    /// The fields of one entry of `keys`.
    static let signingKeyFields = ["teamID", "keyID", "publicKey", "p8", "pem", "environment", "topics"]

    /// The `keys` list: signing keys by key id.
    func signingKeys(_ field: Field) throws(ScenarioError) -> [String: SigningKey] {
        var keys = [String: SigningKey]()
        var firstLine = [String: Int]()
        for element in try field.list() {
            let fields = try element.mapping(known: Self.signingKeyFields)
            let keyIDField = try fields.required("keyID")
            let keyID = try appleID(keyIDField, what: "key id")
            if let line = firstLine[keyID] {
                throw keyIDField.error("duplicate key id \(keyID); it is already given at line \(line)")
            }
            firstLine[keyID] = keyIDField.node.mark?.line ?? 0
            var key = SigningKey(
                teamID: try appleID(try fields.required("teamID"), what: "team id"),
                keyID: keyID,
                publicKey: try publicKey(fields, at: element)
            )
            if let environment = fields["environment"] {
                key.environment = try self.environment(environment)
            }
            if let topics = fields["topics"] {
                for topic in try topics.list() {
                    key.topics.append(try bundleID(topic))
                }
            }
            keys[keyID] = key
        }
        return keys
    }

    /// A team or key id: ten characters, upper-case letters and digits, as Apple issues them.
    func appleID(_ field: Field, what: String) throws(ScenarioError) -> String {
        let text = try field.string()
        guard text.count == 10, text.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else {
            let length = text.count == 10 ? "" : ", got \(text.count)"
            let example = what == "key id" ? "TESTKEY001" : "TESTTEAM01"
            throw field.error(
                "a \(what) is 10 characters A-Z and 0-9 (like \(example))\(length): \(field.shortDescription)"
            )
        }
        return text
    }

    /// The key from exactly one of `publicKey` (file), `p8` (file) or `pem` (inline text).
    func publicKey(_ fields: Fields, at element: Field) throws(ScenarioError) -> ES256PublicKey {
        let given = ["publicKey", "p8", "pem"].compactMap { name in fields[name].map { (name, $0) } }
        guard given.count == 1, let (name, source) = given.first else {
            let problem = given.isEmpty ? "none is given" : "\(given.map(\.0).joined(separator: " and ")) are given"
            throw (given.dropFirst().first?.1 ?? element).error(
                "give exactly one of publicKey (a PUBLIC KEY PEM file), p8 (Apple's .p8 file) or pem (the PEM text); "
                    + problem
            )
        }
        let pem: String
        let origin: String
        if name == "pem" {
            pem = try source.string()
            origin = "the PEM text"
        } else {
            let file = try fileContents(source)
            pem = file.text
            origin = file.path
        }
        do {
            return try ES256PublicKey(pem: pem)
        } catch {
            throw source.error("\(origin) is not a usable P-256 key: \(error)")
        }
    }

    /// The `apps` list: apps by bundle id.
    func apps(_ field: Field) throws(ScenarioError) -> [String: AppRecord] {
        var apps = [String: AppRecord]()
        var firstLine = [String: Int]()
        for element in try field.list() {
            let fields = try element.mapping(known: ["bundleID", "teamID"] + Self.appBehaviourFields)
            let bundleField = try fields.required("bundleID")
            let bundle = try bundleID(bundleField)
            if let line = firstLine[bundle] {
                throw bundleField.error("duplicate bundle id \(bundle); it is already given at line \(line)")
            }
            firstLine[bundle] = bundleField.node.mark?.line ?? 0
            var app = AppRecord(bundleID: bundle)
            if let team = fields["teamID"] {
                app.teamID = try appleID(team, what: "team id")
            }
            apps[bundle] = app
        }
        return apps
    }

    /// A bundle id or topic: non-empty, no spaces or slashes.
    func bundleID(_ field: Field) throws(ScenarioError) -> String {
        let text = try field.string()
        guard BundleID.isPlausible(text) else {
            throw field.error(
                "expected a bundle id such as com.example.app (at most \(BundleID.maximumLength) bytes, no spaces, "
                    + "/, ?, # or %), got \(field.shortDescription)")
        }
        return text
    }

    /// The `devices` list: devices by lower-case token.
    ///
    /// - Parameter activityTypes: the declared activity types a push-to-start device's `attributesType` may name;
    ///   `nil` takes any name (devices added at run time, whose scenario is not at hand).
    ///   - phones: the phones a device's `phone:` may name; `nil` takes any id (devices added at run time).
    ///   - channels: the channels a live-activity device's `channel:` may name (`channels:`); `nil` takes any
    ///     well-formed id (devices added at run time: the server checks them).
    ///   - environment: the server's environment, for a device or channel that names none.
    func devices(
        _ field: Field, activityTypes: [String]? = nil, phones: [String]? = nil,
        channels: [ChannelDeclaration]? = nil, environment: APNsEnvironment = .sandbox
    ) throws(ScenarioError) -> [String: Device] {
        var devices = [String: Device]()
        var firstLine = [String: Int]()
        for element in try field.list() {
            let fields = try element.mapping(known: [
                "token", "app", "environment", "kind", "state", "since", "attributesType", "phone", "channel",
            ])
            let tokenField = try fields.required("token")
            let token = try deviceToken(tokenField)
            if let line = firstLine[token] {
                throw tokenField.error("duplicate device token; it is already given at line \(line)")
            }
            firstLine[token] = tokenField.node.mark?.line ?? 0
            var device = Device(token: token)
            if let app = fields["app"] {
                device.bundleID = try bundleID(app)
            }
            if let environment = fields["environment"] {
                device.environment = try self.environment(environment)
            }
            if let kind = fields["kind"] {
                device.kind = try kind.choice([
                    "app": Device.Kind.app, "push-to-start": .pushToStart, "live-activity": .liveActivity,
                    "voip": .voip,
                ])
            }
            if let attributesType = fields["attributesType"] {
                device.attributesType = try self.attributesType(
                    attributesType, kind: device.kind, declared: activityTypes)
            }
            if let phone = fields["phone"] {
                device.phone = try self.phone(phone, declared: phones)
            }
            if let channel = fields["channel"] {
                device.channel = try self.channel(channel, of: device, declared: channels, environment: environment)
            }
            let state = try fields["state"]?.choice([
                "active": "active", "unregistered": "unregistered", "expired": "expired",
            ])
            var since: Date?
            if let sinceField = fields["since"] {
                guard state == "unregistered" || state == "expired" else {
                    throw sinceField.error("since applies only to a device whose state is unregistered or expired")
                }
                since = try date(sinceField)
            }
            switch state {
            case "unregistered": device.unregisteredAt = since ?? now
            case "expired": device.expiredAt = since ?? now
            default: break
            }
            devices[token] = device
        }
        return devices
    }

    /// A device's `channel:`: the id of a channel the live-activity device's activity is subscribed to; with
    /// `declared`, one of them, of the device's app (when it names one) and environment.
    private func channel(
        _ field: Field, of device: Device, declared: [ChannelDeclaration]?, environment: APNsEnvironment
    ) throws(ScenarioError) -> String {
        guard device.kind == .liveActivity, device.attributesType != nil else {
            throw field.error(
                "channel applies only to a live-activity device with an attributesType (its activity subscribes)")
        }
        let id = try field.string()
        guard BroadcastChannel.isWellFormedID(id) else {
            throw field.error(
                "a channel id is base64, as APNs issues them (such as c2NvcmVzLTE=), got \(field.shortDescription)")
        }
        guard let declared else { return id }
        guard let channel = declared.first(where: { $0.id == id }) else {
            let ids = declared.map(\.id)
            throw field.error(
                "channel \(id) is not one of the channels: declares"
                    + (ids.isEmpty ? " (it declares none)" : ": \(ids.joined(separator: ", "))")
                    + NameSuggestion.hint(for: id, among: ids))
        }
        if let app = device.bundleID, app != channel.bundleID {
            throw field.error("channel \(id) belongs to app \(channel.bundleID), not to this device's app \(app)")
        }
        let deviceEnvironment = device.environment ?? environment
        let channelEnvironment = channel.environment ?? environment
        guard deviceEnvironment == channelEnvironment else {
            throw field.error(
                "channel \(id) is a \(channelEnvironment.rawValue) channel; this device is a "
                    + "\(deviceEnvironment.rawValue) one")
        }
        return id
    }

    /// A device's `phone:`: a phone id, one of `declared` when given.
    private func phone(_ field: Field, declared: [String]?) throws(ScenarioError) -> String {
        let id = try field.string()
        try Self.checkPhoneID(id, at: field)
        guard let declared, !declared.contains(id) else { return id }
        throw field.error(
            "phone '\(id)' is not one of the phones: declares"
                + (declared.isEmpty ? " (it declares none)" : ": \(declared.sorted().joined(separator: ", "))")
                + NameSuggestion.hint(for: id, among: declared))
    }

    /// A device token as `DeviceToken` defines it (an even number, at least 2, of hex digits, at most
    /// `DeviceToken.maximumLength`, the longest the validator takes), returned lower-case. The errors point at the
    /// first character that is not a hex digit.
    func deviceToken(_ field: Field) throws(ScenarioError) -> String {
        let text = try field.string()
        if let bad = text.firstIndex(where: { !($0.isASCII && $0.asciiValue.map(DeviceToken.isHexDigit) == true) }) {
            let position = text.distance(from: text.startIndex, to: bad) + 1
            throw field.error("must be hex digits (0-9, a-f); found '\(text[bad])' at character \(position)")
        }
        guard DeviceToken.hasTokenLength(text.utf8.count) else {
            throw field.error("must be an even number of hex digits, at least 2, got \(text.count)")
        }
        guard text.utf8.count <= DeviceToken.maximumLength else {
            throw field.error(
                "must be at most \(DeviceToken.maximumLength) hex digits (the longest APNs takes), got \(text.count)")
        }
        return text.lowercased()
    }

    /// The times a `since` may name: from 1970 (APNs timestamps count milliseconds from it) to the end of 9999 (the
    /// last year of four-digit ISO 8601). Outside it a time would not survive the journal's millisecond arithmetic,
    /// nor read back the same (before 1582 the YAML reader's calendar is Julian, the writer's Gregorian).
    static let dateRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// A point in time: ISO 8601 (`2026-11-01T08:00:00Z`) or seconds since 1970, within `dateRange`.
    func date(_ field: Field) throws(ScenarioError) -> Date {
        let date = try anyDate(field)
        guard Self.dateRange.contains(date) else {
            throw field.error(
                "must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z; got \(field.shortDescription)")
        }
        return date
    }

    private func anyDate(_ field: Field) throws(ScenarioError) -> Date {
        let text = try field.string()
        var parsed: Date?
        if let seconds = Double(text), seconds.isFinite, text.first?.isNumber == true {
            parsed = Date(timeIntervalSince1970: seconds)
        } else {
            parsed = Date.construct(from: .init(text))
        }
        if let date = parsed { return date }
        throw field.error(
            "expected an ISO 8601 time such as 2026-11-01T08:00:00Z, or seconds since 1970; "
                + "got \(field.shortDescription)"
        )
    }
}
