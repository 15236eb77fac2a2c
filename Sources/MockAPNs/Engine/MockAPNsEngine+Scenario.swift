extension MockAPNsEngine {
    /// Puts `scenario` in force: its world and scripted rules (every rule's counters start over), the app's
    /// activity types and the phone's settings, where the app uploads new update tokens, and the simulated phone
    /// as it describes it (every activity forgotten, those its `live-activity` devices with an `attributesType`
    /// declare started at the clock's time; every phone back to its declared state, the others forgotten; the
    /// broadcast channels the run created cleared, those it declares live).
    ///
    /// The one place a scenario becomes the engine's state: a server start, a reset and `PUT /v1/scenario` call it.
    /// The journal and the clock are not the scenario's: a reset and a load clear the journal themselves.
    public func apply(_ scenario: Scenario) {
        let loadedAt = clock.now()
        updateWorld { world in
            world = scenario.world
            // The apps' `lastOpened` counts from here until the person opens them (phone.md §2).
            world.phone.loadedAt = loadedAt
        }
        rules.replaceRules(scenario.rules)
        setActivityConfig(types: scenario.activityTypes, settings: scenario.liveActivity)
        setTokenUpload(scenario.tokenUpload)
        activities.removeAll()
        activities.startDeclared(scenario.world.devices.values, now: clock.now())
        phones.reset(declared: scenario.phones)
        let now = clock.now()
        channels.reset(
            declared: scenario.channels.map { $0.channel(serverEnvironment: scenario.world.environment, now: now) })
    }
}
