/// Every rule the simulated phone applies, in the order of phone.md §5's table and live-activities.md. A rule that
/// sets the outcome's kind and a modifier (which joins `trace` with a warning or a note) are both rules.
extension DeviceRule {
    // MARK: APNs stage (phone.md §1)

    /// The app is not installed on the token's phone: APNs discards the push and answers 200.
    public static let appUninstalled = DeviceRule("app-uninstalled", .seen, "forums/780156, /745902, /827088")
    /// `authorization: denied`: "Discarded – Disabled", still 200.
    public static let notificationsDisabled = DeviceRule("notifications-disabled", .doc, "*Metrics*")
    /// An offline phone and `apns-expiration: 0`: one more attempt within `expirationZeroGrace`.
    public static let expirationZeroRetry = DeviceRule(
        "expiration-zero-retry", .doc, "*Sending*; seen, forums/795610")
    /// An offline phone: APNs stores the push ("Stored – Device Offline").
    public static let storedOffline = DeviceRule("stored-offline", .doc, "*Metrics*")
    /// `apns-expiration: 0` and the phone back within `expirationZeroGrace`: delivered late (an event).
    public static let expirationZeroLate = DeviceRule("expiration-zero-late", .doc, "*Sending*; seen, forums/795610")
    /// `apns-expiration: 0` and the phone still offline past `expirationZeroGrace` (an event, or at once under `0s`).
    public static let expirationZeroOffline = DeviceRule(
        "expiration-zero-offline", .doc, "*Sending*; seen, forums/795610")
    /// Another push for the same storage slot was kept instead (an event).
    public static let storageReplaced = DeviceRule("storage-replaced", .doc, "*Sending*, *Metrics*; open (which)")
    /// The phone came back online: delivered from storage (an event).
    public static let storageDelivered = DeviceRule("storage-delivered", .doc, "*Metrics*")
    /// `apns-expiration` or `storageWithoutExpiration` passed in storage (an event).
    public static let storageExpired = DeviceRule("storage-expired", .doc, "*Sending*, *Metrics*")
    /// `powerStorage: lowPriority`, Low Power Mode on, priority 5 or 1: APNs stores the push ("Stored – Power
    /// Considerations") until Low Power Mode ends.
    public static let storedPower = DeviceRule("stored-power", .doc, "*Metrics*; open (power)")

    // MARK: Alert (phone.md §4)

