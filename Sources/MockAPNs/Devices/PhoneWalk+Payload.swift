extension PhoneWalk {
    /// `payload-type` (phone.md §3, §5): the app declares the custom keys its code reads from pushes of this type,
    /// and they do not decode with default `JSONDecoder` rules. A warning on every push it reaches, whatever the
    /// phone then does: iOS still shows or launches it; the app's code fails.
    mutating func checkPayloadTypes(_ types: AppPayloadTypes) {
        guard let problem = types.problem(in: facts.payload, pushType: pushType.name) else { return }
        modifier(
            .payloadType, warning: true,
            "\(problem): \(bundleID)'s code cannot decode the custom keys of this \(pushType.name) push (default "
                + "JSONDecoder rules); iOS still delivers it")
    }
}
