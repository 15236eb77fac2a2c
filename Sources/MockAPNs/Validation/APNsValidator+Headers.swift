extension APNsValidator {
    /// Header formats: `apns-id`, `apns-priority`, `apns-expiration`, `apns-push-type`, `apns-collapse-id` (§3).
    func checkHeaderFormats(_ request: APNsRequest, _ context: inout Context) throws(Rejection) {

        // "apns-id: canonical UUID 8-4-4-4-12 ... 400 BadMessageId" (§3; doc).
        if let apnsID = request.fields.apnsID, !APNsValidator.isCanonicalUUID(apnsID) {
            throw Rejection(.badMessageId, rule: "apns-id", "apns-id '\(apnsID)' is not a UUID (8-4-4-4-12 hex digits)")
        }

        // "apns-priority: 10 (default), 5, 1 ... 400 BadPriority" (§3; doc).
        if let value = request.fields.priority {
            guard let priority = Int(value), [10, 5, 1].contains(priority) else {
                throw Rejection(.badPriority, rule: "apns-priority", "apns-priority '\(value)' is not 10, 5 or 1")
            }
            context.priority = priority
        }

        // "apns-expiration: epoch seconds; 0 = deliver once" (§3; doc; what else is rejected: open —
        // anything but a non-negative integer).
        if let value = request.fields.expiration {
            guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), Int64(value) != nil else {
                throw Rejection(
                    .badExpirationDate, rule: "apns-expiration",
                    "apns-expiration '\(value)' is not a whole number of seconds since 1970")
            }
        }

        // "apns-push-type: one of alert, background, ... 400 InvalidPushType" (§3; doc). A missing header is
        // taken as alert (open: `missingPushTypeIsAlert`).
        if let value = request.fields.pushType {
            guard let pushType = context.memo.pushType(named: value) else {
                throw Rejection(
                    .invalidPushType, rule: "apns-push-type",
                    "apns-push-type '\(value)' is not one of \(APNsPushType.all.map(\.name).joined(separator: ", "))")
            }
            context.pushType = pushType
        } else if world.fidelity.missingPushTypeIsAlert {
            context.pushType = .alert
            context.notes.append("no apns-push-type: taken as alert")
        } else {
            throw Rejection(.invalidPushType, rule: "apns-push-type", "apns-push-type is missing")
        }

        // "background: priority 5; Apple calls priority 10 'an error', yet APNs answers 200 to it" (§3; seen).
        if context.pushType == .background, context.priority == 10 {
            if let reason = world.fidelity.backgroundPriorityTen {
                throw Rejection(
                    reason, rule: "apns-priority.background", "a background push must have apns-priority 5, not 10")
            }
            context.notes.append(Self.backgroundPriorityTenNote)
        }
        // "liveactivity: priority 5 or 10" (§8; doc).
        if context.pushType == .liveactivity, context.priority == 1 {
            throw Rejection(.badPriority, rule: "apns-priority.liveactivity", "a liveactivity push takes apns-priority 5 or 10, not 1")
        }

        // "apns-collapse-id: at most 64 bytes ... 400 BadCollapseId" (§3; doc).
        if let collapseID = request.fields.collapseID, collapseID.utf8.count > 64 {
            throw Rejection(
                .badCollapseId, rule: "apns-collapse-id",
                "apns-collapse-id is \(collapseID.utf8.count) bytes; the limit is 64")
        }
    }

    /// The note on a background push sent with `apns-priority` 10, which APNs answers 200 (the phone's warning
    /// `background-priority-10` names the same fact).
    static let backgroundPriorityTenNote =
        "background-priority-10: a background push with apns-priority 10; APNs answers 200, but Apple calls it an "
        + "error and asks for 5 (fidelity.backgroundPriorityTen rejects it)"

    /// Whether `value` is a UUID in canonical 8-4-4-4-12 form (either case).
    static func isCanonicalUUID(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard utf8.count == 36 else { return false }
        for (i, byte) in utf8.enumerated() {
            switch i {
            case 8, 13, 18, 23:
                if byte != UInt8(ascii: "-") { return false }
            default:
                if !DeviceToken.isHexDigit(byte) { return false }
            }
        }
        return true
    }
}
