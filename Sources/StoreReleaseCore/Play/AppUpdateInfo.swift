/// Google Play's `AppUpdateInfo`: what Play says about an update for the installed app.
///
/// Decodes from the JSON a backend sends: the constants as integers or names, staleness `null`
/// when unknown. `updatePriority` (0–5, default 0), `clientVersionStalenessDays`,
/// `bytesDownloaded`, `totalBytesToDownload` and `installErrorCode` may be left out and take
/// Play's defaults; the rest must be there.
public struct AppUpdateInfo: Sendable, Hashable {
    /// The app's package name (`com.example.app`).
    public var packageName: String
    /// The `versionCode` of the available or in-progress update; 0 when there is none.
    public var availableVersionCode: Int
    /// Whether an update is available, or one the app started is in progress.
    public var updateAvailability: UpdateAvailability
    /// Where the update's download and install are.
    public var installStatus: InstallStatus
    /// 0–5, set per release through the Play Developer API (`inAppUpdatePriority`).
    public var updatePriority: Int
    /// Days since the Play Store on the device learned of the update; `nil` when unknown.
    public var clientVersionStalenessDays: Int?
    /// Bytes downloaded so far; meaningful only while `DOWNLOADING`.
    public var bytesDownloaded: Int64
    /// The download's size in bytes; 0 when unknown.
    public var totalBytesToDownload: Int64
    /// Why the last download or install failed; `NO_ERROR` otherwise.
    public var installErrorCode: InstallErrorCode
    /// The update types Play would start now.
    public var allowedUpdateTypes: [AppUpdateType]
    /// The update types Play would start once the flow allows asset-pack deletion.
    ///
    /// `isUpdateTypeAllowed(AppUpdateOptions…setAllowAssetPackDeletion(true))`; it includes
    /// ``allowedUpdateTypes`` (Play's fake fills both variants of an allowed type).
    public var allowedUpdateTypesWithAssetPackDeletion: [AppUpdateType]
    /// Why an update type is not allowed, as Play reports it, by type.
    public var failedPreconditions: [AppUpdateType: Set<UpdatePrecondition>]

    /// Makes an update record; the defaults are Play's for a device with no update.
    public init(
        packageName: String, availableVersionCode: Int = 0,
        updateAvailability: UpdateAvailability = .updateNotAvailable, installStatus: InstallStatus = .unknown,
        updatePriority: Int = 0, clientVersionStalenessDays: Int? = nil, bytesDownloaded: Int64 = 0,
        totalBytesToDownload: Int64 = 0, installErrorCode: InstallErrorCode = .noError,
        allowedUpdateTypes: [AppUpdateType] = [], failedPreconditions: [AppUpdateType: Set<UpdatePrecondition>] = [:],
        allowedUpdateTypesWithAssetPackDeletion: [AppUpdateType]? = nil
    ) {
        self.allowedUpdateTypesWithAssetPackDeletion = Self.union(
            allowedUpdateTypes, allowedUpdateTypesWithAssetPackDeletion ?? [])
        self.packageName = packageName
        self.availableVersionCode = availableVersionCode
        self.updateAvailability = updateAvailability
        self.installStatus = installStatus
        self.updatePriority = updatePriority
        self.clientVersionStalenessDays = clientVersionStalenessDays
        self.bytesDownloaded = bytesDownloaded
        self.totalBytesToDownload = totalBytesToDownload
        self.installErrorCode = installErrorCode
        self.allowedUpdateTypes = allowedUpdateTypes
        self.failedPreconditions = failedPreconditions
    }

    /// Whether Play would start an update of this type now (`isUpdateTypeAllowed(int)`).
    public func isUpdateTypeAllowed(_ type: AppUpdateType) -> Bool {
        allowedUpdateTypes.contains(type)
    }

    /// Whether Play would start an update with these options (`isUpdateTypeAllowed(AppUpdateOptions)`).
    ///
    /// With asset-pack deletion allowed, a type Play allows only that way counts too.
    public func isUpdateTypeAllowed(_ options: AppUpdateOptions) -> Bool {
        options.allowAssetPackDeletion
            ? allowedUpdateTypesWithAssetPackDeletion.contains(options.appUpdateType)
            : isUpdateTypeAllowed(options.appUpdateType)
    }

