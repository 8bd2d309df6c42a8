/// A store's name for a state or a status, kept as the store sent it.
///
/// Each conforming type is a struct with a `static let` per name the store documents, so a name
/// the store adds later decodes as itself and code that compares with today's names keeps
/// working. A value encodes and decodes as one JSON string (`RawRepresentable`'s `Codable`) and
/// prints as the name.
public protocol OpenStringValue: RawRepresentable<String>, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Wraps a name as the store sent it.
    init(rawValue: String)
}

extension OpenStringValue {
    /// The store's name.
    public var description: String { rawValue }
}
