extension ActivityRegistry {
    /// Whether `token`, hex digits in any case, is an update token this registry issued; `false` for a text that is
    /// no device token. (The request path asks with the validator's `DeviceToken`.)
    public func isUpdateToken(_ token: String) -> Bool {
        DeviceToken(token).map(isUpdateToken) ?? false
    }

    /// The activity `token`, hex digits in any case, updates, if this registry issued it.
    public func activity(forToken token: String) -> LiveActivity? {
        DeviceToken(token).flatMap { activity(forToken: $0) }
    }

    /// Runs `body` on the activity `token`, hex digits in any case, updates, under the lock, and stores what it
    /// leaves; `nil` (and `body` not run) when the token is not one this registry issued.
    public func withActivity<Result>(forToken token: String, _ body: (inout LiveActivity) -> Result) -> Result? {
        DeviceToken(token).flatMap { withActivity(forToken: $0, body) }
    }

    /// Forgets the activity `token`, hex digits in any case, updates, and the token; nothing when it is not an
    /// update token.
    public func removeActivity(updatedBy token: String) {
        if let token = DeviceToken(token) { removeActivity(updatedBy: token) }
    }
}
