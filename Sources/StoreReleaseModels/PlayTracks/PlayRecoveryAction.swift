import Foundation
import StoreReleaseCore

/// A Play App Recovery action: a remote in-app update prompt for chosen versionCodes.
///
/// What `GET …/appRecoveries?versionCode=N` lists and `POST …/appRecoveries` creates, read into
/// the shape the report writes: `{"appRecoveryId", "status", "versionCodes", "regions",
/// "recoveredDevices", "totalDevices"}`. `regions` is `null` when the action targets all users
/// (or a criterion other than regions).
public struct PlayRecoveryAction: Sendable, Hashable {
    /// An action's status, as Play names it; values Play adds later are kept.
    public struct Status: OpenStringValue {
        /// Play's name (`RECOVERY_STATUS_ACTIVE`).
        public let rawValue: String

        /// Wraps a status's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Created, not yet deployed: nobody is prompted.
        public static let draft = Self(rawValue: "RECOVERY_STATUS_DRAFT")
        /// Deployed: the targeted users are prompted to update.
        public static let active = Self(rawValue: "RECOVERY_STATUS_ACTIVE")
        /// Canceled: it cannot be resumed.
        public static let canceled = Self(rawValue: "RECOVERY_STATUS_CANCELED")
        /// Play is still preparing it.
        public static let generationInProgress = Self(rawValue: "RECOVERY_STATUS_GENERATION_IN_PROGRESS")
        /// Play could not prepare it.
        public static let generationFailed = Self(rawValue: "RECOVERY_STATUS_GENERATION_FAILED")
        /// The API's unset value, and what an action without a status has.
        public static let unspecified = Self(rawValue: "RECOVERY_STATUS_UNSPECIFIED")
    }

    /// Play's id of the action (an int64, as a string).
    public let appRecoveryID: String
    /// Where the action is.
    public let status: Status
    /// The versionCodes it targets.
    public let versionCodes: [VersionCode]
    /// The regions it targets (ISO 3166 alpha-2), or `nil` for all users.
    public let regions: [String]?
    /// How many devices have updated since it started, when Play says.
    public let recoveredDevices: Int?
    /// How many devices it targets, when Play says.
    public let totalDevices: Int?

    /// Makes an action.
    public init(
        appRecoveryID: String, status: Status, versionCodes: [VersionCode], regions: [String]?,
        recoveredDevices: Int?, totalDevices: Int?
    ) {
        self.appRecoveryID = appRecoveryID
        self.status = status
        self.versionCodes = versionCodes
        self.regions = regions
        self.recoveredDevices = recoveredDevices
        self.totalDevices = totalDevices
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case appRecoveryID = "appRecoveryId"
        case status, versionCodes, regions, recoveredDevices, totalDevices
    }
}

extension PlayRecoveryAction: Codable {
    /// Decodes the report's shape; absent optional keys are `nil`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        appRecoveryID = try c.decode(String.self, forKey: .appRecoveryID)
        status = try c.decode(Status.self, forKey: .status)
        versionCodes = try c.decode([VersionCode].self, forKey: .versionCodes)
        regions = try c.decodeIfPresent([String].self, forKey: .regions)
        recoveredDevices = try c.decodeIfPresent(Int.self, forKey: .recoveredDevices)
        totalDevices = try c.decodeIfPresent(Int.self, forKey: .totalDevices)
    }

    /// Encodes every key, `null` for what Play did not say; versionCodes as numbers.
    ///
    /// The id's key is spelled `appRecoveryId`, not as the property is, so it is written here;
    /// the other keys are their properties' names.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appRecoveryID, forKey: .appRecoveryID)
        try EveryKeyEncoding.encode(self, keys: CodingKeys.allCases.filter { $0 != .appRecoveryID }, to: encoder)
    }
}