    /// `authorization: notDetermined`: nothing is shown.
    public static let notAuthorized = DeviceRule("not-authorized", .doc, "UNAuthorizationStatus")
    /// An App Clip (or an `ephemeral` authorization) more than 8 hours after it was last opened: nothing is shown.
    public static let ephemeralExpired = DeviceRule(
        "ephemeral-expired", .doc, "UNAuthorizationStatus.ephemeral, Enabling notifications in App Clips")
    /// `authorization: provisional`: Notification Center only, quietly; it caps any alert that would be shown, a
    /// critical one or one a Focus lets through included (that rule stays in the trace).
    public static let provisional = DeviceRule("provisional", .doc, "*Asking permission*")
    /// `interruption-level: passive`: no sound, banner or screen wake.
    public static let passive = DeviceRule("passive", .doc, "UNNotificationInterruptionLevel")
    /// No alert text (localized keys count) and no sound: nothing to show.
    public static let nothingToShow = DeviceRule("nothing-to-show", .doc, "*Generating*")
    /// Only a badge: the badge is set, nothing is shown.
    public static let badgeOnly = DeviceRule("badge-only", .doc, "*Generating*")
    /// In the foreground, `willPresent` returned no options (or is not implemented).
    public static let foregroundNotPresented = DeviceRule("foreground-not-presented", .doc, "willPresent")
    /// In the foreground, `willPresent` returned `[list]` only.
    public static let foregroundListOnly = DeviceRule("foreground-list-only", .doc, "willPresent")
    /// Alerts off, Notification Center or Lock Screen on: listed quietly.
    public static let alertsOffListOnly = DeviceRule(
        "alerts-off-list-only", .doc, "UNNotificationSettings, *Asking permission*")
    /// Alerts, Notification Center and Lock Screen all off: nothing is shown.
    public static let alertsOff = DeviceRule("alerts-off", .doc, "UNNotificationSettings, *Asking permission*")
    /// A critical alert, entitled and allowed: past the mute switch and any Focus.
    public static let criticalAlert = DeviceRule("critical-alert", .doc, "UNNotificationInterruptionLevel")
    /// The plain case: shown.
    public static let alertShown = DeviceRule("alert-shown", .doc, "UNNotificationInterruptionLevel")
    /// A Time Sensitive alert breaks through a Focus that allows it.
    public static let focusTimeSensitive = DeviceRule(
        "focus-time-sensitive", .doc, "UNNotificationInterruptionLevel; seen, forums/690081")
    /// A communication notification whose sender the Focus allows (`allowedPeople`) breaks through.
    public static let focusCommunication = DeviceRule(
        "focus-communication", .doc, "UNNotificationInterruptionLevel, Implementing communication notifications")
    /// A Focus on, the app not allowed, not breaking through: silently into Notification Center.
    public static let focusNotAllowed = DeviceRule("focus-not-allowed", .doc, "UNNotificationInterruptionLevel")
    /// `filter-criteria` other than the Focus's `filter`.
    public static let focusFilter = DeviceRule("focus-filter", .doc, "*Generating*")
    /// Delivered in the Scheduled Summary.
    public static let scheduledSummary = DeviceRule("scheduled-summary", .doc, "UNNotificationSettings")
    /// A critical alert from an app without the entitlement: downgraded to active (a warning).
    public static let criticalNoEntitlement = DeviceRule("critical-no-entitlement", .open, "unconfirmed")
    /// A Time Sensitive alert from an app without the capability: downgraded to active (a warning).
    public static let timeSensitiveNoEntitlement = DeviceRule("time-sensitive-no-entitlement", .open, "unconfirmed")
    /// The person switched critical alerts off: an ordinary alert (a note).
    public static let criticalNotAllowed = DeviceRule(
        "critical-not-allowed", .seen, "ServiceNow \"Mobile critical alerts\"")
    /// The person switched Time Sensitive off: an ordinary alert (a note).
    public static let timeSensitiveOff = DeviceRule("time-sensitive-off", .seen, "forums/690081")
    /// Sounds off: the sound is left out (a note).
    public static let soundOff = DeviceRule("sound-off", .doc, "UNNotificationSettings")
    /// Badges off: the badge is left out (a note).
    public static let badgeOff = DeviceRule("badge-off", .doc, "UNNotificationSettings")
    /// Locked, previews not shown: the text is hidden on the Lock Screen (a note).
    public static let previewHidden = DeviceRule("preview-hidden", .doc, "UNShowPreviewsSetting")
    /// In the foreground, `willPresent` chose the parts shown (a note).
    public static let foregroundPresented = DeviceRule("foreground-presented", .doc, "willPresent")
    /// The sound is not bundled with the app: the default sound plays (a warning).
    public static let soundNotBundled = DeviceRule("sound-not-bundled", .doc, "*Payload keys*")
    /// The sound is over 30 s or not aiff, wav or caf: the default sound plays (a warning).
    public static let soundUnplayable = DeviceRule("sound-unplayable", .doc, "UNNotificationSound")
    /// The same `apns-collapse-id` replaced a notification on the phone's list (a note).
    public static let collapseReplaced = DeviceRule("collapse-replaced", .doc, "WWDC16-707; seen, phab.comm.dev")
    /// The category is not one the app registers: no action buttons (a warning).
    public static let categoryUnknown = DeviceRule(
        "category-unknown", .seen, "invertase/react-native-notifee#128")
    /// The custom keys do not decode into the types the app declares (`apps[].payload`): its code fails (a warning).
    public static let payloadType = DeviceRule("payload-type", .doc, "Codable defaults (JSONDecoder)")

    // MARK: Service extension (phone.md §4)

