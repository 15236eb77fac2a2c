extension APNsValidator {
    /// The note on an accepted `"event": "start"` Live Activity push that has no `aps.alert`.
    static let startWithoutAlertNote =
        "a Live Activity start without aps.alert: APNs answers 200, but the phone drops it and no activity starts"

    /// "A start push needs alert; without it the device drops it and APNs still answers 200" (live-activities.md;
    /// seen). Only a note: the device itself is issue 12's simulation. Runs for accepted liveactivity pushes only.
    func noteLiveActivityStart(_ request: APNsRequest, _ context: inout Context) {
        guard let payload = try? JSONParser.parse(request.body), let aps = payload["aps"],
            aps["event"]?.stringValue == "start"
        else { return }
        if aps["alert"] == nil || aps["alert"] == .null {
            context.notes.append(Self.startWithoutAlertNote)
        }
    }
}
