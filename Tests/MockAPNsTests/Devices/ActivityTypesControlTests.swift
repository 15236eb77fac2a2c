import Foundation
import MockAPNsClient
import Testing

@testable import MockAPNs

/// Activity types over the control API: `PUT /v1/scenario` takes them, `GET /v1/scenario` shows them, and what it
/// shows loads back the same.
@Suite("activityTypes over the control API")
struct ActivityTypesControlTests {
    static let yaml = """
        name: types
        activityTypes:
          mpushTakeoutAttributes:
            attributes: { shopName: String, orderID: String }
            contentState: { status: Int, eta: Date?, rider?: { name: String } }
            dateDecoding: secondsSince1970
        devices:
          - token: \(String(repeating: "cd", count: 80))
            kind: push-to-start
            attributesType: mpushTakeoutAttributes
        """

    @Test("PUT /v1/scenario loads the types; GET /v1/scenario shows them and the device's attributesType")
    func overHTTP() async throws {
        try await withControlServer { server, control in
            let client = MockAPNsControlClient(url: control.url)
            _ = try await client.loadScenario(yaml: Self.yaml)
            #expect(server.currentScenario.activityTypes["mpushTakeoutAttributes"]?.dateDecoding == .secondsSince1970)
            let document = try await client.scenario().document
            let takeout = document.value(atPath: "activityTypes.mpushTakeoutAttributes")
            #expect(takeout?["dateDecoding"] == "secondsSince1970")
            #expect(takeout?.value(atPath: "contentState.rider?.name") == "String")
            #expect(document["devices"]?.value(atPath: "0.attributesType") == "mpushTakeoutAttributes")

            _ = try await client.loadScenario(yaml: document.jsonText)
            #expect(try await client.scenario().document == document)
        }
    }
}