    /// The types of both lists, once each, in `AppUpdateType.allValues` order.
    static func union(_ a: [AppUpdateType], _ b: [AppUpdateType]) -> [AppUpdateType] {
        AppUpdateType.allValues.filter { a.contains($0) || b.contains($0) }
    }

    /// Why the options' type is not allowed, as Play reported it; empty when it did not say.
    public func failedUpdatePreconditions(_ options: AppUpdateOptions) -> Set<UpdatePrecondition> {
        failedPreconditions[options.appUpdateType] ?? []
    }

    /// The available update's `versionCode`, `nil` when there is none.
    public var versionCode: VersionCode? { VersionCode(rawValue: availableVersionCode) }
}

extension AppUpdateInfo: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case packageName, availableVersionCode, updateAvailability, installStatus, updatePriority
        case clientVersionStalenessDays, bytesDownloaded, totalBytesToDownload, installErrorCode
        case allowedUpdateTypes, failedUpdatePreconditions, allowedUpdateTypesWithAssetPackDeletion
    }

    /// Decodes the JSON of the command-line contract, checking every range.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func invalid(_ key: CodingKeys, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message)
        }
        packageName = try c.decode(String.self, forKey: .packageName)
        availableVersionCode = try c.decode(Int.self, forKey: .availableVersionCode, within: 0...VersionCode.maximum)
        updateAvailability = try c.decode(UpdateAvailability.self, forKey: .updateAvailability)
        installStatus = try c.decode(InstallStatus.self, forKey: .installStatus)
        updatePriority = try c.decodeIfPresent(Int.self, forKey: .updatePriority, within: 0...5) ?? 0
        clientVersionStalenessDays = try c.decodeNonNegativeIfPresent(Int.self, forKey: .clientVersionStalenessDays)
        bytesDownloaded = try c.decodeNonNegativeIfPresent(Int64.self, forKey: .bytesDownloaded) ?? 0
        totalBytesToDownload = try c.decodeNonNegativeIfPresent(Int64.self, forKey: .totalBytesToDownload) ?? 0
        installErrorCode = try c.decodeIfPresent(InstallErrorCode.self, forKey: .installErrorCode) ?? .noError
        allowedUpdateTypes = try c.decode([AppUpdateType].self, forKey: .allowedUpdateTypes)
        let failed =
            try c.decodeIfPresent([String: [UpdatePrecondition]].self, forKey: .failedUpdatePreconditions) ?? [:]
        var preconditions: [AppUpdateType: Set<UpdatePrecondition>] = [:]
        for (name, values) in failed {
            guard let type = AppUpdateType(name: name) else {
                throw invalid(
                    .failedUpdatePreconditions, "\(name.debugDescription) is not an update type (flexible or immediate)"
                )
            }
            preconditions[type] = Set(values)
        }
        failedPreconditions = preconditions
        allowedUpdateTypesWithAssetPackDeletion = Self.union(
            allowedUpdateTypes,
            try c.decodeIfPresent([AppUpdateType].self, forKey: .allowedUpdateTypesWithAssetPackDeletion) ?? [])
    }

    /// Encodes the contract's keys, constants by name, staleness `null` when unknown.
    public func encode(to encoder: any Encoder) throws {
        try EveryKeyEncoding.encode(
            self, keys: CodingKeys.allCases.prefix { $0 != .failedUpdatePreconditions }, to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        if allowedUpdateTypesWithAssetPackDeletion != allowedUpdateTypes {
            try c.encode(allowedUpdateTypesWithAssetPackDeletion, forKey: .allowedUpdateTypesWithAssetPackDeletion)
        }
        if !failedPreconditions.isEmpty {
            let byName = Dictionary(
                uniqueKeysWithValues: failedPreconditions.map {
                    ($0.key.jsonName, $0.value.sorted { $0.rawValue < $1.rawValue })
                })
            try c.encode(byName, forKey: .failedUpdatePreconditions)
        }
    }
}
