/// Why a string is not a version (or a number is not a Play `versionCode`).
///
/// The ``description`` names the input and says what is wrong and where, for example
/// `"1..2": empty component at offset 2`. Offsets count characters from 0.
public struct VersionError: Error, Sendable, Hashable {
    /// What is wrong with the input.
    public enum Reason: Sendable, Hashable {
        /// The input is the empty string.
        case empty
        /// Two separators in a row, or a separator at the start or end.
        case emptyComponent(offset: Int)
        /// An empty SemVer pre-release or build identifier (`1.0.0-`, `1.0.0-a..b`).
        case emptyIdentifier(offset: Int)
        /// A character the grammar does not allow at that place.
        case unexpectedCharacter(Character, offset: Int)
        /// A SemVer numeric component or numeric pre-release identifier that starts with `0`.
        case leadingZero(offset: Int)
        /// A SemVer version whose core does not have exactly three components.
        case wrongComponentCount(found: Int)
        /// A Play `versionCode` outside `1...2100000000`.
        case versionCodeOutOfRange
    }

    /// The text that failed to parse, exactly as given.
    public let input: String
    /// What is wrong with it.
    public let reason: Reason
    /// The scheme it was parsed with (`nil` for a `versionCode`).
    public let scheme: VersionScheme?

    init(input: String, reason: Reason, scheme: VersionScheme?) {
        self.input = input
        self.reason = reason
        self.scheme = scheme
    }

    /// Makes the error for a failure found at a UTF-8 offset, translating it to a character offset.
    init(input: String, scheme: VersionScheme, failure: VersionParser.Failure) {
        let utf8 = input.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: min(failure.utf8Offset, utf8.count))
        let offset = input.distance(from: input.startIndex, to: index)
        let reason: Reason
        switch failure.kind {
        case .empty: reason = .empty
        case .emptyComponent: reason = .emptyComponent(offset: offset)
        case .emptyIdentifier: reason = .emptyIdentifier(offset: offset)
        case .unexpectedCharacter:
            reason =
                index < input.endIndex
                ? .unexpectedCharacter(input[index], offset: offset) : .emptyComponent(offset: offset)
        case .leadingZero: reason = .leadingZero(offset: offset)
        case .wrongComponentCount(let found): reason = .wrongComponentCount(found: found)
        }
        self.init(input: input, reason: reason, scheme: scheme)
    }
}

extension VersionError: CustomStringConvertible {
    /// The input, quoted, then what is wrong with it: `"1..2": empty component at offset 2`.
    public var description: String {
        "\(input.debugDescription): \(problem)"
    }

    /// What is wrong, without the input (which may be long): `empty component at offset 2`.
    public var problem: String {
        switch reason {
        case .empty:
            return "empty version"
        case .emptyComponent(let offset):
            return "empty component at offset \(offset)"
        case .emptyIdentifier(let offset):
            return "empty identifier at offset \(offset)"
        case .unexpectedCharacter(let character, let offset):
            let found = "unexpected character \(String(character).debugDescription) at offset \(offset)"
            switch scheme?.representation {
            case .semver?:
                return found
                    + " (SemVer allows digits and '.' in the core, then '-' pre-release and '+' build identifiers of [0-9A-Za-z-])"
            case .appStore?:
                return found + " (an App Store version is digits separated by '.')"
            case nil:
                return found + " (a Play versionCode is a whole number from 1 to \(VersionCode.maximum))"
            }
        case .leadingZero(let offset):
            return "leading zero at offset \(offset) (SemVer numbers have none)"
        case .wrongComponentCount(let found):
            return "SemVer needs exactly 3 core components (major.minor.patch), found \(found)"
        case .versionCodeOutOfRange:
            return "a Play versionCode is a whole number from 1 to \(VersionCode.maximum)"
        }
    }
}