    /// `mutable-content` without alert text: the extension does not run.
    public static let nseNoAlert = DeviceRule(
        "nse-no-alert", .doc, "*Modifying content*; seen, element-hq/element-x-ios")
    /// Alerts, Lock Screen and Notification Center all off: the extension does not run (a note).
    public static let nseAlertsOff = DeviceRule("nse-alerts-off", .doc, "*Modifying content*")
    /// The app has no service extension: content as sent (a note).
    public static let nseNone = DeviceRule("nse-none", .doc, "*Modifying content*")
    /// The scenario does not say what the extension does: content as sent (a note).
    public static let nseUndeclared = DeviceRule("nse-undeclared", .doc, "*Modifying content*")
    /// The extension modified the content in time (a note).
    public static let nseModified = DeviceRule("nse-modified", .doc, "*Modifying content*")
    /// Out of time, `serviceExtensionTimeWillExpire()` handed back its best attempt (a note).
    public static let nseExpiredFallback = DeviceRule("nse-expired-fallback", .doc, "*Modifying content*")
    /// The extension called neither handler: the original content is shown (a warning).
    public static let nseExpiredOriginal = DeviceRule("nse-expired-original", .doc, "*Modifying content*")
    /// The extension crashed or went over the memory limit: the original content is shown (a warning).
    public static let nseKilled = DeviceRule("nse-killed", .seen, "forums/807554, nextcloud/talk-ios#1223")
    /// The extension needs data a locked phone protects: the original content is shown (a warning).
    public static let nseLockedData = DeviceRule("nse-locked-data", .seen, "bitwarden/ios#1125")
    /// The extension handed back empty content, with the filtering entitlement: nothing is shown.
    public static let nseSuppressed = DeviceRule("nse-suppressed", .seen, "forums/696068")
    /// The extension handed back empty content without the filtering entitlement: the original is shown (warning).
    public static let nseSuppressNoEntitlement = DeviceRule("nse-suppress-no-entitlement", .seen, "forums/696068")
    /// An App Clip has no service extension: the content is shown as sent (a note).
    public static let nseAppClip = DeviceRule("nse-app-clip", .seen, "OneSignal \"App Clip support\"")

    // MARK: Background (phone.md §4)

    /// The app is in the foreground: its handler is called.
    public static let backgroundForeground = DeviceRule("background-foreground", .doc, "*fetchHandler*")
    /// Eligible and within the budget: launched or woken.
    public static let backgroundLaunched = DeviceRule(
        "background-launched", .doc, "*fetchHandler*, *Background updates*")
    /// The person force-quit the app: not launched until opened or the phone restarts.
    public static let backgroundForceQuit = DeviceRule("background-force-quit", .doc, "*fetchHandler*")
    /// The app lacks the `remote-notification` background mode.
    public static let backgroundModeMissing = DeviceRule("background-mode-missing", .doc, "*Background updates*")
    /// Background App Refresh is off.
    public static let backgroundRefreshOff = DeviceRule("background-refresh-off", .doc, "WWDC20-10063")
    /// Not opened for `inactiveAppAfter`: not launched.
    public static let backgroundAppInactive = DeviceRule(
        "background-app-inactive", .seen, "forums/776933; open (inactiveAppAfter)")
    /// Priority 10 on a background push (APNs answered 200).
    public static let backgroundPriorityTen = DeviceRule(
        "background-priority-10", .seen, "forums/745345; doc, *Sending*; open: WWDC19-707")
    /// More than 3 background pushes to the phone within an hour (a warning).
    public static let backgroundOverRate = DeviceRule(
        "background-over-rate", .doc, "*Background updates*; seen, forums/776933")
    /// Low Power Mode: held.
    public static let backgroundLowPower = DeviceRule("background-low-power", .doc, "WWDC20-10063")
    /// The `backgroundBudget` is spent: held.
    public static let backgroundBudget = DeviceRule(
        "background-budget", .doc, "*Background updates*; seen, forums/776933")
    /// A newer background push was held for the app: the held one is replaced (an event).
    public static let backgroundCoalesced = DeviceRule(
        "background-coalesced", .doc, "*Background updates*; open (heldRelease)")
    /// The held push launched the app: opened, Low Power Mode ended, or the budget has room (an event).
    public static let backgroundHeldLaunched = DeviceRule(
        "background-held-launched", .doc, "*Background updates*; seen, invertase/react-native-notifee#205; "
            + "open (heldRelease)")
    /// The person force-quit the app: its held push is dropped (an event).
    public static let backgroundHeldDiscarded = DeviceRule(
        "background-held-discarded", .doc, "*Background updates*, *fetchHandler*")
    /// `backgroundHandler: timesOut`: no completion in 30 s, the app is killed.
    public static let backgroundHandlerTimeout = DeviceRule("background-handler-timeout", .doc, "*fetchHandler*")

    // MARK: VoIP (phone.md §4)

