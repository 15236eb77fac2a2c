/// "Did you mean" for names a person typed: field names, reason names, environments, flag values.
///
/// One rule everywhere: the known name that is closest by edit distance, ignoring case, when it is at most two
/// edits away or starts with what was typed (three characters or more: `prod` → `production`).
public enum NameSuggestion {
    /// The known name `input` most likely meant, or `nil` when none is close or `input` is itself known.
    public static func closest(to input: String, among known: [String]) -> String? {
        guard !known.contains(input) else { return nil }
        let typed = input.lowercased()
        if typed.count >= 3, let extended = known.first(where: { $0.lowercased().hasPrefix(typed) }) {
            return extended
        }
        return closestByEditDistance(to: input, among: known)
    }

    /// The known name at most two edits from `input`, ignoring case (no prefix rule), or `nil` when none is, or
    /// `input` is itself known: for names where a short or extended new name is legitimate (custom reasons).
    public static func closestByEditDistance(to input: String, among known: [String]) -> String? {
        guard !known.contains(input) else { return nil }
        let typed = input.lowercased()
        let scored = known.map { (name: $0, distance: editDistance(typed, $0.lowercased())) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2 else { return nil }
        return best.name
    }

    /// ` (did you mean 'x'?)` for the closest known name, or the empty string.
    public static func hint(for input: String, among known: [String]) -> String {
        closest(to: input, among: known).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance: the fewest one-character insertions, deletions and substitutions from `a` to `b`.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
