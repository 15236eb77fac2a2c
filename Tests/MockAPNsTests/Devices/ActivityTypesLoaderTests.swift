import Foundation
import Testing

@testable import MockAPNs

/// The scenario's `activityTypes:` section and devices' `attributesType`: what loads, what is refused and where,
/// and the round trip through a scenario document.
@Suite("activityTypes in scenarios")
struct ActivityTypesLoaderTests {
    static let pushToStart = String(repeating: "ab", count: 80)

    func parse(_ yaml: String) throws(ScenarioError) -> Scenario { try ScenarioText.load(yaml, file: "types.yaml") }

    func loadError(_ yaml: String) -> ScenarioError? { ScenarioText.error(yaml, file: "types.yaml") }

    static let yaml = """
        activityTypes:
          mpushTaxiAttributes:
            attributes: { appName: String, appLogo: URL }
            contentState: { status: String?, eta: "[Int]?", stops: [Date], tags: [String?] }
          mpushTakeoutAttributes:
            attributes: { shopName: String, orderID: String }
            contentState:
              status: Int
              rider?: { name: String, rating: Double? }
              legs: [{ from: String, minutes: Int }]
              paid: Bool
            dateDecoding: iso8601
        devices:
          - token: \(pushToStart)
            kind: push-to-start
            attributesType: mpushTakeoutAttributes
        """

