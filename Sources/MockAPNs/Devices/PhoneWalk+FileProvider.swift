import Foundation

extension PhoneWalk {
    /// The File Provider walk (phone.md §4, "The others"): a push for an app that adds its own domains must name one
    /// (`domain`) → the system signals the enumerator of the payload's `container-identifier`.
    mutating func fileProvider() -> DeviceOutcome {
        let domain = Self.stringMember(facts.payload, "domain")
        if let domains = app.fileProviderDomains, !domains.isEmpty {
            let declared = domains.sorted().joined(separator: ", ")
            guard let domain else {
                return decided(
                    .dropped, .fileproviderNoDomain,
                    "the push has no domain key, and \(bundleID) adds the File Provider domains \(declared): the "
                        + "system signals no enumerator")
            }
            guard domains.contains(domain) else {
                return decided(
                    .dropped, .fileproviderNoDomain,
                    "the push names the domain \(domain), which \(bundleID) does not add (it adds \(declared)): the "
                        + "system signals no enumerator")
            }
        } else if app.fileProviderDomains == nil {
            notes.append("\(bundleID) declares no fileProviderDomains: the push's domain is not checked")
        }
        let container: String
        if let named = Self.stringMember(facts.payload, "container-identifier") {
            container = named
        } else {
            container = "NSFileProviderWorkingSetContainerItemIdentifier"
            notes.append(
                "the push has no container-identifier: Apple's example signals the working set "
                    + "(NSFileProviderWorkingSetContainerItemIdentifier), as this does")
        }
        let inDomain = domain.map { " in the domain \($0)" } ?? ""
        return decided(
            .launched, .fileproviderSignalled,
            "the system calls signalEnumerator(for: \(container))\(inDomain): \(bundleID)'s File Provider "
                + "extension enumerates the changes")
    }

    /// The top-level member `name` of `payload` when it is a non-empty string.
    static func stringMember(_ payload: JSONValue?, _ name: String) -> String? {
        guard case .object(let members)? = payload, case .string(let text)? = members.last(where: { $0.0 == name })?.1,
            !text.isEmpty
        else { return nil }
        return text
    }
}
