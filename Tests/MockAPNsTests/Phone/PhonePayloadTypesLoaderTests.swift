import Foundation
import Testing

@testable import MockAPNs

/// `apps[].payload` (phone.md §3) and `serviceExtension.communication` in scenarios: what loads, what is refused
/// with its file, line and field, the limits on a declaration, and the round trip through a scenario document.
@Suite("phone: payload types and communication in scenarios")
struct PhonePayloadTypesLoaderTests {
    static let yaml = """
        apps:
          - bundleID: com.example.app
            entitlements: [communication]
            serviceExtension:
              does: modify
              communication: { sender: Mum }
              cases:
                - { match: { payload: { from: Dad } }, does: modify, communication: { sender: Dad } }
                - { match: { payload: { plain: true } }, does: modify, set: { title: News } }
            payload:
              alert: { orderID: String, deepLink: URL?, order?: { total: Double, items: [{ name: String }] } }
              voip: { callID: String, callerName: String?, at: Date }
        """

    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "apps.yaml") }

    /// Loads `yaml` and answers the error, which must name the file, the line and a field.
    func refusal(_ yaml: String) throws -> ScenarioError {
        let error = try #require(ScenarioText.error(yaml, file: "apps.yaml"), "\(yaml)")
        #expect(error.line != nil && !error.field.isEmpty && error.file == "apps.yaml", "\(error)")
        return error
    }

    /// An app declaring `payload` as given.
    func app(payload: String) -> String { "apps:\n  - bundleID: com.x\n    payload: \(payload)\n" }

    @Test("payload loads per push type in the type language of activityTypes; communication per extension and case")
    func loads() throws {
        let behaviour = try #require(try parse(Self.yaml).world.phone.apps["com.example.app"])
        let payload = try #require(behaviour.payload)
        #expect(
            payload.fields["alert"] == [
                ActivityField("orderID", .string), ActivityField("deepLink", .optional(.url)),
                ActivityField(
                    "order",
                    .optional(
                        .object([
                            ActivityField("total", .double),
                            ActivityField("items", .array(.object([ActivityField("name", .string)]))),
                        ]))),
            ])
        #expect(
            payload.fields["voip"] == [
                ActivityField("callID", .string), ActivityField("callerName", .optional(.string)),
                ActivityField("at", .date),
            ])
        guard case .present(let nse) = behaviour.serviceExtension else {
            Issue.record("no service extension")
            return
        }
        #expect(nse.handling.otherwise.communicationSender == "Mum")
        #expect(nse.handling.cases.map(\.action.communicationSender) == ["Dad", nil], "a case does not inherit")
        #expect(try parse(app(payload: "{}")).world.phone.apps["com.x"] == nil, "an empty payload declares nothing")
    }

    @Test("payload and communication are written back by GET /v1/scenario's document and load again the same")
    func writesBack() throws {
        let scenario = try parse(Self.yaml)
        let snapshot = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: scenario.rules, declarations: scenario)
        let app = snapshot.document["apps"]?.arrayValue?.first
        #expect(
            app?["payload"]?["voip"]
                == .object([("callID", "String"), ("callerName", "String?"), ("at", "Date")]))
        #expect(app?["serviceExtension"]?["communication"] == .object([("sender", "Mum")]))
        #expect(app?["serviceExtension"]?["cases"]?.arrayValue?.first?["communication"] == .object([("sender", "Dad")]))
        let again = try parse(snapshot.document.jsonText)
        let written = try #require(again.world.phone.apps["com.example.app"])
        let original = try #require(scenario.world.phone.apps["com.example.app"])
        #expect(written.payload == original.payload)
        #expect(JSONValue.object(written.scenarioMembers) == JSONValue.object(original.scenarioMembers))
    }

    @Test("refuses a bad push type, a bad type name, aps as a custom key and a bad sender, naming the field")
    func refusals() throws {
        let typo = try refusal(app(payload: "{ alrt: { orderID: String } }"))
        #expect(typo.field == "apps[0].payload.alrt" && typo.line == 3, "\(typo)")
        #expect(typo.message.contains("unknown push type 'alrt' (did you mean 'alert'?)"), "\(typo.message)")
        #expect(typo.message.contains("alert, background, location, voip"), "\(typo.message)")
        let live = try refusal(app(payload: "{ liveactivity: { a: String } }"))
        #expect(live.message.contains("activityTypes"), "\(live.message)")
        #expect(try refusal(app(payload: "{ mdm: { mdm: String } }")).message.contains("the system"))
        let type = try refusal(app(payload: "{ alert: { orderID: Strin } }"))
        #expect(type.field == "apps[0].payload.alert.orderID", "\(type)")
        #expect(type.message.contains("unknown type 'Strin' (did you mean 'String'?)"), "\(type.message)")
        let aps = try refusal(app(payload: "{ alert: { aps: { alert: String } } }"))
        #expect(aps.message.contains("aps is Apple's"), "\(aps.message)")
        #expect(try refusal(app(payload: "[alert]")).message.contains("expected a mapping"))
        #expect(try refusal(app(payload: "{ alert: { a: String, a?: Int } }")).message.contains("declared twice"))
        let sender = "apps:\n  - bundleID: com.x\n    serviceExtension: { communication: { sender: \"\" } }\n"
        #expect(try refusal(sender).message.contains("cannot be empty"))
        let noSender = "apps:\n  - bundleID: com.x\n    serviceExtension: { communication: {} }\n"
        #expect(try refusal(noSender).message.contains("'sender'"))
        let otherCase = "apps:\n  - bundleID: com.x\n    voip: [{ does: reports, communication: { sender: M } }]\n"
        #expect(try refusal(otherCase).field == "apps[0].voip[0].communication", "only an extension's case takes it")
    }

    @Test("a declaration nests at most 32 deep and has at most 1,000 fields, in payload and activityTypes alike")
    func limits() throws {
        let deepText = String(repeating: "[", count: 40) + "Int" + String(repeating: "]", count: 40)
        let text = try refusal(app(payload: "{ alert: { a: \"\(deepText)\" } }"))
        #expect(text.message.contains("at most 32 deep"), "\(text.message)")
        #expect(ActivityFieldType.parse(String(repeating: "[", count: 100_000)).failureMessage?.contains("32") == true)
        var nested = "String"
        for _ in 1...40 { nested = "{ a: \(nested) }" }
        let mapping = try refusal(app(payload: "{ alert: \(nested) }"))
        #expect(mapping.message.contains("at most 32 deep"), "\(mapping.message)")
        var fine = "String"
        for _ in 1...30 { fine = "{ a: \(fine) }" }
        #expect(try parse(app(payload: "{ alert: \(fine) }")).world.phone.apps["com.x"]?.payload != nil)
        let many = (0...1_000).map { "k\($0): Int" }.joined(separator: ", ")
        let wide = try refusal(app(payload: "{ alert: { \(many) } }"))
        #expect(wide.message.contains("at most 1000 fields"), "\(wide.message)")
        let activity = try refusal("activityTypes:\n  T:\n    contentState: { \(many) }\n")
        #expect(activity.message.contains("at most 1000 fields"), "\(activity.message)")
        // A YAML alias repeated: the count stops it long before the work grows.
        let alias = """
            apps:
              - bundleID: com.x
                payload:
                  alert:
                    a: &a { \((0..<40).map { "k\($0): Int" }.joined(separator: ", ")) }
                    b: &b { \((0..<40).map { "k\($0): *a" }.joined(separator: ", ")) }
                    c: { \((0..<40).map { "k\($0): *b" }.joined(separator: ", ")) }
            """
        #expect(try refusal(alias).message.contains("at most 1000 fields"))
    }
}

extension Result where Failure == ActivityFieldType.SyntaxError {
    /// The failure's message, if any.
    fileprivate var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
