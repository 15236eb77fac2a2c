import ArgumentParser
import Foundation
import MockAPNs

/// One push as `mock-apns push` sends it: to one device (`/3/device/<token>`) or, with `--channel`, a broadcast to
/// a channel (`/4/broadcasts/apps/<bundle>`); the URL, the headers and the payload bytes, built from the options.
struct PushRequest {
    /// The request.
    var call: APNsCall
    /// The answer headers printed under the status line: `apns-id` of a push, `apns-request-id` of a broadcast.
    var answerHeaders: [String]

    /// The request `command` asks for; a `ValidationError` for a payload that cannot be read or parsed.
    init(_ command: Push) throws {
        var target = try PushTarget(url: command.url ?? Push.defaultURL)
        let body = try Self.body(command)
        let liveActivity = command.liveActivity != nil || command.channel != nil
        var topic = command.topic ?? Push.defaultTopicHere
        var headers = try command.credentials.authorizationHeaders()
        if let channel = command.channel {
            // "apns-topic is not needed" (live-activities.md §3): the app is the path's bundle.
            if topic.hasSuffix(Push.liveActivitySuffix) { topic.removeLast(Push.liveActivitySuffix.count) }
            target.path = "/4/broadcasts/apps/\(topic)"
            headers += [
                ("apns-channel-id", channel), ("apns-push-type", "liveactivity"),
                ("apns-priority", String(command.priority ?? 10)), ("apns-expiration", String(command.expiration ?? 0)),
            ]
            answerHeaders = ["apns-request-id", "apns-unique-id"]
        } else {
            target.path = "/3/device/\(command.deviceToken ?? "")"
            if liveActivity, !topic.hasSuffix(Push.liveActivitySuffix) { topic += Push.liveActivitySuffix }
            headers.append(("apns-topic", topic))
            headers.append(("apns-push-type", command.pushType ?? (liveActivity ? "liveactivity" : "alert")))
            if let priority = command.priority { headers.append(("apns-priority", String(priority))) }
            if let expiration = command.expiration { headers.append(("apns-expiration", String(expiration))) }
            if let collapseID = command.collapseID { headers.append(("apns-collapse-id", collapseID)) }
            if let apnsID = command.apnsID { headers.append(("apns-id", apnsID)) }
            answerHeaders = ["apns-id", "apns-unique-id"]
        }
        call = APNsCall(
            method: "POST", target: target, headers: headers, body: body, credentials: command.credentials,
            command: "push")
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
}

/// An https URL split into what the client and the curl command need.
struct PushTarget {
    /// Scheme, host and port, without a trailing slash.
    var base: String
    /// The request path.
    var path = ""
    /// The whole URL.
    var url: String { base + path }

    /// `url` checked: https (APNs is HTTP/2 over TLS only), a host, no path beyond `/`; errors name `flag`.
    init(url: String, flag: String = "--url") throws {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased(),
            scheme == "https", let host = parts.host, !host.isEmpty
        else {
            throw ValidationError("\(flag) must look like https://HOST[:PORT], got '\(url)'")
        }
        if let port = parts.port, !(1...65535).contains(port) {
            throw ValidationError("\(flag) port must be between 1 and 65535, got \(port)")
        }
        if !(parts.path.isEmpty || parts.path == "/") || parts.query != nil {
            throw ValidationError("\(flag) is the endpoint only (https://HOST[:PORT]), without a path, got '\(url)'")
        }
        base = url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
