/// The version of mock-apns: what `mock-apns --version` prints and `GET /v1/info` answers. The file `VERSION`
/// holds the same (`scripts/package` checks that they agree).
public enum MockAPNsVersion {
    /// `0.1.0`.
    public static let current = "0.1.0"
}
