import MockAPNs

extension MockAPNsControlClient {
    /// The records matching `query` as they are recorded. Renamed with the other journal reads (structure
    /// review §4.4); kept for one release.
    @available(*, deprecated, renamed: "streamRecords(_:)")
    public func streamRequests(_ query: JournalQuery) -> AsyncThrowingStream<JournalRecord, any Error> {
        streamRecords(query)
    }
}
