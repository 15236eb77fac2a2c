extension ActivityRegistry {
    /// An update token this registry issued (or took over from a declared device), as the APNs checks see it.
    struct IssuedToken: Sendable {
        /// The push-to-start token whose start issued it; `nil` for a local start or a declared activity.
        var pushToStartToken: String?
    }

    /// `token` as an update token this registry issued (a rotation's new token included, an ended activity's too);
    /// `nil` when it is not one. One lock and two lookups; nothing is allocated.
    func issuedToken(_ token: DeviceToken) -> IssuedToken? {
        store.withLockedValue { store in
            guard let id = store.tokens[token] else { return nil }
            return IssuedToken(pushToStartToken: store.activities[id]?.pushToStartToken)
        }
    }
}
