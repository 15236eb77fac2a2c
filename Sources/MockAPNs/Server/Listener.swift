/// The listeners a server opens on its TLS certificate, and what each serves.
public enum Listener {
    /// What a listener serves: the router in the decision stage reads it from the connection
    /// (`MockAPNsEngine.decide`).
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The APNs provider API: `/3/device/<token>` and `/4/broadcasts/apps/<bundle>` (the APNs port, and the
        /// cleartext debugging port).
        case device
        /// Broadcast channel management: `/1/apps/<bundle>/channels` and `/all-channels` (Apple's
        /// `api-manage-broadcast` host; the channels port).
        case channels
    }
}
