import Foundation

extension PhoneWalk {
    /// The location walk (phone.md §4, "The others"): the entitlement → the person's location authorization →
    /// the location push service extension completes, or runs too slowly and is killed.
    mutating func location(on phone: inout Phone) -> DeviceOutcome {
        // A declared list without the entitlement is a finding; no list at all assumes it, with a note.
        if !has(.locationPush, for: "a location push") {
            return decided(
                .dropped, .locationNoEntitlement,
                "\(bundleID) lacks the location push entitlement (com.apple.developer.location.push): its location "
                    + "push service extension is not run (a real app without it would not even get the token)")
        }
        let authorization = phone.state.app(bundleID).locationAuthorization
        if authorization != .always {
            return decided(
                .dropped, .locationNotAuthorized,
                "the person allowed location for \(bundleID) \(authorization.rawValue), not always: the location "
                    + "push service extension is not run")
        }
        switch app.locationExtension.action(for: request, payload: &payload) {
        case .completes:
            return decided(
                .launched, .locationExtensionRan,
                "\(bundleID)'s location push service extension ran and called its completion handler in time")
        case .slow:
            return decided(
                .terminated, .locationExtensionSlow,
                "\(bundleID)'s location push service extension did not finish in time: the system called "
                    + "serviceExtensionWillTerminate() and killed it")
        }
    }
}
