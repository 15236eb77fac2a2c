extension MockAPNsEngine {
    /// Puts decided records in the journal, in order, under one lock, and gives the Live Activity history entries
    /// of their pushes the sequence numbers just given: the last step of every decided request, whether it came on
    /// a connection (`APNsConnectionHandler.deliver`) or was replayed through the control API. Leaves `records`
    /// empty, with its capacity.
    ///
    /// - Returns: the sequence number of the last record (0 when there was none).
    @discardableResult
    @inline(__always)
    func record(_ records: inout [JournalRecord]) -> UInt64 {
        // Accepted broadcasts: each fans out once its record is numbered, after the append (issue 24).
        var fanOuts: [BroadcastFanOut] = []
        for record in records { if let fanOut = record.fanOut { fanOuts.append(fanOut) } }
        let (last, numbered) = journal.append(contentsOf: &records)
        // Live Activity pushes only: their history entries get their sequence numbers (one more lock).
        if !numbered.isEmpty { activities.number(numbered) }
        for fanOut in fanOuts { start(fanOut) }
        return last
    }
}