    /// The app reported the call to CallKit.
    public static let voipReported = DeviceRule("voip-reported", .doc, "*pushRegistry*")
    /// Reported under a Focus, the caller not in `allowedPeople` (a note).
    public static let voipCallSilenced = DeviceRule(
        "voip-call-silenced", .doc, "CXErrorCodeIncomingCallError.filteredByDoNotDisturb")
    /// Not reported, and it had to be: iOS kills the app.
    public static let voipNotReported = DeviceRule("voip-not-reported", .doc, "*pushRegistry*; seen, forums/801446")
    /// Not reported, and it did not have to be (foreground, a call active).
    public static let voipNoReportNeeded = DeviceRule(
        "voip-no-report-needed", .doc, "PKVoIPPushMetadata.mustReport; seen, forums/817976")
    /// Not reported again: iOS may stop delivering VoIP pushes (a warning).
    public static let voipSuspensionRisk = DeviceRule(
        "voip-suspension-risk", .doc, "*pushRegistry*; seen, forums/764376")
    /// `voipFailures` reached `voipSuspendAfter`: not launched.
    public static let voipSuspended = DeviceRule("voip-suspended", .open, "forums/764376; the number is unknown")

    // MARK: Push to Talk, location, complication, widgets and controls, File Provider, MDM (phone.md §4)

    /// The person left the app's Push to Talk channel: the token works only while someone is in it.
    public static let pttNoChannel = DeviceRule("ptt-no-channel", .doc, "Creating a Push to Talk app")
    /// A Push to Talk push to a force-quit app: launched or dropped, by `pttAfterForceQuit`.
    public static let pttForceQuit = DeviceRule("ptt-force-quit", .open, "forums/781909 vs /780822")
    /// `incomingPushResult` returned `.activeRemoteParticipant`: the system activates the audio session.
    public static let pttActiveParticipant = DeviceRule(
        "ptt-active-participant", .doc, "Creating a Push to Talk app")
    /// `incomingPushResult` returned `.leaveChannel`: the app leaves the channel.
    public static let pttLeaveChannel = DeviceRule("ptt-leave-channel", .doc, "Creating a Push to Talk app")
    /// The app lacks the location push entitlement (a real app would not get the token).
    public static let locationNoEntitlement = DeviceRule(
        "location-no-entitlement", .doc, "Creating a location push service extension")
    /// The person did not allow location `always`.
    public static let locationNotAuthorized = DeviceRule(
        "location-not-authorized", .doc, "Creating a location push service extension")
    /// The location push service extension ran and completed.
    public static let locationExtensionRan = DeviceRule(
        "location-extension-ran", .doc, "Creating a location push service extension")
    /// The location push service extension ran out of time and was killed.
    public static let locationExtensionSlow = DeviceRule(
        "location-extension-slow", .doc, "Creating a location push service extension")
    /// The complication is on the watch face: the app gets the push.
    public static let complicationDelivered = DeviceRule("complication-delivered", .doc, "PKPushType.complication")
    /// The complication is not on the active watch face.
    public static let complicationNotOnFace = DeviceRule("complication-not-on-face", .doc, "PKPushType.complication")
    /// More than `complicationPerDay` complication pushes within 24 hours.
    public static let complicationBudget = DeviceRule("complication-budget", .doc, "PKPushType.complication")
    /// A widgets push: the app's timelines reload.
    public static let widgetReload = DeviceRule("widget-reload", .doc, "WidgetKit, Updating widgets with push")
    /// A controls push: each control with a push handler reloads.
    public static let controlsReload = DeviceRule("controls-reload", .doc, "WidgetKit, ControlPushHandler")
    /// More than `widgetPushesPerDay` widget and control pushes within 24 hours.
    public static let widgetBudget = DeviceRule("widget-budget", .open, "WidgetKit (budgeted; no number given)")
    /// A File Provider push: the system signals the enumerator of its container.
    public static let fileproviderSignalled = DeviceRule(
        "fileprovider-signalled", .doc, "Using push notifications to signal changes")
    /// A File Provider push without a `domain` for the app's declared domains.
    public static let fileproviderNoDomain = DeviceRule(
        "fileprovider-no-domain", .seen, "forums/706004; doc, Using push notifications to signal changes")
    /// An MDM push: the device checks in with its MDM server.
    public static let mdmCheckin = DeviceRule("mdm-checkin", .doc, "Sending MDM commands to a device")

    // MARK: Live Activities (live-activities.md §2)

