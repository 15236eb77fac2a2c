import Foundation
import Testing

@testable import MockAPNs

/// `tokenUpload:` in a scenario: its defaults, its range checks with file, line and field, and its round trip
/// through the scenario snapshot.
@Suite("tokenUpload loader")
struct TokenUploadLoaderTests {
    /// The error parsing `yaml` gives, or `nil` (recorded as an issue) when it loads.
    func parseError(_ yaml: String) -> ScenarioError? {
        do {
            _ = try ScenarioLoader.parse(yaml: yaml, sourcePath: "upload.yaml", baseDirectory: "/")
        } catch {
            return error
        }
        Issue.record("the scenario loaded without an error")
        return nil
    }

    @Test("loads url, headers, attempts and timeout; leaves the defaults when only url is given")
    func loads() throws {
        let full = try ScenarioLoader.parse(
            yaml: """
                tokenUpload:
                  url: https://provider.example:8443/la-tokens
                  headers: { Authorization: Bearer abc, X-App: taxi }
                  attempts: 5
                  timeout: 1500ms
                """, sourcePath: nil, baseDirectory: "/")
        let settings = try #require(full.tokenUpload)
        #expect(settings.url == "https://provider.example:8443/la-tokens")
        #expect(settings.headers == ["Authorization": "Bearer abc", "X-App": "taxi"])
        #expect(settings.attempts == 5)
        #expect(settings.timeout == .milliseconds(1500))

        let minimal = try ScenarioLoader.parse(
            yaml: "tokenUpload: { url: http://127.0.0.1:8080/la-tokens }", sourcePath: nil, baseDirectory: "/")
        #expect(minimal.tokenUpload == TokenUploadSettings(url: "http://127.0.0.1:8080/la-tokens"))
        #expect(minimal.tokenUpload?.attempts == 3 && minimal.tokenUpload?.timeout == .seconds(5))
        #expect(try ScenarioLoader.parse(yaml: "name: x", sourcePath: nil, baseDirectory: "/").tokenUpload == nil)
    }

    @Test(
        "refuses a bad section with an error at its file, line and field",
        arguments: [
            ("  url: ftp://127.0.0.1/x", "tokenUpload.url", "must be an http:// or https:// URL"),
            ("  url: http://", "tokenUpload.url", "no host"),
            ("  url: not a url", "tokenUpload.url", "expected a URL"),
            ("  url: http://127.0.0.1:70000/x", "tokenUpload.url", "port must be between 1 and 65535, got 70000"),
            ("  url: http://127.0.0.1:0/x", "tokenUpload.url", "port must be between 1 and 65535, got 0"),
            ("  url: http://h/x\n  attempts: 0", "tokenUpload.attempts", "must be between 1 and 10, got 0"),
            ("  url: http://h/x\n  attempts: 11", "tokenUpload.attempts", "must be between 1 and 10, got 11"),
            ("  url: http://h/x\n  timeout: 0s", "tokenUpload.timeout", "must be from 10ms to 2m, got '0s'"),
            ("  url: http://h/x\n  timeout: 1h", "tokenUpload.timeout", "must be from 10ms to 2m"),
            ("  url: http://h/x\n  timeout: 5", "tokenUpload.timeout", "a duration needs a unit"),
            ("  url: http://h/x\n  retries: 3", "tokenUpload.retries", "unknown field 'retries'"),
            ("  attempts: 2", "tokenUpload.url", "missing required field 'url'"),
            ("  url: http://h/x\n  headers: { Content-Type: text/plain }", "tokenUpload.headers.Content-Type",
                "set by the mock itself"),
            ("  url: http://h/x\n  headers: { \"X Bad\": v }", "tokenUpload.headers.X Bad", "not an HTTP header name"),
            ("  url: http://h/x\n  headers: [a]", "tokenUpload.headers", "expected a mapping"),
        ])
    func refuses(body: String, field: String, message: String) throws {
        let error = try #require(parseError("name: x\ntokenUpload:\n\(body)\n"))
        #expect(error.field == field, "\(error)")
        #expect(error.message.contains(message), "\(error)")
        #expect(error.description.hasPrefix("upload.yaml:"), "\(error)")
        #expect(error.line != nil, "\(error)")
    }

    @Test("a scenario's tokenUpload survives the snapshot: GET /v1/scenario's document loads back the same")
    func roundTrip() throws {
        let scenario = try ScenarioLoader.parse(
            yaml: """
                tokenUpload:
                  url: http://127.0.0.1:9/la-tokens
                  headers: { X-Provider-Key: secret }
                  attempts: 2
                  timeout: 250ms
                """, sourcePath: nil, baseDirectory: "/")
        let snapshot = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario)
        #expect(
            snapshot.document["tokenUpload"]?.jsonText
                == #"{"url":"http://127.0.0.1:9/la-tokens","headers":{"X-Provider-Key":"secret"},"attempts":2,"#
                + #""timeout":"250ms"}"#)
        let reloaded = try ScenarioLoader.parse(yaml: snapshot.document.jsonText, sourcePath: nil, baseDirectory: "/")
        #expect(reloaded.tokenUpload == scenario.tokenUpload)

        let without = ScenarioSnapshot(name: "x", world: World(), rules: [], declarations: Scenario(name: "x"))
        #expect(without.document["tokenUpload"] == nil)
    }
}
