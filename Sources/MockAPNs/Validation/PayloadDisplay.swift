/// What the phone would show for an alert push's payload, as far as the payload alone tells: something, or nothing
/// and why. Found by the scan that checks the payload is JSON (`PayloadScan`), so it costs no second parse.
///
/// "Alert text is a title, subtitle or body, or their localized forms (`title-loc-key`, `subtitle-loc-key`,
/// `loc-key`); a string `alert` is a body"; with no alert text, sound or badge there is nothing to show
/// (phone.md §4 and §5 `nothing-to-show`; doc, *Generating*). APNs still answers 200.
enum PayloadDisplay: UInt8, Sendable, Hashable {
    /// Alert text, a sound or a badge: the phone has something to show.
    case visible
    /// Not a JSON object (its own note says so).
    case notAnObject
    /// No `aps` member.
    case noAPS
    /// `aps` is not a JSON object.
    case apsNotAnObject
    /// `aps` has no `alert`, `sound` or `badge`.
    case nothingInAPS
    /// `aps.alert` is there but has no text, and there is no sound or badge.
    case alertWithoutText

    /// The record's note for an accepted alert push, in words; `nil` when the phone has something to show (or the
    /// payload is not an object, which has a note of its own).
    var note: String? {
        switch self {
        case .visible, .notAnObject: nil
        case .noAPS: "the phone shows nothing: the payload has no aps"
        case .apsNotAnObject: "the phone shows nothing: aps is not a JSON object"
        case .nothingInAPS: "the phone shows nothing: aps has no alert, sound or badge"
        case .alertWithoutText:
            "the phone shows nothing: aps.alert has no text (title, subtitle, body or a loc-key) and there is no "
                + "sound or badge"
        }
    }
}
