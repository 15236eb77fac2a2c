/// The device's limit on an activity's data: "Static + dynamic data may not exceed 4 KB combined on the device
/// (separately from APNs's 4096-byte payload limit)" (live-activities.md §1, doc).
///
/// Measured as the UTF-8 bytes of `aps.attributes` plus those of `aps.content-state`, each as compact JSON
/// (`JSONValue.jsonText`: no spaces outside strings, numbers as sent, keys and values in their order): the data
/// the app's types receive, whatever whitespace the provider put around it. 4 KB is 4096 bytes, as APNs counts
/// its payload. Apple does not say how the device measures; this is the mock's choice (open).
public enum ActivitySize {
    /// The most bytes attributes and content-state may have together: 4096.
    public static let limit = 4096

    /// The combined compact JSON size of `attributes` and `contentState` (either may be absent).
    public static func bytes(attributes: JSONValue?, contentState: JSONValue?) -> Int {
        (attributes?.jsonText.utf8.count ?? 0) + (contentState?.jsonText.utf8.count ?? 0)
    }

    /// Why the two are too large for the device, or `nil` when they fit:
    /// `attributes and content-state are 4097 bytes together, more than the device's 4096`.
    public static func problem(attributes: JSONValue?, contentState: JSONValue?) -> String? {
        let total = bytes(attributes: attributes, contentState: contentState)
        guard total > limit else { return nil }
        return "attributes and content-state are \(total) bytes together, more than the device's \(limit)"
    }
}
