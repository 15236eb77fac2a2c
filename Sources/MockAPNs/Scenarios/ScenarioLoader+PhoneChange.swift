import Foundation
import Yams

extension ScenarioLoader {
    /// A phone's fields as a scenario's `phones.<id>` entry writes them (JSON is YAML too), written over `base`: what
    /// `PATCH /v1/phones/{id}` takes. Errors name the field (`apps.com.example.app.state`) and the line.
    public static func phoneChange(yaml: String, onto base: PhoneState) throws(ScenarioError) -> PhoneState {
        let reader = Reader(file: nil, baseDirectory: FileManager.default.currentDirectoryPath, now: Date())
        return try reader.phoneState(try mappingFragment(yaml, example: #"{"online": false}"#), onto: base)
    }

    /// An app's fields on a phone as a scenario's `phones.<id>.apps.<bundle>` entry writes them, written over
    /// `base`: what `PATCH /v1/phones/{id}/apps/{bundle}` takes.
    public static func appChange(yaml: String, onto base: AppOnPhone) throws(ScenarioError) -> AppOnPhone {
        let reader = Reader(file: nil, baseDirectory: FileManager.default.currentDirectoryPath, now: Date())
        return try reader.appOnPhone(try mappingFragment(yaml, example: #"{"state": "forceQuit"}"#), onto: base)
    }

    /// The document as a mapping field with an empty path, so that errors name the fields themselves.
    private static func mappingFragment(_ yaml: String, example: String) throws(ScenarioError) -> Field {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw syntaxError(error, file: nil, yaml: yaml)
        }
        guard let root, case .mapping = root else {
            throw ScenarioError(message: "the body must be a JSON object of the fields to change, such as \(example)")
        }
        let field = Field(node: root, path: "", file: nil)
        try refuseNulls(in: field)
        return field
    }

    /// The fields a change may set to `null`, and what that means: `focus` (turns it off), `lastOpened` (back to the
    /// load time).
    static let nullableChangeFields: Set<String> = ["focus", "lastOpened"]

    /// Refuses a `null` anywhere in a change but at `nullableChangeFields`: elsewhere it would change nothing, and a
    /// 200 that changed nothing is a silent failure.
    private static func refuseNulls(in field: Field) throws(ScenarioError) {
        guard case .mapping = field.node else { return }
        for (key, value) in try field.freeMapping() {
            if value.isNull, !nullableChangeFields.contains(key) {
                throw value.error("null changes nothing: leave the field out to keep it, or give a value")
            }
            try refuseNulls(in: value)
        }
    }
}
