import Foundation
import StoreReleaseCore

/// A release of an app in one store, whichever store it came from.
///
/// The App Store's lookup results, Google Play's update records and a self-hosted manifest all
/// become this one value, so the code that decides what to do about a release is written once.
/// Values a store does not have are `nil` (the App Store has no `versionCode`; Play's in-app
/// updates API has no version name).
public struct StoreRelease: Sendable, Hashable {
    /// Where the release came from.
    public var store: Store
    /// The store's id for the app: the App Store id (`414478124`) or the Play package name.
    public var appID: String?
    /// The bundle identifier or application id (`com.tencent.xin`).
    public var bundleID: String?
    /// The app's name as the store shows it.
    public var name: String?
    /// The version people see (`8.0.2`).
    public var version: Version?
    /// Google Play's `versionCode`.
    public var versionCode: VersionCode?
    /// The storefront the release was looked up in (`cn`).
    public var country: StorefrontCountry?
    /// When this version was released.
    public var releaseDate: Date?
    /// What's new in this version.
    public var releaseNotes: String?
    /// The oldest OS version the release runs on.
    public var minimumOSVersion: Version?
    /// Where to send the user to update.
    public var storeURL: URL?
    /// Play's in-app update priority, 0–5.
    public var updatePriority: Int?
    /// Days since Play learned of the update on this device; `nil` when unknown.
    public var clientVersionStalenessDays: Int?
    /// The in-app update types Play allows for this update.
    public var allowedUpdateTypes: [AppUpdateType]?

    /// Makes a release; every property but the store is optional.
    public init(
        store: Store, appID: String? = nil, bundleID: String? = nil, name: String? = nil, version: Version? = nil,
        versionCode: VersionCode? = nil, country: StorefrontCountry? = nil, releaseDate: Date? = nil,
        releaseNotes: String? = nil, minimumOSVersion: Version? = nil, storeURL: URL? = nil,
        updatePriority: Int? = nil, clientVersionStalenessDays: Int? = nil, allowedUpdateTypes: [AppUpdateType]? = nil
    ) {
        self.store = store
        self.appID = appID
        self.bundleID = bundleID
        self.name = name
        self.version = version
        self.versionCode = versionCode
        self.country = country
        self.releaseDate = releaseDate
        self.releaseNotes = releaseNotes
        self.minimumOSVersion = minimumOSVersion
        self.storeURL = storeURL
        self.updatePriority = updatePriority
        self.clientVersionStalenessDays = clientVersionStalenessDays
        self.allowedUpdateTypes = allowedUpdateTypes
    }
}

extension StoreRelease: Codable, EveryKeyEncodable {
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case store, appID, bundleID, name, version, versionCode, country, releaseDate, releaseNotes
        case minimumOSVersion, storeURL, updatePriority, clientVersionStalenessDays, allowedUpdateTypes
    }

    /// Decodes the JSON that ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        store = try c.decode(Store.self, forKey: .store)
        appID = try c.decodeIfPresent(String.self, forKey: .appID)
        bundleID = try c.decodeIfPresent(String.self, forKey: .bundleID)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        version = try c.decodeIfPresent(Version.self, forKey: .version)
        versionCode = try c.decodeIfPresent(VersionCode.self, forKey: .versionCode)
        if let code = try c.decodeIfPresent(String.self, forKey: .country) {
            do throws(StorefrontCountryError) {
                country = try StorefrontCountry(code)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .country, in: c, debugDescription: error.description)
            }
        } else {
            country = nil
        }
        releaseDate = try c.decodeISO8601IfPresent(forKey: .releaseDate)
        releaseNotes = try c.decodeIfPresent(String.self, forKey: .releaseNotes)
        minimumOSVersion = try c.decodeIfPresent(Version.self, forKey: .minimumOSVersion)
        storeURL = try c.decodeIfPresent(URL.self, forKey: .storeURL)
        updatePriority = try c.decodeIfPresent(Int.self, forKey: .updatePriority)
        clientVersionStalenessDays = try c.decodeIfPresent(Int.self, forKey: .clientVersionStalenessDays)
        allowedUpdateTypes = try c.decodeIfPresent([AppUpdateType].self, forKey: .allowedUpdateTypes)
    }

}
