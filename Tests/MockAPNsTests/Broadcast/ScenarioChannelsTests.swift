import Foundation
import Testing
@testable import MockAPNs

/// A scenario's `channels:` and `listen.channelsPort`, and what a server makes of them (issue 24).
@Suite("Scenario channels and the channels port")
struct ScenarioChannelsTests {
    func parse(_ yaml: String) throws(ScenarioError) -> Scenario {
        try ScenarioLoader.parse(yaml: yaml, sourcePath: "test.yaml", baseDirectory: "/")
    }

    func loadError(_ yaml: String) -> ScenarioError? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test("reads channels with their app, storage policy and environment; the environment defaults to the server's")
    func declared() throws {
        let scenario = try parse(
            """
            channels:
              - id: c2NvcmVzLTE=
                app: com.example.app
                storagePolicy: 1
              - id: Zmxvb3ItMg==
                app: com.example.app
                environment: production
            listen:
              channelsPort: 0
            """)
        #expect(
            scenario.channels == [
                ChannelDeclaration(id: "c2NvcmVzLTE=", bundleID: "com.example.app", storagePolicy: .mostRecent),
                ChannelDeclaration(id: "Zmxvb3ItMg==", bundleID: "com.example.app", environment: .production),
            ])
        #expect(scenario.listen.channelsPort == 0 && scenario.listen.channelsPortIsPinned)
    }

    @Test(
        "refuses a bad channel entry at its line and field",
        arguments: [
            ("channels:\n  - id: not base64!\n    app: com.example.app\n", "channels[0].id", 2, "base64"),
            ("channels:\n  - app: com.example.app\n", "channels[0].id", 2, "id"),
            ("channels:\n  - id: AAAA\n", "channels[0].app", 2, "app"),
            ("channels:\n  - id: AAAA\n    app: a\n    storagePolicy: 2\n", "channels[0].storagePolicy", 4, "0"),
            ("channels:\n  - id: AAAA\n    app: a\n    environment: x\n", "channels[0].environment", 4, "production"),
            ("channels:\n  - id: AAAA\n    app: a\n  - id: AAAA\n    app: b\n", "channels[1].id", 4, "duplicate"),
            ("channels:\n  - id: AAAA\n    app: a\n    policy: 1\n", "channels[0].policy", 4, "storagePolicy"),
            ("listen:\n  channelsPort: 70000\n", "listen.channelsPort", 2, "65535"),
        ] as [(String, String, Int, String)])
    func refused(yaml: String, field: String, line: Int, mentions: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.field == field)
        #expect(error.line == line)
        #expect(error.message.contains(mentions), "\(error.message)")
    }

    @Test("a server starts with the declared channels; a reset clears created ones and restores the declared")
    func resetRestoresDeclared() async throws {
        var scenario = Scenario.embeddedDefault(port: 0)
        scenario.channels = [ChannelDeclaration(id: "c2NvcmVzLTE=", bundleID: "com.example.app")]
        try await withTestServer(scenario: scenario) { server in
            #expect(try await server.control.channels().map(\.id) == ["c2NvcmVzLTE="])
            let created = try await ChannelManagementEndToEndTests.create(server)
            let id = try #require(created.headers["apns-channel-id"])
            let deleted = try await Curl.request(
                port: server.channelsPort, path: ChannelManagementEndToEndTests.channels, method: "DELETE",
                headers: ChannelManagementEndToEndTests.headers(["apns-channel-id": "c2NvcmVzLTE="]))
            #expect(deleted.status == 204)
            #expect(try await server.control.channels().map(\.id) == [id])
            try await server.control.reset()
            let after = try await server.control.channels()
            #expect(after.map(\.id) == ["c2NvcmVzLTE="])
            #expect(after.first?.declared == true)
            #expect(try await server.control.channel(id: id) == nil)
        }
    }

    @Test("a loaded scenario's channels go live, and GET /v1/scenario writes them back as they load")
    func loadedAndWrittenBack() async throws {
        try await withTestServer { server in
            let yaml = "channels:\n  - id: c2NvcmVzLTE=\n    app: com.example.app\n    storagePolicy: 1\n"
            let snapshot = try await server.control.loadScenario(yaml: yaml)
            #expect(try await server.control.channels().map(\.storagePolicy) == [1])
            let written = try #require(snapshot.document["channels"])
            #expect(written == [["id": "c2NvcmVzLTE=", "app": "com.example.app", "storagePolicy": 1]])
            let again = try parse(snapshot.document.jsonText)
            #expect(
                again.channels == [
                    ChannelDeclaration(id: "c2NvcmVzLTE=", bundleID: "com.example.app", storagePolicy: .mostRecent)
                ])
        }
    }

    @Test("a server on port 0 takes a free channels port, not 2195; a pinned one is kept")
    func channelsPort() async throws {
        try await withTestServer { server in
            #expect(server.channelsPort != ListenSettings.defaultChannelsPort)
            #expect(server.channelsURL == "https://127.0.0.1:\(server.channelsPort)")
        }
        var listen = ListenSettings()
        listen.port = 0
        #expect(listen.effectiveChannelsPort == 0)
        listen.channelsPort = 2200
        listen.channelsPortIsPinned = true
        #expect(listen.effectiveChannelsPort == 2200)
        listen.port = 2197
        listen.channelsPortIsPinned = false
        listen.channelsPort = ListenSettings.defaultChannelsPort
        #expect(listen.effectiveChannelsPort == 2195)
    }
}

/// The channel store's bounds: per app and environment, in all, and the deleted ids it remembers.
@Suite("Channel store bounds")
struct ChannelStoreBoundsTests {
    @Test("counts the limit per app and environment, frees a slot on delete, and refuses past maxChannels in all")
    func bounds() throws {
        let store = ChannelStore()
        let now = Date()
        func create(_ app: String, _ environment: APNsEnvironment = .sandbox, limit: Int = 3) -> String? {
            try? store.create(
                bundleID: app, environment: environment, storagePolicy: .noStorage, limit: limit, now: now
            ).get().id
        }
        let first = try #require(create("a"))
        #expect(create("a") != nil && create("a") != nil)
        #expect(create("a") == nil)
        #expect(create("a", .production) != nil)
        #expect(store.delete(first, bundleID: "a", environment: .sandbox) != nil)
        #expect(create("a") != nil)
        var made = store.all().count
        var app = 0
        while made < ChannelStore.maxChannels {
            app += 1
            #expect(create("app\(app)", limit: 1) != nil)
            made += 1
        }
        #expect(create("one-more", limit: 1) == nil)
        #expect(store.all().count == ChannelStore.maxChannels)
    }
}
