import Logging
import MockAPNs
import Testing

/// A Swift Testing trait that runs each test it is given to with a mock APNs server of its own, started on free
/// ports before the test and stopped after it; the test reads it from `MockAPNsTestServer.current`.
///
/// ```swift
/// @Test(.mockAPNs) func sendsTheOrderAlert() async throws {
///     let mock = try #require(MockAPNsTestServer.current)
///     try await MyProvider(mock.provider).send(to: token)   // URL, CA, signing key, key id, team id
///     try await mock.expectPush(to: token)
/// }
/// ```
///
/// On a `@Suite` it applies to every test in the suite, each with its own server; a parameterized test gets one
/// per argument.
public struct MockAPNsTrait: TestTrait, SuiteTrait, TestScoping {
    /// How the server is started: `withMockAPNs`'s arguments.
    enum Source: Sendable {
        case scenario(Scenario)
        case file(String)
    }

    let source: Source
    let controlAPI: Bool
    let logLevel: Logger.Level

    /// Every test of a suite it is put on gets it.
    public var isRecursive: Bool { true }

    /// A scope for each test case (not for the suite, nor for the test around its cases).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> MockAPNsTrait? {
        test.isSuite || testCase == nil ? nil : self
    }

    /// Runs the test with the server started, as `MockAPNsTestServer.current`; stops it after, whatever happens.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let body: (MockAPNsTestServer) async throws -> Void = { server in
            try await MockAPNsTestServer.$current.withValue(server) { try await function() }
        }
        switch source {
        case .scenario(let scenario):
            try await withMockAPNs(scenario: scenario, controlAPI: controlAPI, logLevel: logLevel, body)
        case .file(let path):
            try await withMockAPNs(scenarioFile: path, controlAPI: controlAPI, logLevel: logLevel, body)
        }
    }
}

extension Trait where Self == MockAPNsTrait {
    /// A mock APNs server per test, with the embedded lenient sandbox that trusts the test key.
    public static var mockAPNs: MockAPNsTrait { mockAPNs() }

    /// A mock APNs server per test running `scenario` (its ports replaced with free ones); `controlAPI` also
    /// starts the HTTP control API.
    public static func mockAPNs(
        scenario: Scenario = .embeddedDefault(port: 0), controlAPI: Bool = false, logLevel: Logger.Level = .warning
    ) -> MockAPNsTrait {
        MockAPNsTrait(source: .scenario(scenario), controlAPI: controlAPI, logLevel: logLevel)
    }

    /// A mock APNs server per test running the scenario file at `path` (relative to the working directory, which
    /// `swift test` sets to the package's root).
    public static func mockAPNs(
        scenarioFile path: String, controlAPI: Bool = false, logLevel: Logger.Level = .warning
    ) -> MockAPNsTrait {
        MockAPNsTrait(source: .file(path), controlAPI: controlAPI, logLevel: logLevel)
    }
}
