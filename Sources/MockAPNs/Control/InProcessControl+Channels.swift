/// The broadcast channel operations in-process (issue 24): what the channels are and what they took.
extension InProcessControl {
    /// Every live broadcast channel, oldest first, at the mock's clock.
    public func channels() async throws -> [ChannelSnapshot] {
        let now = engine.clock.now()
        return engine.channels.all().map { ChannelSnapshot($0, now: now, registry: engine.activities) }
    }

    /// The live broadcast channel `id`, or `nil`.
    public func channel(id: String) async throws -> ChannelSnapshot? {
        engine.channels.entry(id).map { ChannelSnapshot($0, now: engine.clock.now(), registry: engine.activities) }
    }

    /// The 404 for a channel id no live channel has.
    static func unknownChannel(_ id: String) -> MockAPNsControlError {
        .notFound(
            "no channel '\(Excerpt.of(id))': it was never created, or was deleted; "
                + "list the live ones with GET /v1/channels")
    }
}
