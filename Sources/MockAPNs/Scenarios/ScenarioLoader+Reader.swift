import Foundation
import Yams

extension ScenarioLoader {
    /// Reads one document: the file it came from, where its relative paths start, and the load time.
    struct Reader {
        typealias Field = ScenarioLoader.Field
        typealias Fields = ScenarioLoader.Fields

        let file: String?
        let baseDirectory: String
        let now: Date
        /// What the document has expanded to so far, against the alias-bomb limits.
        let budget = ScenarioLoader.ExpansionBudget()
        /// The relative file paths read so far.
        let filePaths = ScenarioLoader.FilePathLog()

        /// The whole scenario; a missing or null document is the default one.
        func scenario(from root: Node?, defaultName: String) throws(ScenarioError) -> Scenario {
            var scenario = Scenario(name: defaultName, sourcePath: file)
            guard let root else { return scenario }
            let document = Field(node: root, path: "", file: file)
            if document.isNull { return scenario }
            guard case .mapping = root else {
                throw document.error(
                    "a scenario is a mapping of fields (\(ScenarioLoader.documentFields.joined(separator: ", "))), "
                        + "got \(document.shortDescription)"
                )
            }
            let fields = try document.mapping(known: ScenarioLoader.documentFields)

            if let name = fields["name"] {
                scenario.name = try name.string()
            }
            if let environment = fields["environment"] {
                scenario.world.environment = try self.environment(environment)
            }
            if let mode = fields["mode"] {
                let policy = try mode.choice(["lenient": StrictnessPolicy.lenient, "strict": .strict])
                scenario.world.devicePolicy = policy
                scenario.world.keyPolicy = policy
            }
            if let unknownDevices = fields["unknownDevices"] {
                scenario.world.devicePolicy = try acceptance(unknownDevices)
            }
            if let unknownKeys = fields["unknownKeys"] {
                scenario.world.keyPolicy = try acceptance(unknownKeys)
            }
            if let listen = fields["listen"] {
                scenario.listen = try self.listen(listen)
            }
            if let journal = fields["journal"] {
                let journalFields = try journal.mapping(known: ["capacity", "maxBytes"])
                if let capacity = journalFields["capacity"] {
                    scenario.journalCapacity = try capacity.integer(in: Journal.capacityRange)
                }
                if let maxBytes = journalFields["maxBytes"] {
                    switch ByteSizeText.parse(try maxBytes.string(), in: Journal.maxBytesRange) {
                    case .success(let bytes): scenario.journalMaxBytes = bytes
                    case .failure(let problem): throw maxBytes.error(problem.message)
                    }
                }
            }
            if let keys = fields["keys"] {
                scenario.world.keys = try signingKeys(keys)
                scenario.signingKeyFile = try firstSigningKeyFile(keys)
            }
            if let apps = fields["apps"] {
                scenario.world.apps = try self.apps(apps)
                scenario.world.phone.apps = try appBehaviours(apps)
            }
            if let simulation = fields["simulation"] {
                scenario.world.phone.settings = try self.simulation(simulation)
            }
            if let phones = fields["phones"] {
                scenario.phones = try self.phones(phones)
            }
            if let activityTypes = fields["activityTypes"] {
                scenario.declaredActivityTypes = try self.activityTypes(activityTypes)
            }
            if let liveActivity = fields["liveActivity"] {
                scenario.liveActivity = try self.liveActivity(liveActivity)
            }
            // Before the devices: a live-activity device's `channel:` names one of them.
            if let channels = fields["channels"] {
                scenario.channels = try self.channels(channels)
            }
            if let devices = fields["devices"] {
                scenario.world.devices = try self.devices(
                    devices, activityTypes: scenario.declaredActivityTypes.map(\.name),
                    phones: Array(scenario.phones.keys), channels: scenario.channels,
                    environment: scenario.world.environment)
            }
            if let rules = fields["rules"] {
                scenario.rules = try self.rules(rules)
            }
            if let fidelity = fields["fidelity"] {
                scenario.world.fidelity = try self.fidelity(fidelity)
            }
            if let limits = fields["limits"] {
                scenario.limits = try self.limits(limits)
            }
            if let expect = fields["expect"] {
                scenario.expectations = try expectations(expect)
            }
            if let unexpected = fields["unexpected"] {
                scenario.unexpected = try unexpected.choice(["allow": UnexpectedRequests.allow, "fail": .fail])
            }
            if let checks = fields["checks"] {
                scenario.checks = try self.checks(checks)
            }
            if let tokenUpload = fields["tokenUpload"] {
                scenario.tokenUpload = try self.tokenUpload(tokenUpload)
            }
            scenario.relativeFilePaths = filePaths.paths
            return scenario
        }

        /// `sandbox` (or `development`) or `production`.
        func environment(_ field: Field) throws(ScenarioError) -> APNsEnvironment {
            let text = try field.string()
            guard let environment = APNsEnvironment(name: text) else {
                throw field.error(
                    "must be sandbox (or development) or production; got \(field.shortDescription)"
                        + NameSuggestion.hint(for: text, among: APNsEnvironment.names))
            }
            return environment
        }

        /// `accept` (lenient) or `reject` (strict).
        func acceptance(_ field: Field) throws(ScenarioError) -> StrictnessPolicy {
            try field.choice(["accept": StrictnessPolicy.lenient, "reject": .strict])
        }
    }
}
