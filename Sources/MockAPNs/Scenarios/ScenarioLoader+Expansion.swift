extension ScenarioLoader {
    /// How much YAML the loader turns into values after aliases are expanded: at most `maximumNodes` nodes and
    /// `maximumTextBytes` bytes of scalar text per document.
    ///
    /// YAML aliases (`*name`) repeat a node without repeating its text, so nine levels of nine aliases each are a
    /// few hundred bytes that expand to hundreds of millions of values (an "alias bomb"). The loader walks the
    /// expanded tree where it builds free-form values (`match.payload`), and charges each node it visits here, so
    /// that such a document stops with an error at the node where the budget ran out.
    final class ExpansionBudget {
        /// The most nodes a document may expand to: far beyond any real scenario.
        static let maximumNodes = 100_000
        /// The most scalar text a document may expand to, in bytes.
        static let maximumTextBytes = 1 << 20

        private var nodes = 0
        private var textBytes = 0

        /// Charges one node of `field` (and its text, for a scalar); throws once a limit is passed.
        func charge(_ field: Field, textBytes bytes: Int = 0) throws(ScenarioError) {
            nodes += 1
            textBytes += bytes
            guard nodes <= Self.maximumNodes, textBytes <= Self.maximumTextBytes else {
                throw field.error(
                    "the document expands to more than \(Self.maximumNodes) values or "
                        + "\(ByteSizeText.text(Self.maximumTextBytes)) of text (YAML aliases repeat what they "
                        + "name): write the values out, or use fewer aliases")
            }
        }
    }
}
