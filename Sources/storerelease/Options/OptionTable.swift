/// What a command's table is built from: one flag (an ``Option``, a ``Switch``) or a group's
/// flags (an ``OptionTable``), in the order help lists them.
protocol OptionDeclarations: Sendable {
    /// The flags, in the order help lists them.
    var specs: [OptionSpec] { get }
}

/// The flags of a group as a command takes them, or the whole table a command parses: built from
/// the groups' tables and the command's own options, never from flags listed again by hand.
///
/// The model is swift-argument-parser's `@OptionGroup`: a group (``SourceOptions``,
/// ``HealthSourceOptions``, …) declares its flags and the table a command takes of them (its
/// `table`), reads and checks their values in its initializer, which opens no file and builds no
/// client, and opens files and builds clients only afterwards, from the values it read.
struct OptionTable: OptionDeclarations {
    let specs: [OptionSpec]

    init(_ parts: [any OptionDeclarations]) {
        specs = parts.flatMap(\.specs)
    }

    /// The parts whose key is in `keys`, in the order of `parts`: the flags of a group a command
    /// takes (``AppStoreOptions/table(_:id:)``, ``PlayOptions/table(_:storedTrack:trackLast:)``).
    init<Key: Hashable>(_ keys: Set<Key>, of parts: [(Key, any OptionDeclarations)]) {
        self.init(parts.filter { keys.contains($0.0) }.map(\.1))
    }

    /// A table of no flags: a group a command does not take.
    static let none = OptionTable([])
}
