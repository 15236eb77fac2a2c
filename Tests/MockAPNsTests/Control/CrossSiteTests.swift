import Foundation
import Hummingbird
import Testing

@testable import MockAPNs

/// The control API refuses state-changing calls from another site's page (403), and takes them from its own
/// page, from scripts and from curl; curl sends the headers a browser would.
@Suite("Cross-site protection of the control API", .serialized)
struct CrossSiteTests {
    @Test("a POST, PUT or DELETE from a foreign Origin or with Sec-Fetch-Site: cross-site is a 403 and changes nothing")
    func refusesForeignPages() async throws {
        try await withControlServer(token: "s3cret") { server, control in
            try await sendPush(server)
            let token = ["Authorization": "Bearer s3cret"]
            let foreign: [(String, String, [String: String], String?)] = [
                ("POST", "/v1/reset", ["Origin": "http://evil.example"], nil),
                ("DELETE", "/v1/requests", ["Origin": "http://localhost:\(control.port == 1 ? 2 : 1)"], nil),
                ("POST", "/v1/clock", ["Origin": "https://127.0.0.1:\(control.port)"], #"{"advance": "1h"}"#),
                ("PUT", "/v1/scenario", ["Origin": "null"], #"{"mode": "strict"}"#),
                ("POST", "/v1/rules", ["Origin": "http://127.0.0.1.evil.example:\(control.port)"], "[]"),
                ("POST", "/v1/reset", ["Origin": "http://rebound.example:\(control.port)"], nil),
                ("POST", "/v1/reset", ["Sec-Fetch-Site": "cross-site"], nil),
                ("POST", "/v1/verify", ["Origin": "http://localhost:\(control.port)/path"], nil),
            ]
            for (method, path, headers, body) in foreign {
                let answer = try await ControlCurl.call(
                    method, control, path, body: body, headers: headers.merging(token) { a, _ in a })
                #expect(answer.status == 403, "\(method) \(path) \(headers): \(answer.text)")
                #expect(
                    answer.error?.hasPrefix("cross-site request refused: ") == true,
                    "\(method) \(path): \(answer.text)")
            }
            let named = try await ControlCurl.call(
                "POST", control, "/v1/reset", headers: ["Origin": "http://evil.example"])
            #expect(
                named.error
                    == "cross-site request refused: it comes from a page of http://evil.example, not of this control "
                    + "API (\(control.url)); the routes that change the mock take calls from the inspector page, "
                    + "scripts and curl, never from another site's page")
            #expect(server.journal.count == 1, "a refused call changed the journal")
            #expect(server.engine.clock.now().timeIntervalSinceNow < 60, "a refused call moved the clock")
        }
    }

    @Test("the page's own origin, same-origin fetches and calls without Origin (curl, scripts) pass; reads always do")
    func takesOwnCalls() async throws {
        try await withControlServer { server, control in
            let own: [[String: String]] = [
                [:], ["Origin": control.url], ["Origin": "http://localhost:\(control.port)"],
                ["Origin": "http://[::1]:\(control.port)"], ["Sec-Fetch-Site": "same-origin"],
                ["Sec-Fetch-Site": "none"],
                [
                    "Origin": control.url, "Sec-Fetch-Site": "same-origin", "X-Mock-APNs": "inspector",
                    "Content-Type": "application/json",
                ],
            ]
            for headers in own {
                try await sendPush(server)
                let answer = try await ControlCurl.call("POST", control, "/v1/reset", headers: headers)
                #expect(answer.status == 200, "\(headers): \(answer.text)")
                #expect(server.journal.count == 0, "\(headers)")
            }
            let foreign = ["Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"]
            let read = try await ControlCurl.call("GET", control, "/v1/requests", headers: foreign)
            #expect(read.status == 200)
        }
    }

    @Test("an origin is this listener's own by scheme, port and bound host; a wildcard listener's by the Host sent")
    func ownOrigin() {
        let loopback = CrossSiteGuard<BasicRequestContext>(host: "127.0.0.1") { 2190 }
        #expect(loopback.isOwn(origin: "http://127.0.0.1:2190", authority: "127.0.0.1:2190"))
        #expect(loopback.isOwn(origin: "http://LOCALHOST:2190", authority: "evil.example:2190"))
        #expect(!loopback.isOwn(origin: "http://evil.example:2190", authority: "evil.example:2190"))
        #expect(!loopback.isOwn(origin: "http://127.0.0.1:2191", authority: "127.0.0.1:2190"))
        #expect(!loopback.isOwn(origin: "http://127.0.0.1", authority: "127.0.0.1:2190"))
        let wildcard = CrossSiteGuard<BasicRequestContext>(host: "0.0.0.0") { 2190 }
        #expect(wildcard.isOwn(origin: "http://box.lan:2190", authority: "box.lan:2190"))
        #expect(!wildcard.isOwn(origin: "http://evil.example:2190", authority: "box.lan:2190"))
        #expect(!wildcard.isOwn(origin: "http://box.lan:2190", authority: nil))
        let specific = CrossSiteGuard<BasicRequestContext>(host: "10.0.0.5") { 80 }
        #expect(specific.isOwn(origin: "http://10.0.0.5", authority: "10.0.0.5"))
        #expect(!specific.isOwn(origin: "http://box.lan", authority: "box.lan"))
        let ipv6 = CrossSiteGuard<BasicRequestContext>(host: "::1") { 2190 }
        #expect(ipv6.isOwn(origin: "http://[::1]:2190", authority: "[::1]:2190"))
        #expect(ipv6.isOwn(origin: "http://localhost:2190", authority: "localhost:2190"))
        for bad in [
            "null", "", "http://", "http://:2190", "http://a:0", "http://a:65536", "http://a:99999999999999999999",
            "http://[::1", "http://[::1]x", "http://u@a:2190", "file://", "ws://a:2190",
        ] {
            #expect(CrossSiteGuard<BasicRequestContext>.hostAndPort(bad, scheme: "http://") == nil, "\(bad)")
        }
    }
}
