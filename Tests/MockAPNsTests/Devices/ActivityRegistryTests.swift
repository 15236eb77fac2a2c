import Foundation
import Testing

@testable import MockAPNs

/// `ActivityRegistry`: minted tokens, lookups, atomic changes, reset, concurrency.
@Suite("ActivityRegistry")
struct ActivityRegistryTests {
    @Test("issues a new random 160-hex update token and id per start")
    func mintsTokens() {
        let registry = ActivityRegistry()
        let first = registry.start(LiveActivityStateTests.taxi())
        let second = registry.start(LiveActivityStateTests.taxi())
        for activity in [first, second] {
            #expect(activity.updateToken.count == 160)
            #expect(activity.updateToken.allSatisfy { "0123456789abcdef".contains($0) })
        }
        #expect(first.updateToken != second.updateToken)
        #expect(first.id != second.id)
        #expect(registry.activities.map(\.id) == [first.id, second.id])
    }

    @Test("finds an activity by its token in any case, and nothing for other tokens")
    func lookups() {
        let registry = ActivityRegistry()
        let started = registry.start(LiveActivityStateTests.taxi())
        #expect(registry.isUpdateToken(started.updateToken.uppercased()))
        #expect(registry.activity(forToken: started.updateToken)?.id == started.id)
        #expect(registry.activity(id: started.id) == started)
        #expect(!registry.isUpdateToken(String(repeating: "0", count: 160)))
        #expect(registry.activity(forToken: "p2s") == nil)
        #expect(registry.withActivity(forToken: "p2s") { _ in 1 } == nil)
    }

    @Test("stores what withActivity changes, and forgets everything on removeAll")
    func changesAndReset() {
        let registry = ActivityRegistry()
        let started = registry.start(LiveActivityStateTests.taxi())
        registry.withActivity(forToken: started.updateToken) { $0.contentState = ["status": "2"] }
        #expect(registry.activity(id: started.id)?.contentState == ["status": "2"])
        registry.removeAll()
        #expect(registry.activities.isEmpty)
        #expect(!registry.isUpdateToken(started.updateToken))
    }

    @Test("loses no start and no change under concurrent use")
    func concurrency() async {
        let registry = ActivityRegistry()
        let tokens = await withTaskGroup(of: String.self) { group in
            for _ in 0..<64 {
                group.addTask { registry.start(LiveActivityStateTests.taxi()).updateToken }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(tokens).count == 64)
        await withTaskGroup(of: Void.self) { group in
            for token in tokens {
                for _ in 0..<10 {
                    group.addTask {
                        registry.withActivity(forToken: token) { $0.history.append(
                            ActivityPush(at: Date(), sequence: nil, event: "update", outcome: .applied)) }
                    }
                }
            }
        }
        #expect(registry.activities.count == 64)
        #expect(registry.activities.allSatisfy { $0.history.count == 10 })
    }
}
