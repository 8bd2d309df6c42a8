import StoreReleaseCore

/// Any key of a JSON object, for formats that refuse keys they do not know: a misspelt policy
/// rule must be an error, not a rule silently left at its default.
package struct AnyKey: CodingKey {
    package let stringValue: String
    package let intValue: Int? = nil

    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }

    /// Throws `DecodingError.dataCorrupted` naming every key of the object not in `known`,
    /// sorted, and the keys that are.
    package static func rejectUnknownKeys(in decoder: any Decoder, known: [String], of what: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        let knownSet = Set(known)
        let unknown = container.allKeys.map(\.stringValue).filter { !knownSet.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        let names = unknown.map(\.debugDescription).joined(separator: ", ")
        let verb = unknown.count == 1 ? "is not a key of" : "are not keys of"
        throw DecodingError.dataCorruptedError(
            forKey: AnyKey(stringValue: first), in: container,
            debugDescription: "\(names) \(verb) \(what) (its keys: \(known.joined(separator: ", ")))")
    }
}
