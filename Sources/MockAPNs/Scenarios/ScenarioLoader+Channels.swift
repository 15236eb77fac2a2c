extension ScenarioLoader.Reader {
    /// The fields of one `channels:` entry.
    static let channelFields = ["id", "app", "storagePolicy", "environment"]

    /// The `channels` list: broadcast channels live from the start and after every reset.
    func channels(_ field: Field) throws(ScenarioError) -> [ChannelDeclaration] {
        var declarations: [ChannelDeclaration] = []
        var firstLine = [String: Int]()
        for element in try field.list() {
            let fields = try element.mapping(known: Self.channelFields)
            let idField = try fields.required("id")
            let id = try idField.string()
            guard BroadcastChannel.isWellFormedID(id) else {
                throw idField.error(
                    "a channel id is base64, as APNs issues them (such as c2NvcmVzLTE=), got "
                        + idField.shortDescription)
            }
            if let line = firstLine[id] {
                throw idField.error("duplicate channel id \(id); it is already given at line \(line)")
            }
            firstLine[id] = idField.node.mark?.line ?? 0
            var declaration = ChannelDeclaration(id: id, bundleID: try bundleID(try fields.required("app")))
            if let policy = fields["storagePolicy"] {
                let number = try policy.integer(in: 0...1)
                declaration.storagePolicy = BroadcastChannel.StoragePolicy(rawValue: number) ?? .noStorage
            }
            if let environment = fields["environment"] {
                declaration.environment = try self.environment(environment)
            }
            declarations.append(declaration)
        }
        return declarations
    }
}
