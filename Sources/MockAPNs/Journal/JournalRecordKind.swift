extension JournalRecord {
    /// What a journal record is of, written as the record's `kind` member: an open set of names, like push types.
    ///
    /// The server records device pushes (`push`), phone state changes (`phone`) and what happened later to an
    /// earlier push (`device-event`). The other names are the kinds the next features add (broadcast sends,
    /// channel operations); a reader keeps a record of a
    /// kind it does not read as received (`JournalRecord.rawJSON`) and shows it instead of failing.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        /// The name, as the record's `kind` member writes it.
        public var name: String

        /// The kind called `name`.
        public init(_ name: String) {
            self.name = name
        }

        /// The name.
        public var description: String { name }

        /// A request to `/3/device/<token>` and what was answered: every record the server writes today.
        public static let devicePush = Kind("push")
        /// A send to a broadcast channel (`/4/broadcasts/…`; not recorded yet).
        public static let broadcast = Kind("broadcast")
        /// A channel operation: create, read, delete (not recorded yet).
        public static let channel = Kind("channel")
        /// Something that happened later to an earlier push: delivered from storage, replaced, expired (issue 23;
    /// `JournalRecord(event:receivedAt:)`).
        public static let deviceEvent = Kind("device-event")
        /// What an accepted broadcast did on the simulated phones once it reached every subscribed activity (issue
        /// 24; `FanOutTally`): appended after the broadcast's record, which it points at (`broadcast`).
        public static let fanOut = Kind("fan-out")
        /// A change of a simulated phone's state through the control API: which phone (and app), the fields
        /// before and after (issue 23).
        public static let phone = Kind("phone")
    }
}
