import ArgumentParser
import AsyncHTTPClient
import Foundation
import MockAPNs
import NIOCore
import NIOSSL

extension PushRequest {
    /// How long `send` waits for the connection.
    static let connectTimeout = TimeAmount.seconds(10)
    /// How long `send` waits for the whole answer.
    static let requestTimeout = TimeAmount.seconds(30)

    /// Sends the push over HTTP/2 with one short-lived client and prints the answer; returns the status and the
    /// apns-id answered. Exit 3 (through `ExitCode`) when the endpoint cannot be reached or answers with something
    /// that is not HTTP/2, with one sentence that says why (`PushFailure`).
    func send() async throws -> (status: Int, apnsID: String?) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: try clientConfiguration())
        do {
            var request = HTTPClientRequest(url: target.url)
            request.method = .POST
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            let response = try await client.execute(request, timeout: Self.requestTimeout)
            let bytes = try await response.body.collect(upTo: 1 << 20)
            try? await client.shutdown()
            return (Self.report(response, body: Array(buffer: bytes)), response.headers.first(name: "apns-id"))
        } catch {
            try? await client.shutdown()
            let why = PushFailure.sentence(
                error, base: target.base, connectTimeout: Self.connectTimeout.nanoseconds / 1_000_000_000,
                requestTimeout: Self.requestTimeout.nanoseconds / 1_000_000_000)
            StandardStream.error.write("error: cannot reach \(target.base): \(why)\n")
            throw ExitCode(3)
        }
    }

    private func clientConfiguration() throws -> HTTPClient.Configuration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile)) } catch {
                throw Push.usage(.init("--ca \(caFile): not a readable PEM certificate file (\(error))"))
            }
        } else {
            let testCA = try NIOSSLCertificate.fromPEMBytes(Array(TestCredentials.caPEM.utf8))
            tls.additionalTrustRoots = [.certificates(testCA)]
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = Self.connectTimeout
        configuration.redirectConfiguration = .disallow
        return configuration
    }

    /// Prints the status line, the APNs ids and, on an error, the reason (and the timestamp of a 410).
    private static func report(_ response: HTTPClientResponse, body: [UInt8]) -> Int {
        let status = Int(response.status.code)
        let json = try? JSONParser.parse(body)
        let reason = json?["reason"]?.stringValue
        var lines = ["\(status) \(reason ?? (status == 200 ? "OK" : response.status.reasonPhrase))"]
        for name in ["apns-id", "apns-unique-id"] {
            if let value = response.headers.first(name: name) { lines.append("\(name): \(value)") }
        }
        if let timestamp = json?["timestamp"] { lines.append("timestamp: \(timestamp.scalarText)") }
        if status != 200, json == nil, !body.isEmpty {
            lines.append("body: \(String(decoding: body.prefix(500), as: UTF8.self))")
        }
        print(lines.joined(separator: "\n"))
        return status
    }
}
