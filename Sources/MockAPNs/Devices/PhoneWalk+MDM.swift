import Foundation

extension PhoneWalk {
    /// The MDM walk (phone.md §4, "The others"): the push only wakes the device, which then polls its MDM server
    /// for commands; mock-apns plays no MDM server, so the walk ends at the check-in.
    mutating func mdm() -> DeviceOutcome {
        if Self.stringMember(facts.payload, "mdm") == nil {
            notes.append(
                "the payload has no mdm key: an MDM push carries {\"mdm\": \"<PushMagic>\"} from the device's "
                    + "TokenUpdate; the device checks in anyway here")
        }
        return decided(
            .delivered, .mdmCheckin,
            "the device got the MDM push: it checks in with its MDM server for commands (no MDM server is played "
                + "here)")
    }
}
