/// The most significant component that differs between two versions.
///
/// Policies use it: "force an update when the major or minor version changes", "show what's new
/// once per minor version". Levels are ordered by significance, so
/// `change >= .minor` means "the major or the minor component changed". The raw value is the
/// case's name, as a policy's JSON writes it (`"beyondPatch"`).
public enum VersionChange: String, Sendable, Hashable, CaseIterable, Codable {
    /// Only the SemVer pre-release identifiers differ (`1.0.0-beta` → `1.0.0`).
    case preRelease
    /// A component after the third differs (`7.13.88.4021` → `7.13.88.4022`).
    case beyondPatch
    /// The third component differs (`1.2.3` → `1.2.4`).
    case patch
    /// The second component differs (`1.2.3` → `1.3`).
    case minor
    /// The first component differs (`1.9.9` → `2.0`).
    case major
}

extension VersionChange: Comparable {
    /// Orders levels by significance: `.preRelease < .beyondPatch < .patch < .minor < .major`.
    public static func < (lhs: VersionChange, rhs: VersionChange) -> Bool {
        lhs.significance < rhs.significance
    }

    private var significance: Int {
        switch self {
        case .preRelease: 0
        case .beyondPatch: 1
        case .patch: 2
        case .minor: 3
        case .major: 4
        }
    }
}

extension Version {
    /// The most significant component that differs between this version and another.
    ///
    /// Missing components count as zero, so `1.2` and `1.2.0` have no change, and `1.2` → `1.2.1`
    /// is a ``VersionChange/patch`` change. The direction does not matter.
    ///
    /// - Parameter other: The version to compare with.
    /// - Returns: The level of the first difference, or `nil` when the versions are equal.
    public func change(from other: Version) -> VersionChange? {
        let count = Swift.max(significantCoreCount, other.significantCoreCount)
        for index in 0..<count where coreComponent(at: index) != other.coreComponent(at: index) {
            switch index {
            case 0: return .major
            case 1: return .minor
            case 2: return .patch
            default: return .beyondPatch
            }
        }
        return self == other ? nil : .preRelease
    }
}
