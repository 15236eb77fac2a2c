import ArgumentParser
import Foundation
import MockAPNs

/// One push as `mock-apns push` sends it: the URL, the headers and the payload bytes, built from the options.
struct PushRequest {
    /// Where it goes.
    var target: PushTarget
    /// `--ca` or `$MOCK_APNS_CA_FILE`, when given.
    var caFile: String?
    /// The request headers, in the order sent (authorization first).
    var headers: [(String, String)]
    /// The body, exactly as sent.
    var body: [UInt8]

    /// The request `command` asks for; a `ValidationError` for a payload that cannot be read or parsed.
    init(_ command: Push) throws {
        target = try PushTarget(url: command.url ?? Push.defaultURL)
        target.path = "/3/device/\(command.deviceToken)"
        caFile = command.caFile
        body = try Self.body(command)
        let liveActivity = command.liveActivity != nil
        var topic = command.topic ?? Push.defaultTopicHere
        if liveActivity, !topic.hasSuffix(Push.liveActivitySuffix) { topic += Push.liveActivitySuffix }
        headers = [("authorization", "bearer \(try Self.providerToken(command))"), ("apns-topic", topic)]
        headers.append(("apns-push-type", command.pushType ?? (liveActivity ? "liveactivity" : "alert")))
        if let priority = command.priority { headers.append(("apns-priority", String(priority))) }
        if let expiration = command.expiration { headers.append(("apns-expiration", String(expiration))) }
        if let collapseID = command.collapseID { headers.append(("apns-collapse-id", collapseID)) }
        if let apnsID = command.apnsID { headers.append(("apns-id", apnsID)) }
    }

    /// The payload: `--payload` as written when nothing is added to it, else its members with `aps` filled in.
    private static func body(_ command: Push) throws -> [UInt8] {
        var base: [UInt8]? = nil
        if let source = command.payload { base = try readPayload(source) }
        var root: [(String, JSONValue)] = []
        if let base {
            root = try Push.jsonObject(base, option: "--payload \(command.payload ?? "")")
            if command.alert == nil, command.liveActivity == nil { return base }
        }
        var aps: [(String, JSONValue)] = []
        if let index = root.firstIndex(where: { $0.0 == "aps" }) {
            guard case .object(let members) = root[index].1 else {
                throw ValidationError("--payload: aps must be a JSON object to add --alert or --live-activity to it")
            }
            aps = members
            root.remove(at: index)
        }
        func set(_ key: String, _ value: JSONValue) {
            aps.removeAll { $0.0 == key }
            aps.append((key, value))
        }
        if let alert = command.alert { set("alert", .string(alert)) }
        if let event = command.liveActivity {
            set("event", .string(event.rawValue))
            set("timestamp", .number(String(Int64(Date().timeIntervalSince1970))))
            if let text = command.contentState {
                set("content-state", .object(try Push.jsonObject(text, option: "--content-state")))
            }
            if let type = command.attributesType { set("attributes-type", .string(type)) }
            if let text = command.attributes {
                set("attributes", .object(try Push.jsonObject(text, option: "--attributes")))
            }
            // A start asks for the new activity's update token unless told not to or the payload says already.
            if event == .start, !command.noInputPushToken, !aps.contains(where: { $0.0 == "input-push-token" }) {
                set("input-push-token", .number("1"))
            }
            if event == .start, command.alert == nil, !aps.contains(where: { $0.0 == "alert" }) {
                StandardStream.error.write(
                    "warning: a Live Activity start without aps.alert is dropped by devices; add --alert\n")
            }
        }
        root.insert(("aps", .object(aps)), at: 0)
        return Array(JSONValue.object(root).jsonText.utf8)
    }

    /// The bytes of `source`: standard input for `-`, else the file.
    private static func readPayload(_ source: String) throws -> [UInt8] {
        if source == "-" {
            do {
                return Array(try FileHandle.standardInput.readToEnd() ?? Data())
            } catch {
                throw ValidationError("--payload -: cannot read standard input: \(error.localizedDescription)")
            }
        }
        guard let data = FileManager.default.contents(atPath: source) else {
            throw ValidationError("--payload \(source): cannot read the file")
        }
        return Array(data)
    }

    /// A JWT signed with `--key` (or `$MOCK_APNS_KEY_FILE`) or the embedded test key (through `mock-apns token`'s
    /// code).
    private static func providerToken(_ command: Push) throws -> String {
        let key = try Token.signingKey(p8: command.keyFile)
        return ProviderTokenSigner.makeToken(
            teamID: command.signingTeamID, keyID: command.signingKeyID,
            issuedAt: Int64(Date().timeIntervalSince1970), key: key, encoding: .raw)
    }

    /// The equivalent `curl --http2` command, each word shell-quoted; the test CA is named by file.
    func curlCommand() throws -> String {
        let ca = try caFile ?? TestCAFile.locate().path
        var lines = ["curl --http2 --silent --show-error --include --cacert \(StartBanner.shellQuoted(ca))"]
        for (name, value) in headers { lines.append("-H \(StartBanner.shellQuoted("\(name): \(value)"))") }
        lines.append("--data-binary \(StartBanner.shellQuoted(String(decoding: body, as: UTF8.self)))")
        lines.append(StartBanner.shellQuoted(target.url))
        return lines.joined(separator: " \\\n  ")
    }
}

/// An https URL split into what the client and the curl command need.
struct PushTarget {
    /// Scheme, host and port, without a trailing slash.
    var base: String
    /// The request path.
    var path = ""
    /// The whole URL.
    var url: String { base + path }

    /// `url` checked: https (APNs is HTTP/2 over TLS only), a host, no path beyond `/`.
    init(url: String) throws {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            scheme == "https", let host = parts.host, !host.isEmpty
        else {
            throw ValidationError("--url must look like https://HOST[:PORT], got '\(url)'")
        }
        if let port = parts.port, !(1...65535).contains(port) {
            throw ValidationError("--url port must be between 1 and 65535, got \(port)")
        }
        if !(parts.path.isEmpty || parts.path == "/") || parts.query != nil {
            throw ValidationError("--url is the endpoint only (https://HOST[:PORT]), without a path, got '\(url)'")
        }
        base = url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
