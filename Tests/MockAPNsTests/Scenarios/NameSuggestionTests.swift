import Foundation
import Testing

@testable import MockAPNs

/// One "did you mean" for fields, reasons and environments, and the spellings a scenario file may use.
@Suite("did you mean")
struct NameSuggestionTests {
    func loadError(_ yaml: String) -> ScenarioError? { ScenarioText.error(yaml) }

    @Test("suggests the close name, a longer name typed short, and nothing for a far one")
    func closest() {
        let reasons = APNsReason.deviceAPI.map(\.name)
        #expect(NameSuggestion.closest(to: "Unregisterd", among: reasons) == "Unregistered")
        #expect(NameSuggestion.closest(to: "unregistered", among: reasons) == "Unregistered")
        #expect(NameSuggestion.closest(to: "prod", among: APNsEnvironment.names) == "production")
        #expect(NameSuggestion.closest(to: "staging", among: APNsEnvironment.names) == nil)
        #expect(NameSuggestion.closest(to: "sandbox", among: APNsEnvironment.names) == nil)
        #expect(NameSuggestion.hint(for: "devics", among: ["devices", "keys"]) == " (did you mean 'devices'?)")
    }

    @Test("a reason typo in a rule is refused with a did-you-mean, with or without a status")
    func reasonTypo() throws {
        let bare = try #require(loadError("rules:\n  - respond: { reason: Unregisterd }\n"))
        #expect(bare.field == "rules[0].respond.reason")
        #expect(bare.message.hasPrefix("'Unregisterd' is not an APNs reason (did you mean 'Unregistered'?)"))
        let withStatus = try #require(loadError("rules:\n  - respond: { status: 410, reason: Unregisterd }\n"))
        #expect(withStatus.message.contains("did you mean 'Unregistered'?"))
        // A name far from every known reason is still taken with its status (a reason Apple added later).
        #expect(loadError("rules:\n  - respond: { status: 418, reason: ImATeapot }\n") == nil)
    }

    @Test("with a status, a custom reason is refused only when it is within two edits of a known one")
    func customReasonWithStatus() throws {
        // Short or extended names that start a known reason are custom reasons once a status is given.
        #expect(loadError("rules:\n  - respond: { status: 400, reason: Invalid }\n") == nil)
        #expect(loadError("rules:\n  - respond: { status: 400, reason: BadDeviceTokenFormat }\n") == nil)
        #expect(loadError("rules:\n  - respond: { status: 403, reason: Bad }\n") == nil)
        let typo = try #require(loadError("rules:\n  - respond: { status: 400, reason: BadTopc }\n"))
        #expect(typo.message.hasPrefix("'BadTopc' is not an APNs reason (did you mean 'BadTopic'?)"))
        let caseTypo = try #require(loadError("rules:\n  - respond: { status: 410, reason: unregistered }\n"))
        #expect(caseTypo.message.contains("did you mean 'Unregistered'?"))
        // Without a status the name is refused anyway; a known reason it starts is suggested.
        let bare = try #require(loadError("rules:\n  - respond: { reason: Invalid }\n"))
        #expect(bare.message.contains("did you mean 'Invalid"), "\(bare.message)")
    }

    @Test("environments are sandbox, development or production, exactly; others get a did-you-mean")
    func environmentSpellings() throws {
        #expect(loadError("environment: development\n") == nil)
        #expect(loadError("environment: production\n") == nil)
        let prod = try #require(loadError("environment: prod\n"))
        #expect(
            prod.message == "must be sandbox (or development) or production; got 'prod' (did you mean 'production'?)"
        )
        let capital = try #require(loadError("environment: Sandbox\n"))
        #expect(capital.message.hasSuffix("(did you mean 'sandbox'?)"))
        #expect(APNsEnvironment(name: "dev") == nil && APNsEnvironment(name: "PRODUCTION") == nil)
    }

    @Test("field names keep their did-you-mean")
    func fieldTypo() throws {
        let error = try #require(loadError("devics: []\n"))
        #expect(error.message.hasPrefix("unknown field 'devics' (did you mean 'devices'?); known fields: "))
    }
}
