/// An app version, parsed once and compared correctly.
///
/// ```swift
/// let installed = try Version(parsing: "8.0.2")
/// let store = try Version(parsing: "8.0.10")
/// print(installed < store)  // true: 10 > 2 as numbers, whatever string comparison says
/// ```
///
/// Equality and order ignore what does not change a version's meaning: trailing zero components
/// (`1.2 == 1.2.0`), leading zeros in App Store versions (`01.2 == 1.2`) and SemVer build
/// metadata. The text is kept exactly as given for display (``description``).
public struct Version: Sendable {
    /// The canonical form equality, order and hashing use.
    ///
    /// Canonical means unique: two versions are equal exactly when their storages are equal.
    /// Trailing zero components are dropped; a version without pre-release identifiers whose
    /// core has at most four components, each below 2³², is always `packed`.
    @usableFromInline
    enum Storage: Sendable, Hashable {
        /// Components 0 and 1 in `high`, 2 and 3 in `low`, 32 bits each.
        case packed(high: UInt64, low: UInt64)
        /// Everything else: long cores, large numbers, pre-releases.
        case general(GeneralStorage)
    }

    /// The text as it was parsed.
    let text: String
    /// The grammar the text was parsed with.
    public let scheme: VersionScheme
    @usableFromInline
    let storage: Storage

    /// Parses a version.
    ///
    /// - Parameters:
    ///   - text: The version as written (`"8.0.10"`, `"2.0.0-beta.1+7"`). Nothing is trimmed: a
    ///     space or a newline is an error.
    ///   - scheme: The grammar to apply; ``VersionScheme/appStore`` by default.
    /// - Throws: ``VersionError`` naming the input, what is wrong, and where.
    /// - Complexity: O(*n*) in the length of `text`; no allocation for the common App Store form
    ///   of up to four components below 2³².
    public init(parsing text: String, scheme: VersionScheme = .appStore) throws(VersionError) {
        var text = text
        let result: Result<Storage, VersionParser.Failure> = text.withUTF8 { bytes in
            do throws(VersionParser.Failure) {
                return .success(try VersionParser.storage(of: bytes, scheme: scheme))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let storage):
            self.init(text: text, scheme: scheme, storage: storage)
        case .failure(let failure):
            throw VersionError(input: text, scheme: scheme, failure: failure)
        }
    }

    init(text: String, scheme: VersionScheme, storage: Storage) {
        self.text = text
        self.scheme = scheme
        self.storage = storage
    }

    /// Whether this is a SemVer pre-release (`1.0.0-rc.1`), which sorts below its release.
    public var isPreRelease: Bool {
        switch storage {
        case .packed: false
        case .general(let general): !general.preRelease.isEmpty
        }
    }

    /// The number of core components that matter: trailing zeros are not counted (`1.2.0` has 2).
    var significantCoreCount: Int {
        switch storage {
        case .packed(let high, let low):
            if low & 0xFFFF_FFFF != 0 { return 4 }
            if low != 0 { return 3 }
            if high & 0xFFFF_FFFF != 0 { return 2 }
            return high != 0 ? 1 : 0
        case .general(let general):
            return general.core.count
        }
    }

    /// The core component at `index`, zero past the end.
    func coreComponent(at index: Int) -> VersionNumber {
        switch storage {
        case .packed(let high, let low):
            switch index {
            case 0: return .small(high >> 32)
            case 1: return .small(high & 0xFFFF_FFFF)
            case 2: return .small(low >> 32)
            case 3: return .small(low & 0xFFFF_FFFF)
            default: return .zero
            }
        case .general(let general):
            return index < general.core.count ? general.core[index] : .zero
        }
    }

    /// The pre-release identifiers (empty for a release).
    var preRelease: [PreReleaseIdentifier] {
        switch storage {
        case .packed: []
        case .general(let general): general.preRelease
        }
    }
}

/// The storage of versions that do not fit the packed form; immutable, so safely shared.
@usableFromInline
final class GeneralStorage: Sendable, Hashable {
    /// Core components without trailing zeros.
    let core: [VersionNumber]
    let preRelease: [PreReleaseIdentifier]

    init(core: [VersionNumber], preRelease: [PreReleaseIdentifier]) {
        self.core = core
        self.preRelease = preRelease
    }

    @usableFromInline
    static func == (lhs: GeneralStorage, rhs: GeneralStorage) -> Bool {
        lhs === rhs || (lhs.core == rhs.core && lhs.preRelease == rhs.preRelease)
    }

    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(core)
        hasher.combine(preRelease)
    }
}

extension Version.Storage {
    /// The canonical storage of parsed parts.
    init(_ parts: VersionParser.Parts) {
        var core = parts.core
        while let last = core.last, last.isZero { core.removeLast() }
        if parts.preRelease.isEmpty, core.count <= 4 {
            var words: [UInt64] = [0, 0, 0, 0]
            var fits = true
            for (index, component) in core.enumerated() {
                guard case .small(let value) = component, value <= UInt64(UInt32.max) else {
                    fits = false
                    break
                }
                words[index] = value
            }
            if fits {
                self = .packed(high: words[0] << 32 | words[1], low: words[2] << 32 | words[3])
                return
            }
        }
        self = .general(GeneralStorage(core: core, preRelease: parts.preRelease))
    }
}
