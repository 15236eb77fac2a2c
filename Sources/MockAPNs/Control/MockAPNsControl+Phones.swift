/// The phone operations by name, for tests: `try await server.setPhone("alice", online: false)`.
extension MockAPNsControl {
    /// Takes the phone `id` offline or back online.
    @discardableResult
    public func setPhone(_ id: String, online: Bool) async throws -> PhoneSnapshot {
        try await updatePhone(id: id, .object([("online", .bool(online))]))
    }

    /// Puts the app `bundleID` on the phone `id` in `state`: `foreground` opens it, `forceQuit` swipes it away.
    @discardableResult
    public func setApp(_ bundleID: String, on id: String, state: AppOnPhone.RunState) async throws -> PhoneSnapshot {
        try await updatePhoneApp(id: id, bundleID: bundleID, .object([("state", .string(state.rawValue))]))
    }
}
