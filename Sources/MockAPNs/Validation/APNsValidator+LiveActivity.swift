extension APNsValidator {
    /// The note on an accepted `"event": "start"` Live Activity push that has no `aps.alert`.
    static let startWithoutAlertNote =
        "a Live Activity start without aps.alert: APNs answers 200, but the phone drops it and no activity starts"

    /// "A start push needs alert; without it the device drops it and APNs still answers 200" (live-activities.md;
    /// seen). Only a note: the device itself is issue 12's simulation. Runs for accepted liveactivity pushes only.
    /// The payload is parsed once per distinct payload on a connection (`ValidationMemo`), not per push.
    func noteLiveActivityStart(_ request: APNsRequest, _ context: inout Context) {
        if context.memo.isLiveActivityStartWithoutAlert(request.body) {
            context.notes.append(Self.startWithoutAlertNote)
        }
    }

    /// Whether `body` is a Live Activity start (`aps.event` "start") without `aps.alert` (or with a null one).
    static func isLiveActivityStartWithoutAlert(_ body: [UInt8]) -> Bool {
        guard let payload = try? JSONParser.parse(body), let aps = payload["aps"], aps["event"]?.stringValue == "start"
        else { return false }
        return aps["alert"] == nil || aps["alert"] == .null
    }
}