    @Test("types load in file order with every kind of field")
    func loads() throws {
        let scenario = try parse(Self.yaml)
        #expect(
            scenario.declaredActivityTypes.map(\.name) == [
                "mpushTaxiAttributes", "mpushTakeoutAttributes",
            ])
        let taxi = try #require(scenario.activityTypes["mpushTaxiAttributes"])
        #expect(taxi.attributes == [ActivityField("appName", .string), ActivityField("appLogo", .url)])
        #expect(
            taxi.contentState == [
                ActivityField("status", .optional(.string)), ActivityField("eta", .optional(.array(.int))),
                ActivityField("stops", .array(.date)), ActivityField("tags", .array(.optional(.string))),
            ])
        #expect(taxi.dateDecoding == .deferredToDate)
        let takeout = try #require(scenario.activityTypes["mpushTakeoutAttributes"])
        #expect(takeout.dateDecoding == .iso8601)
        #expect(
            takeout.contentState == [
                ActivityField("status", .int),
                ActivityField(
                    "rider",
                    .optional(
                        .object([ActivityField("name", .string), ActivityField("rating", .optional(.double))]))),
                ActivityField(
                    "legs", .array(.object([ActivityField("from", .string), ActivityField("minutes", .int)]))),
                ActivityField("paid", .bool),
            ])
        #expect(scenario.world.devices[Self.pushToStart]?.attributesType == "mpushTakeoutAttributes")
    }

    @Test("a scenario document writes the types and attributesType back, and loads back the same")
    func roundTrip() throws {
        let scenario = try parse(Self.yaml)
        let document = ScenarioSnapshot(
            name: scenario.name, world: scenario.world, rules: [], declarations: scenario
        ).document
        let reloaded = try parse(document.jsonText)
        #expect(reloaded.declaredActivityTypes == scenario.declaredActivityTypes)
        #expect(reloaded.world.devices == scenario.world.devices)
        #expect(
            document.value(atPath: "activityTypes.mpushTakeoutAttributes.contentState.rider?.name")
                == "String")
    }

    @Test("refuses an unknown type name with a suggestion, at the field's line and column")
    func unknownTypeName() throws {
        let error = try #require(
            loadError("activityTypes:\n  T:\n    contentState:\n      status: Strng?\n"))
        #expect(error.file == "types.yaml")
        #expect(error.line == 4)
        #expect(error.column == 15)
        #expect(error.field == "activityTypes.T.contentState.status")
        #expect(error.message.hasPrefix("unknown type 'Strng' (did you mean 'String'?)"))
    }

    @Test("refuses bad type texts, bad dateDecoding, unknown keys and empty names")
    func refusals() throws {
        let cases: [(String, String, String)] = [
            (
                "activityTypes:\n  T:\n    attributes: { a: \"[Int\" }\n", "activityTypes.T.attributes.a",
                "an array type is [T]"
            ),
            (
                "activityTypes:\n  T:\n    attributes: { a: Int?? }\n", "activityTypes.T.attributes.a",
                "'??' is not allowed"
            ),
            (
                "activityTypes:\n  T:\n    attributes: { a: [Int, String] }\n",
                "activityTypes.T.attributes.a", "a list of 2"
            ),
            (
                "activityTypes:\n  T:\n    attributes: { a: }\n", "activityTypes.T.attributes.a",
                "got nothing"
            ),
            (
                "activityTypes:\n  T:\n    attributes: { \"a?\": Int? }\n", "activityTypes.T.attributes.a?",
                "optional twice"
            ),
            ("activityTypes:\n  T:\n    attributes: { \"a??\": Int }\n", "activityTypes.T.attributes.a??", "or '?'"),
            (
                "activityTypes:\n  T:\n    dateDecoding: iso8061\n", "activityTypes.T.dateDecoding",
                "did you mean 'iso8601'?"
            ),
            (
                "activityTypes:\n  T:\n    contentStates: {}\n", "activityTypes.T.contentStates",
                "did you mean 'contentState'?"
            ),
            ("activityTypes:\n  \"\":\n    attributes: {}\n", "activityTypes.", "needs a name"),
            (
                "activityTypes:\n  T:\n    attributes: { \"\": Int }\n", "activityTypes.T.attributes.",
                "needs a name"
            ),
            ("activityTypes: [T]\n", "activityTypes", "expected a mapping"),
        ]
        for (yaml, field, message) in cases {
            let error = try #require(loadError(yaml), "\(yaml)")
            #expect(error.field == field, "\(yaml)")
            #expect(error.message.contains(message), "\(yaml): \(error.message)")
            #expect(error.line != nil, "\(yaml)")
        }
    }

    @Test("a device's attributesType must be declared and belongs to a push-to-start or live-activity token")
    func attributesTypeRefusals() throws {
        let declared = "activityTypes:\n  mpushTaxiAttributes: {}\n  mpushTakeoutAttributes: {}\n"
        let unknown = try #require(
            loadError(
                declared
                    + "devices:\n  - { token: \(Self.pushToStart), kind: push-to-start, attributesType: mpushTaxi }\n"
            ))
        #expect(unknown.field == "devices[0].attributesType")
        #expect(
            unknown.message
                == "unknown activity type 'mpushTaxi' (did you mean 'mpushTaxiAttributes'?); declared: "
                + "mpushTaxiAttributes, mpushTakeoutAttributes")
        let none = try #require(
            loadError(
                "devices:\n  - { token: \(Self.pushToStart), kind: push-to-start, attributesType: X }\n"))
        #expect(none.message.contains("the scenario declares none"))
        let wrongKind = try #require(
            loadError(
                declared
                    + "devices:\n  - { token: \(Self.pushToStart), attributesType: mpushTaxiAttributes }\n"))
        #expect(
            wrongKind.message
                == "attributesType applies only to a device whose kind is push-to-start or live-activity")
    }

    @Test(
        "live-activity.yaml declares the demo's taxi and takeout types and a push-to-start token for each"
    )
    func liveActivityExample() throws {
        let file = ScenarioLoaderTests.scenariosFolder.appendingPathComponent("live-activity.yaml").path
        let scenario = try ScenarioLoader.load(file: file)
        let taxi = try #require(scenario.activityTypes["mpushTaxiAttributes"])
        #expect(taxi.attributes.map(\.name) == ["appName", "appLogo"])
        #expect(taxi.contentState.map(\.name) == ["status", "distance", "eta", "prompt"])
        #expect(taxi.contentState.allSatisfy { $0.type == .optional(.string) })
        let takeout = try #require(scenario.activityTypes["mpushTakeoutAttributes"])
        #expect(
            takeout.contentState == [
                ActivityField("status", .int), ActivityField("eta", .optional(.date)),
                ActivityField("rider", .optional(.string)),
            ])
        let starters = scenario.world.devices.values.filter { $0.kind == .pushToStart }.compactMap(
            \.attributesType)
        #expect(Set(starters) == ["mpushTaxiAttributes", "mpushTakeoutAttributes"])
    }
}
