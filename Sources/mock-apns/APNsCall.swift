import ArgumentParser
import AsyncHTTPClient
import Foundation
import MockAPNs
import NIOCore
import NIOHTTP1
import NIOSSL

/// One request to APNs (or the mock) as a provider sends it, over HTTP/2 and TLS: the client of `push` (device
/// pushes and broadcasts) and `channels` (channel management), so both connect, trust, authenticate and fail in
/// one way.
struct APNsCall {
    /// `POST`, `GET` or `DELETE`.
    var method: String
    /// Where it goes.
    var target: PushTarget
    /// The request headers, in the order sent (authorization first).
    var headers: [(String, String)]
    /// The body, exactly as sent (empty for none).
    var body: [UInt8]
    /// What to trust and which client certificate to present.
    var credentials: APNsClientOptions
    /// The command whose `--help` a usage error points at (`push`, `channels create`).
    var command: String
    /// How to point the command at the endpoint, the end of a sentence saying it cannot be reached.
    var whereToFind = "`mock-apns serve` prints its APNs URL (https://…): set MOCK_APNS_URL or pass --url"

    /// How long `send` waits for the connection.
    static let connectTimeout = TimeAmount.seconds(10)
    /// How long `send` waits for the whole answer.
    static let requestTimeout = TimeAmount.seconds(30)
    /// The most of an answer's body read: APNs' answers are a few hundred bytes, a channel list up to a few
    /// megabytes (a mock may allow a million channels per app, about 30 bytes each in the list).
    static let maximumAnswer = 64 << 20

    /// What the endpoint answered.
    struct Answer {
        /// The HTTP status.
        var status: Int
        /// The status's phrase (`Bad Request`), for a status line without an APNs reason.
        var statusPhrase: String
        /// The answer headers, lower-case names.
        var headers: [(String, String)]
        /// The body.
        var body: [UInt8]

        /// The body as JSON, `nil` when it is not.
        var json: JSONValue? { try? JSONParser.parse(body) }

        /// The first value of header `name`.
        func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }

        /// The body's first 500 bytes as text, for a message about an answer that is not what APNs answers.
        var bodyExcerpt: String { body.isEmpty ? "(empty)" : String(decoding: body.prefix(500), as: UTF8.self) }

        /// `200 OK`, `204 No Content`, `400 BadChannelId`: the status and APNs' reason (else the phrase).
        var statusLine: String {
            "\(status) \(json?["reason"]?.stringValue ?? (status == 200 ? "OK" : statusPhrase))"
        }

        /// The status line, then the `names` headers answered (`apns-id: …`), the timestamp of a 410, and a
        /// body that is not JSON on an error.
        func lines(headers names: [String]) -> [String] {
            var lines = [statusLine]
            for name in names {
                if let value = header(name) { lines.append("\(name): \(value)") }
            }
            if let timestamp = json?["timestamp"] { lines.append("timestamp: \(timestamp.scalarText)") }
            if status >= 300, json == nil, !body.isEmpty {
                lines.append("body: \(bodyExcerpt)")
            }
            return lines
        }
    }

    /// Sends the request with one short-lived client and returns the answer. Exit 3 (through `ExitCode`) when the
    /// endpoint cannot be reached or answers with something that is not HTTP/2, with one sentence that says why
    /// (`PushFailure`); exit 2 for a `--ca` or `--cert` that cannot be read.
    func send() async throws -> Answer {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try clientConfiguration())
        do {
            var request = HTTPClientRequest(url: target.url)
            request.method = HTTPMethod(rawValue: method)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
            let response = try await client.execute(request, timeout: Self.requestTimeout)
            let bytes = try await response.body.collect(upTo: Self.maximumAnswer)
            try? await client.shutdown()
            return Answer(
                status: Int(response.status.code), statusPhrase: response.status.reasonPhrase,
                headers: response.headers.map { ($0.name.lowercased(), $0.value) }, body: Array(buffer: bytes))
        } catch is NIOTooManyBytesError {
            try? await client.shutdown()
            StandardStream.error.write(
                "error: \(target.url) answered more than \(Self.maximumAnswer >> 20) MiB, more than this command reads\n")
            throw ExitCode(1)
        } catch {
            try? await client.shutdown()
            let why = PushFailure.sentence(
                error, base: target.base, find: whereToFind,
                connectTimeout: Self.connectTimeout.nanoseconds / 1_000_000_000,
                requestTimeout: Self.requestTimeout.nanoseconds / 1_000_000_000)
            StandardStream.error.write("error: cannot reach \(target.base): \(why)\n")
            throw ExitCode(3)
        }
    }

    private func clientConfiguration() throws -> HTTPClient.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = credentials.caFile {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile)) } catch {
                throw usage("--ca \(caFile): not a readable PEM certificate file (\(error))")
            }
        } else {
            let testCA = try NIOSSLCertificate.fromPEMBytes(Array(TestCredentials.caPEM.utf8))
            tls.additionalTrustRoots = [.certificates(testCA)]
        }
        if let cert = credentials.cert {
            let keyFile = credentials.certKey ?? cert
            do {
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: keyFile, format: .pem))
            } catch {
                throw usage("--cert \(cert): not a readable PEM certificate and key (\(keyFile)): \(error)")
            }
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = Self.connectTimeout
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// A usage error of `command`, printed with its help hint (exit 2).
    func usage(_ message: String) -> Error { MockAPNsCommand.usage(ValidationError(message), command: command) }

    /// The equivalent `curl --http2` command, each word shell-quoted; the test CA is named by file.
    func curlCommand() throws -> String {
        let ca = try credentials.caFile ?? TestCAFile.locate().path
        var lines = ["curl --http2 --silent --show-error --include --cacert \(StartBanner.shellQuoted(ca))"]
        if let cert = credentials.cert {
            let key = credentials.certKey ?? cert
            lines.append("--cert \(StartBanner.shellQuoted(cert)) --key \(StartBanner.shellQuoted(key))")
        }
        if method != (body.isEmpty ? "GET" : "POST") { lines.append("-X \(method)") }
        for (name, value) in headers { lines.append("-H \(StartBanner.shellQuoted("\(name): \(value)"))") }
        if !body.isEmpty {
            lines.append("--data-binary \(StartBanner.shellQuoted(String(decoding: body, as: UTF8.self)))")
        }
        lines.append(StartBanner.shellQuoted(target.url))
        return lines.joined(separator: " \\\n  ")
    }
}
