extension PhoneWalk {
    /// The words of a walk that are made from a count or a name, kept per connection for the next walk that makes
    /// them from the same one: a background push to each of a thousand phones says "is woken to handle the push"
    /// and, past three in the hour, "4 background pushes reached this phone within 1h", push after push (what
    /// formatting them each time cost: bench/README.md, "eighth session").
    ///
    /// The wording stays where the walk says it: `make` formats a text when its key is not the last one. A text must
    /// depend on its key alone: one that also named the phone or the push would be handed, stale, to the next walk
    /// with the same key (`PhoneDefaultMemoTests` "the connection's kept words" compares them with fresh walks).
    /// A class, owned by the connection's `ValidationMemo` (one thread); a walk without one (a push delivered from
    /// storage) gets a fresh set.
    final class Texts {
        /// The over-rate warning, rule prefix included, by the count it names.
        private var overRate: ValidationMemo.Entry<Int, String>?
        /// The launch reason of an app that was running, by its bundle id.
        private var woken: ValidationMemo.Entry<String, String>?
        /// The launch reason of an app that was not running, by its bundle id.
        private var launched: ValidationMemo.Entry<String, String>?

        init() {}

        /// The over-rate warning for `count` background pushes in the hour.
        func overRate(count: Int, make: () -> String) -> String { Self.text(&overRate, count, make) }

        /// The launch reason of `bundleID`, which was running (`woken`) or not.
        func launchReason(bundleID: String, wasRunning: Bool, make: () -> String) -> String {
            wasRunning ? Self.text(&woken, bundleID, make) : Self.text(&launched, bundleID, make)
        }

        private static func text<Key: Equatable>(
            _ kept: inout ValidationMemo.Entry<Key, String>?, _ key: Key, _ make: () -> String
        ) -> String {
            if let kept, kept.key == key { return kept.value }
            let text = make()
            kept = ValidationMemo.Entry(key, text)
            return text
        }
    }
}
