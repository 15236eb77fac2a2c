import Foundation
import Testing

@testable import MockAPNs

/// One connection's APNs state deciding requests with no I/O: no socket, no TLS, no HTTP/2.
@Suite("APNsConnection")
struct APNsConnectionTests {
    let fixture = ValidatorFixture()

    func engine() throws -> MockAPNsEngine {
        MockAPNsEngine(world: fixture.world, rules: [], journal: try Journal(capacity: 100))
    }

    /// The status of a decided request, and its record's verdict as the journal would get it.
    func decide(_ request: APNsRequest, on connection: inout APNsConnection, engine: MockAPNsEngine) -> (
        status: Int, record: JournalRecord
    )? {
        switch connection.decide(request, receivedAt: fixture.now, engine: engine) {
        case .answer(let response, let record, let delay):
            #expect(delay == nil)
            return (response.status, record)
        case .fault:
            Issue.record("a fault with no rules")
            return nil
        }
    }

    @Test("decides a push, authenticates the connection and raises the stream limit")
    func decidesWithoutIO() throws {
        let engine = try engine()
        var connection = APNsConnection(info: ValidatorFixture.tokenConnection, engine: engine)
        #expect(connection.startStreamLimit() == 1)
        #expect(!connection.isAuthenticated)

        let token = fixture.token()
        let decided = try #require(decide(fixture.request(token: token), on: &connection, engine: engine))
        #expect(decided.status == 200)
        #expect(decided.record.accepted)
        #expect(decided.record.connectionID == ValidatorFixture.tokenConnection.id)
        #expect(decided.record.answeredAt == nil)  // the connection stamps it when the answer goes out
        #expect(connection.isAuthenticated)
        #expect(connection.answered(status: 200) == 1000)
        #expect(connection.lastVerdict != nil)

        let rejected = try #require(decide(fixture.request(token: token, device: "abc"), on: &connection, engine: engine))
        #expect(rejected.status == 400)
        #expect(rejected.record.reason == "BadDeviceToken")
        #expect(connection.answered(status: 400) == 1)
    }

    @Test("a world change is picked up by refreshWorld: new validator and memo, token verdicts forgotten")
    func worldChangeMakesNewValidator() throws {
        let engine = try engine()
        var connection = APNsConnection(info: ValidatorFixture.tokenConnection, engine: engine)
        let token = fixture.token()
        #expect(decide(fixture.request(token: token), on: &connection, engine: engine)?.status == 200)
        let memo = connection.memo
        let generation = connection.worldGeneration

        // Strict keys and none known: the token the connection was accepted with no longer verifies.
        engine.updateWorld {
            $0.keyPolicy = .strict
            $0.keys = [:]
            $0.fidelity.maxConcurrentStreams = 10
        }
        // Until the connection refreshes (once per read batch), it decides over the world it has.
        #expect(decide(fixture.request(token: token), on: &connection, engine: engine)?.status == 200)
        #expect(connection.world.fidelity.maxConcurrentStreams == 1000)

        connection.refreshWorld(from: engine)
        #expect(connection.worldGeneration == engine.generation)
        #expect(connection.worldGeneration != generation)
        #expect(connection.memo !== memo)
        #expect(connection.world.keyPolicy == .strict)
        let after = try #require(decide(fixture.request(token: token), on: &connection, engine: engine))
        #expect(after.status == 403)
        #expect(after.record.reason == "InvalidProviderToken")

        // Refreshing again without a change keeps the same validator state.
        let memoAfter = connection.memo
        connection.refreshWorld(from: engine)
        #expect(connection.memo === memoAfter)
    }

    @Test("a client certificate for the other environment gets the GOAWAY only when the world says so")
    func certificateEnvironment() throws {
        let engine = try engine()
        var info = ValidatorFixture.certificateConnection("client-production.pem")
        info.id = 3
        var connection = APNsConnection(info: info, engine: engine)
        #expect(connection.isAuthenticated)
        #expect(connection.startStreamLimit() == 1000)
        #expect(connection.certificateGetsGoaway)
        engine.updateWorld { $0.fidelity.certificateEnvironmentMismatch = .reject }
        connection.refreshWorld(from: engine)
        #expect(!connection.certificateGetsGoaway)
    }
}
