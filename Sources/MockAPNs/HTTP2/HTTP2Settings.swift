/// The SETTINGS a server session announces.
///
/// The defaults are what APNs has sent since 2021 (apns-reference.md §2, seen), with a connection window big
/// enough for 1000 streams of 4 KiB (pitfalls.md: the default 64 KiB stalls at 1000 streams).
struct HTTP2Settings {
    var headerTableSize: UInt32 = 4096
    var maxConcurrentStreams: UInt32 = 1000
    var initialWindowSize: UInt32 = 65_535
    var maxFrameSize: UInt32 = 16_384
    var maxHeaderListSize: UInt32 = 8000
    var connectionWindowSize: Int32 = 16 * 1024 * 1024
}
