import Yams

extension ScenarioLoader.Reader {
    /// The `checks` section: `all` (every check with its defaults), or a list whose entries are a check's name
    /// (`- backs-off`) or a one-key mapping of a name to its parameters (`- backs-off: { minimum: 2s }`).
    func checks(_ field: Field) throws(ScenarioError) -> [ProviderCheck] {
        switch field.node {
        case .scalar:
            guard try field.string() == "all" else {
                throw field.error("expected 'all' or a list of checks, got \(field.shortDescription)")
            }
            return ProviderCheck.Kind.allCases.map { ProviderCheck($0) }
        case .sequence:
            var checks: [ProviderCheck] = []
            for entry in try field.list() {
                let check = try self.check(entry)
                if let earlier = checks.first(where: { $0.kind == check.kind }) {
                    throw entry.error(
                        "the check '\(check.kind.rawValue)' is listed twice (first on line \(earlier.line)); "
                            + "give it once, with all its parameters")
                }
                checks.append(check)
            }
            return checks
        default:
            throw field.error("expected 'all' or a list of checks, got \(field.shortDescription)")
        }
    }

    /// One entry of the `checks` list: a name, or a one-key mapping of a name to its parameters.
    private func check(_ entry: Field) throws(ScenarioError) -> ProviderCheck {
        var check: ProviderCheck
        switch entry.node {
        case .scalar:
            check = ProviderCheck(try checkKind(entry, name: try entry.string()))
        case .mapping(let mapping):
            guard mapping.count == 1, let only = mapping.first else {
                throw entry.error(
                    "a check with parameters is a mapping of its name to them, such as "
                        + "'- backs-off: { minimum: 2s }'; got \(mapping.count) keys")
            }
            let key = Field(node: only.key, path: entry.path, file: entry.file)
            let name = try key.string()
            check = try parameters(entry.child(name, only.value), of: ProviderCheck(try checkKind(key, name: name)))
        default:
            throw entry.error("expected a check's name or '- name: { parameters }', got \(entry.shortDescription)")
        }
        check.line = entry.node.mark?.line ?? 0
        return check
    }

    /// The check named `name`, or an error at `field` with the nearest name.
    private func checkKind(_ field: Field, name: String) throws(ScenarioError) -> ProviderCheck.Kind {
        if let kind = ProviderCheck.Kind(rawValue: name) { return kind }
        let names = ProviderCheck.Kind.allCases.map(\.rawValue)
        let hint = name == "all" ? " ('all' stands alone: 'checks: all')" : NameSuggestion.hint(for: name, among: names)
        throw field.error("unknown check '\(name)'\(hint); known checks: \(names.joined(separator: ", "))")
    }

    /// `check` with the parameters of `field` (`{ minimum: 2s }`); nothing after the colon keeps the defaults.
    private func parameters(_ field: Field, of check: ProviderCheck) throws(ScenarioError) -> ProviderCheck {
        if field.isNull { return check }
        let known = check.kind.parameterNames
        guard !known.isEmpty else {
            throw field.error("the check '\(check.kind.rawValue)' takes no parameters; list it by its name alone")
        }
        let fields = try field.mapping(known: known)
        var check = check
        if let minimum = fields["minimum"] {
            check.minimumBackoff = try duration(minimum, in: ProviderCheck.minimumBackoffRange)
        }
        if let maxConnections = fields["maxConnections"] {
            check.maxConnections = try maxConnections.integer(in: ProviderCheck.maxConnectionsRange)
        }
        if let maxAge = fields["maxAge"] {
            check.maxTokenAge = try duration(maxAge, in: ProviderCheck.maxTokenAgeRange)
        }
        return check
    }
}