    /// A `start` started an activity.
    public static let activityStarted = DeviceRule("activity-started", .doc, "live-activities.md §2")
    /// An `update` changed the activity.
    public static let activityApplied = DeviceRule("activity-applied", .doc, "live-activities.md §2")
    /// An `end` ended the activity.
    public static let activityEnded = DeviceRule("activity-ended", .doc, "live-activities.md §2")
    /// A timestamp older than the last applied one.
    public static let activityOlderTimestamp = DeviceRule("activity-older-timestamp", .doc, "live-activities.md §2")
    /// A timestamp further behind the clock than `oldTimestampLimit`.
    public static let activityOldTimestamp = DeviceRule("activity-old-timestamp", .open, "live-activities.md §2")
    /// The activity has ended or was dismissed.
    public static let activityAfterEnd = DeviceRule("activity-after-end", .doc, "live-activities.md §2")
    /// The push does not decode: a missing part, a wrong type, an unknown event.
    public static let activityNotDecodable = DeviceRule("activity-not-decodable", .doc, "live-activities.md §1")
    /// A start without `alert` (`startNeedsAlert`).
    public static let activityStartNeedsAlert = DeviceRule(
        "activity-start-needs-alert", .seen, "live-activities.md §2")
    /// An `attributes-type` the app does not declare, or not the push-to-start token's.
    public static let activityUnknownType = DeviceRule("activity-unknown-type", .doc, "live-activities.md §1")
    /// Static and dynamic data over 4 KB.
    public static let activityTooLarge = DeviceRule("activity-too-large", .doc, "live-activities.md §1")
    /// A timestamp too far ahead of the clock.
    public static let activityFutureTimestamp = DeviceRule("activity-future-timestamp", .seen, "live-activities.md §2")
    /// The priority-10 update budget is spent.
    public static let activityUpdateBudget = DeviceRule("activity-update-budget", .seen, "live-activities.md §2")
    /// The push-to-start budget is spent.
    public static let activityStartBudget = DeviceRule("activity-start-budget", .seen, "live-activities.md §2")
    /// A `start` whose `input-push-channel` is no live channel of the app in its environment: nothing starts.
    public static let activityUnknownChannel = DeviceRule("activity-unknown-channel", .doc, "live-activities.md §2")
    /// A broadcast with `event: start`: a channel only updates or ends activities.
    public static let activityBroadcastStart = DeviceRule("activity-broadcast-start", .doc, "live-activities.md §2")

    /// Every rule, in the order above.
    public static let all: [DeviceRule] = [
        .appUninstalled, .notificationsDisabled, .expirationZeroRetry, .storedOffline, .expirationZeroLate,
        .expirationZeroOffline, .storageReplaced, .storageDelivered, .storageExpired, .storedPower,
        .notAuthorized, .ephemeralExpired, .provisional, .passive, .nothingToShow, .badgeOnly,
        .foregroundNotPresented,
        .foregroundListOnly, .alertsOffListOnly, .alertsOff, .criticalAlert, .alertShown, .focusTimeSensitive,
        .focusCommunication, .focusNotAllowed, .focusFilter, .scheduledSummary, .criticalNoEntitlement,
        .timeSensitiveNoEntitlement, .criticalNotAllowed, .timeSensitiveOff, .soundOff, .badgeOff, .previewHidden,
        .foregroundPresented, .soundNotBundled, .soundUnplayable, .collapseReplaced, .categoryUnknown, .payloadType,
        .nseNoAlert, .nseAlertsOff, .nseNone, .nseUndeclared, .nseModified,
        .nseExpiredFallback, .nseExpiredOriginal, .nseKilled, .nseLockedData, .nseSuppressed,
        .nseSuppressNoEntitlement, .nseAppClip,
        .backgroundForeground, .backgroundLaunched, .backgroundForceQuit, .backgroundModeMissing,
        .backgroundRefreshOff, .backgroundAppInactive, .backgroundPriorityTen, .backgroundOverRate, .backgroundLowPower,
        .backgroundBudget,
        .backgroundCoalesced, .backgroundHeldLaunched, .backgroundHeldDiscarded, .backgroundHandlerTimeout,
        .voipReported, .voipCallSilenced, .voipNotReported, .voipNoReportNeeded, .voipSuspensionRisk, .voipSuspended,
        .pttNoChannel, .pttForceQuit, .pttActiveParticipant, .pttLeaveChannel, .locationNoEntitlement,
        .locationNotAuthorized, .locationExtensionRan, .locationExtensionSlow, .complicationDelivered,
        .complicationNotOnFace, .complicationBudget, .widgetReload, .controlsReload, .widgetBudget,
        .fileproviderSignalled, .fileproviderNoDomain, .mdmCheckin,
        .activityStarted, .activityApplied, .activityEnded, .activityOlderTimestamp, .activityOldTimestamp,
        .activityAfterEnd, .activityNotDecodable, .activityStartNeedsAlert, .activityUnknownType, .activityTooLarge,
        .activityFutureTimestamp, .activityUpdateBudget, .activityStartBudget, .activityUnknownChannel,
        .activityBroadcastStart,
    ]
}
