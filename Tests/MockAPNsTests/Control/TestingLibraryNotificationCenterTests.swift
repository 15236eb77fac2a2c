import AsyncHTTPClient
import Foundation
import MockAPNsTesting
import NIOCore
import Synchronization
import Testing

@testable import MockAPNs

/// `expectNotificationCenter`, the Swift helpers' assertion on a phone's notification centre (issue 23 item 5), with
/// AsyncHTTPClient as the real HTTP/2 provider: the judging of `expect:`'s `notificationCenter:`, failures recorded
/// at the caller's line.
@Suite("MockAPNsTesting: expectNotificationCenter", .serialized)
struct TestingLibraryNotificationCenterTests {
    static let device = EndToEndTests.device

    /// Sends alerts titled `titles` to the device, one after the other on one connection, with one provider token
    /// (a new token per push would be refused with 429 TooManyProviderTokenUpdates), as a provider would.
    static func send(_ titles: [String], to server: MockAPNsTestServer) async throws {
        try await send(payloads: titles.map { #"{"aps":{"alert":{"title":"\#($0)","body":"Hi"}}}"# }, to: server)
    }

    /// Sends the alerts `payloads`, as `send(_:to:)` does.
    static func send(payloads: [String], to server: MockAPNsTestServer) async throws {
        let provider = try TestingLibraryTests.provider(trusting: server.caPEM)
        let key = try ES256PrivateKey(pem: TestCredentials.signingKeyPEM)
        let jwt = ProviderTokenSigner.makeToken(
            teamID: TestCredentials.teamID, keyID: TestCredentials.keyID, issuedAt: Int64(Date().timeIntervalSince1970),
            key: key)
        for payload in payloads {
            var request = HTTPClientRequest(url: "\(server.apnsURL)/3/device/\(Self.device)")
            request.method = .POST
            request.headers.add(name: "authorization", value: "bearer \(jwt)")
            request.headers.add(name: "apns-topic", value: "com.example.app")
            request.headers.add(name: "apns-push-type", value: "alert")
            request.body = .bytes(ByteBuffer(string: payload))
            let response = try await provider.execute(request, timeout: .seconds(5))
            #expect(response.status == .ok)
        }
        try await provider.shutdown()
    }

    @Test("passes on what the phone lists, by title and count, and answers the notifications newest first")
    func passes() async throws {
        try await withMockAPNs { server in
            try await Self.send(["One", "Two"], to: server)
            let two = try await server.expectNotificationCenter(on: Self.device, title: "Two")
            #expect(two.map(\.title) == ["Two"] && two.first?.body == "Hi")
            let all = try await server.expectNotificationCenter(on: Self.device, app: "com.example.app", count: 2)
            #expect(all.map(\.title) == ["Two", "One"])
            try await server.expectNotificationCenter(on: Self.device, title: "Three", count: 0)
        }
    }

    @Test("a miss says what was expected and lists the phone's notifications, as run does")
    func failureMessage() async throws {
        try await withMockAPNs { server in
            try await Self.send(["One", "Two"], to: server)
            let failure = await TestingLibraryTests.failure {
                try await server.expectNotificationCenter(
                    on: Self.device, title: "Three", timeout: .milliseconds(100))
            }
            #expect(
                failure?.message
                    == "expected 1 notifications on phone \(Self.device) with title \"Three\"; got 0.\n"
                    + "The list, newest first: #2 \"Two / Hi\", #1 \"One / Hi\".",
                "\(failure?.message ?? "")")
            let unknown = await TestingLibraryTests.failure {
                try await server.expectNotificationCenter(on: "carol")
            }
            #expect(unknown?.message.hasPrefix("no phone 'carol'") == true)
        }
    }

    @Test("filters on a communication notification's sender; an ordinary notification never matches one")
    func sender() async throws {
        let scenario = try PhonePush.scenario(
            """
            apps:
              - bundleID: com.example.app
                entitlements: [communication]
                serviceExtension:
                  cases: [{ match: { payload: { from: Mum } }, does: modify, communication: { sender: Mum } }]
            """)
        try await withMockAPNs(scenario: scenario) { server in
            try await Self.send(
                payloads: [
                    #"{"aps":{"mutable-content":1,"alert":{"title":"New message","body":"Hi"}},"from":"Mum"}"#,
                    #"{"aps":{"alert":{"title":"Newsletter","body":"Hi"}}}"#,
                ], to: server)
            let mum = try await server.expectNotificationCenter(on: Self.device, sender: "Mum")
            #expect(mum.map(\.title) == ["New message"] && mum.first?.communicationSender == "Mum")
            try await server.expectNotificationCenter(on: Self.device, title: "Newsletter", sender: "Mum", count: 0)
            try await server.expectNotificationCenter(on: Self.device, app: "com.example.app", count: 2)
            let failure = await TestingLibraryTests.failure {
                try await server.expectNotificationCenter(on: Self.device, sender: "Sam", timeout: .milliseconds(100))
            }
            #expect(
                failure?.message
                    == "expected 1 notifications on phone \(Self.device) with sender \"Sam\"; got 0.\n"
                    + "The list, newest first: #2 \"Newsletter / Hi\", #1 \"New message / Hi\" from Mum.",
                "\(failure?.message ?? "")")
            let empty = await TestingLibraryTests.failure {
                try await server.expectNotificationCenter(on: Self.device, sender: "")
            }
            #expect(empty?.message.hasPrefix("expectNotificationCenter needs the sender's name") == true)
        }
    }

    @Test("waits for a push that arrives after the call")
    func waits() async throws {
        try await withMockAPNs { server in
            let sender = Task {
                try await Task.sleep(for: .milliseconds(200))
                try await Self.send(["Late"], to: server)
            }
            let late = try await server.expectNotificationCenter(on: Self.device, title: "Late", timeout: .seconds(5))
            try await sender.value
            #expect(late.count == 1)
        }
    }

    @Test("a failure is recorded at the line that called expectNotificationCenter")
    func callerLine() async throws {
        let lines = Mutex<[Int]>([])
        var callLine = 0
        try await withMockAPNs { server in
            await withKnownIssue {
                callLine = #line + 1
                _ = try? await server.expectNotificationCenter(on: Self.device, timeout: .milliseconds(50))
            } matching: { issue in
                if let line = issue.sourceLocation?.line { lines.withLock { $0.append(line) } }
                return true
            }
        }
        #expect(lines.withLock { $0 }.contains(callLine), "issues at \(lines.withLock { $0 }), call at \(callLine)")
    }
}
