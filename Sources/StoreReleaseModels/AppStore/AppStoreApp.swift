import StoreReleaseCore

/// An app as the lookup API finds it: by App Store id or by bundle id.
public enum AppStoreApp: Sendable, Hashable, CustomStringConvertible {
    /// The App Store id (the number in `…/id414478124`).
    case id(Int)
    /// The bundle identifier (`com.tencent.xin`).
    case bundleID(String)

    /// `App Store id 414478124` or `bundle id com.tencent.xin`.
    public var description: String {
        switch self {
        case .id(let id): return "App Store id \(id)"
        case .bundleID(let bundleID): return "bundle id \(bundleID)"
        }
    }
}
