/// What a ``PlayConstant`` stores: Play's integer value and the constant's name.
///
/// Only the module makes one, so each Play constant type has exactly its own constants.
public struct PlayConstantValue: Sendable, Hashable {
    /// Play's integer value (`11`).
    public let rawValue: Int
    /// Play's constant name (`DOWNLOADED`).
    public let name: String

    /// A constant's value and name, as Play documents them.
    package init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }
}
