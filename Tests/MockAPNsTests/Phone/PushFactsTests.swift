import Testing

@testable import MockAPNs

/// What the phone reads of a payload (`PushFacts`), field by field: made once per payload and shared by every walk
/// of it, so each field must come out of the parse alone.
@Suite("PushFacts")
struct PushFactsTests {
    private static func facts(_ json: String) -> PushFacts {
        PushFacts(try? JSONParser.parse(Array(json.utf8)))
    }

    @Test("a string alert is the body; a dictionary alert gives title, subtitle and body, or their localized keys")
    func alertText() {
        let plain = Self.facts(#"{"aps":{"alert":"Your order is ready"}}"#)
        #expect(plain.body == "Your order is ready" && plain.title == nil && plain.subtitle == nil)
        #expect(plain.hasAlertText && plain.apsProblem == nil)
        let parts = Self.facts(#"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B"}}}"#)
        #expect(parts.title == "T" && parts.subtitle == "S" && parts.body == "B" && parts.hasAlertText)
        let localized = Self.facts(#"{"aps":{"alert":{"title-loc-key":"TITLE","loc-key":"READY"}}}"#)
        #expect(localized.title == "title-loc-key TITLE" && localized.body == "loc-key READY")
        #expect(localized.subtitle == nil && localized.hasAlertText)
        for empty in [#"{"aps":{"alert":""}}"#, #"{"aps":{"alert":{"title":""}}}"#, #"{"aps":{}}"#] {
            let facts = Self.facts(empty)
            #expect(!facts.hasAlertText && facts.title == nil && facts.body == nil, "\(empty)")
        }
    }

    @Test("sound, badge and the flags; a repeated member counts by its last occurrence")
    func soundBadgeFlags() {
        let named = Self.facts(#"{"aps":{"sound":"chime.caf","badge":3,"content-available":1,"mutable-content":1}}"#)
        #expect(named.sound == PushFacts.Sound(name: "chime.caf", critical: false) && named.badge == 3)
        #expect(named.contentAvailable && named.mutableContent && named.hasVisibleContent && !named.isBackgroundOnly)
        let critical = Self.facts(#"{"aps":{"sound":{"critical":1,"volume":0.5}}}"#)
        #expect(critical.sound == PushFacts.Sound(name: "default", critical: true) && critical.asksCritical)
        let clamped = Self.facts(#"{"aps":{"badge":1e12}}"#)
        #expect(clamped.badge == Int(Int32.max))
        let background = Self.facts(#"{"aps":{"content-available":1},"aps2":{"alert":"x"}}"#)
        #expect(background.isBackgroundOnly && background.sound == nil && background.badge == nil)
        let repeated = Self.facts(#"{"aps":{"alert":"first"},"aps":{"content-available":1,"badge":1,"badge":"x"}}"#)
        #expect(!repeated.hasAlertText && repeated.badge == nil && repeated.isBackgroundOnly)
        let fields = Self.facts(
            #"{"aps":{"alert":"a","interruption-level":"critical","category":"ORDER","thread-id":"t1","#
                + #""filter-criteria":"work"}}"#)
        #expect(fields.interruptionLevel == "critical" && fields.category == "ORDER" && fields.asksCritical)
        #expect(fields.threadID == "t1" && fields.filterCriteria == "work")
    }

    @Test("a payload with nothing the phone can read says why, and reads no field")
    func nothingToRead() {
        let cases: [(String, String)] = [
            ("not json", "the payload is not a JSON object"),
            ("[1]", "the payload is not a JSON object"),
            (#"{"data":{"aps":{"alert":"x"}}}"#, "the payload has no aps"),
            (#"{"aps":"hello"}"#, "aps is not a JSON object"),
        ]
        for (payload, problem) in cases {
            let facts = Self.facts(payload)
            #expect(facts.apsProblem == problem, "\(payload)")
            #expect(!facts.hasAlertText && facts.sound == nil && facts.badge == nil && !facts.contentAvailable)
        }
        #expect(Self.facts("not json").payload == nil)
        #expect(Self.facts("[1]").payload != nil, "the parsed payload is kept for the app's cases")
    }

    @Test("a walk holds each declared app's code as the scenario last set it, and one shared undeclared app")
    func appCode() {
        var setup = PhoneSetup()
        #expect(setup.appCode("com.example.app") === PhoneSetup.AppCode.undeclared)
        var app = AppBehaviour()
        app.appClip = true
        setup.apps = ["com.example.app": app]
        #expect(setup.appCode("com.example.app").behaviour.appClip)
        #expect(setup.appCode("com.example.other") === PhoneSetup.AppCode.undeclared)
        app.appClip = false
        setup.apps["com.example.app"] = app
        #expect(!setup.appCode("com.example.app").behaviour.appClip, "a changed app is the walk's at once")
    }
}
