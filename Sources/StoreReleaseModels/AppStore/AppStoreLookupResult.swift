import Foundation
import StoreReleaseCore

/// One app in an iTunes lookup response (`https://itunes.apple.com/lookup`).
///
/// Every field the API returns for iOS and Mac software is here.
///
/// Decoding is tolerant where the API is loose: unknown keys are ignored, fields that some
/// platforms omit (`supportedDevices`, `features`, `ipadScreenshotUrls` on the Mac) are
/// optional, and numbers may be integers or decimals. It is strict where a mistake would
/// mislead: `version` and `minimumOsVersion` must be versions, the dates must be ISO 8601, and
/// `trackId`, `bundleId`, `trackName` and `version` must be there. Each error names the field
/// and the value.
public struct AppStoreLookupResult: Sendable, Hashable {
    /// The App Store id (`414478124`), the number in `…/id414478124`.
    public let trackId: Int
    /// The bundle identifier (`com.tencent.xin`).
    public let bundleId: String
    /// The app's name in the storefront's language (`微信`).
    public let trackName: String
    /// The live version (`8.0.2`), parsed with the App Store scheme.
    public let version: Version
    /// The app's name with profanity masked, as the storefront lists it.
    public let trackCensoredName: String?
    /// The App Store page (`https://apps.apple.com/cn/app/…/id414478124?uo=4`), as sent.
    public let trackViewUrl: String?
    /// What's new in the live version, as the developer wrote it.
    public let releaseNotes: String?
    /// When the live version was released.
    public let currentVersionReleaseDate: Date?
    /// When the app was first released.
    public let releaseDate: Date?
    /// The oldest OS the live version runs on (`11.0`).
    public let minimumOsVersion: Version?
    /// The app's description (the API's `description` key).
    public let appDescription: String?
    /// The developer's App Store id.
    public let artistId: Int?
    /// The developer's name.
    public let artistName: String?
    /// The developer's App Store page.
    public let artistViewUrl: String?
    /// The seller's name, which can differ from the developer's.
    public let sellerName: String?
    /// The seller's website.
    public let sellerUrl: String?
    /// The icon, 60 pixels square.
    public let artworkUrl60: String?
    /// The icon, 100 pixels square.
    public let artworkUrl100: String?
    /// The icon, 512 pixels square.
    public let artworkUrl512: String?
    /// iPhone screenshots.
    public let screenshotUrls: [String]?
    /// iPad screenshots.
    public let ipadScreenshotUrls: [String]?
    /// Apple TV screenshots.
    public let appletvScreenshotUrls: [String]?
    /// The device models the live version runs on (`iPhone15-iPhone15`).
    public let supportedDevices: [String]?
    /// Store features such as `iosUniversal`.
    public let features: [String]?
    /// Content advisories, in the storefront's language.
    public let advisories: [String]?
    /// The languages the app is localized into, as upper-case ISO 639-1 codes.
    public let languageCodesISO2A: [String]?
    /// The download size in bytes; the API sends it as a string (`"477456384"`).
    public let fileSizeBytes: String?
    /// The price in the storefront's currency; 0 for free apps.
    public let price: Double?
    /// The price as the storefront shows it (`Free`, `¥6.00`).
    public let formattedPrice: String?
    /// The storefront's ISO 4217 currency code (`CNY`).
    public let currency: String?
    /// The average rating over all versions, 0 to 5.
    public let averageUserRating: Double?
    /// The average rating of the live version, 0 to 5.
    public let averageUserRatingForCurrentVersion: Double?
    /// How many ratings all versions have.
    public let userRatingCount: Int?
    /// How many ratings the live version has.
    public let userRatingCountForCurrentVersion: Int?
    /// The age rating (`12+`).
    public let contentAdvisoryRating: String?
    /// The age rating as the storefront's rating system writes it.
    public let trackContentRating: String?
    /// Genre ids, as strings (`["6005", "6007"]`).
    public let genreIds: [String]?
    /// Genre names, in the storefront's language.
    public let genres: [String]?
    /// The primary genre's id (`6005`).
    public let primaryGenreId: Int?
    /// The primary genre's name (`Social Networking`).
    public let primaryGenreName: String?
    /// Whether the app uses Game Center.
    public let isGameCenterEnabled: Bool?
    /// Whether volume purchase licenses can be assigned to devices.
    public let isVppDeviceBasedLicensingEnabled: Bool?
    /// `software` for iOS apps, `mac-software` for Mac apps.
    public let kind: String?
    /// The result's wrapper: `software` for apps.
    public let wrapperType: String?
}

extension AppStoreLookupResult: Decodable {
    enum CodingKeys: String, CodingKey {
        case trackId, bundleId, trackName, version, trackCensoredName, trackViewUrl, releaseNotes
        case currentVersionReleaseDate, releaseDate, minimumOsVersion
        case appDescription = "description"
        case artistId, artistName, artistViewUrl, sellerName, sellerUrl
        case artworkUrl60, artworkUrl100, artworkUrl512
        case screenshotUrls, ipadScreenshotUrls, appletvScreenshotUrls, supportedDevices, features, advisories
        case languageCodesISO2A, fileSizeBytes, price, formattedPrice, currency
        case averageUserRating, averageUserRatingForCurrentVersion, userRatingCount, userRatingCountForCurrentVersion
        case contentAdvisoryRating, trackContentRating, genreIds, genres, primaryGenreId, primaryGenreName
        case isGameCenterEnabled, isVppDeviceBasedLicensingEnabled, kind, wrapperType
    }

    /// Decodes one result; see the type's discussion for what is strict and what is tolerant.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trackId = try c.decode(Int.self, forKey: .trackId)
        bundleId = try c.decode(String.self, forKey: .bundleId)
        trackName = try c.decode(String.self, forKey: .trackName)
        version = try c.decodeVersion(forKey: .version)
        trackCensoredName = try c.decodeIfPresent(String.self, forKey: .trackCensoredName)
        trackViewUrl = try c.decodeIfPresent(String.self, forKey: .trackViewUrl)
        releaseNotes = try c.decodeIfPresent(String.self, forKey: .releaseNotes)
        currentVersionReleaseDate = try c.decodeISO8601IfPresent(forKey: .currentVersionReleaseDate)
        releaseDate = try c.decodeISO8601IfPresent(forKey: .releaseDate)
        minimumOsVersion = try c.decodeVersionIfPresent(forKey: .minimumOsVersion)
        appDescription = try c.decodeIfPresent(String.self, forKey: .appDescription)
        artistId = try c.decodeIfPresent(Int.self, forKey: .artistId)
        artistName = try c.decodeIfPresent(String.self, forKey: .artistName)
        artistViewUrl = try c.decodeIfPresent(String.self, forKey: .artistViewUrl)
        sellerName = try c.decodeIfPresent(String.self, forKey: .sellerName)
        sellerUrl = try c.decodeIfPresent(String.self, forKey: .sellerUrl)
        artworkUrl60 = try c.decodeIfPresent(String.self, forKey: .artworkUrl60)
        artworkUrl100 = try c.decodeIfPresent(String.self, forKey: .artworkUrl100)
        artworkUrl512 = try c.decodeIfPresent(String.self, forKey: .artworkUrl512)
        screenshotUrls = try c.decodeIfPresent([String].self, forKey: .screenshotUrls)
        ipadScreenshotUrls = try c.decodeIfPresent([String].self, forKey: .ipadScreenshotUrls)
        appletvScreenshotUrls = try c.decodeIfPresent([String].self, forKey: .appletvScreenshotUrls)
        supportedDevices = try c.decodeIfPresent([String].self, forKey: .supportedDevices)
        features = try c.decodeIfPresent([String].self, forKey: .features)
        advisories = try c.decodeIfPresent([String].self, forKey: .advisories)
        languageCodesISO2A = try c.decodeIfPresent([String].self, forKey: .languageCodesISO2A)
        fileSizeBytes = try c.decodeIfPresent(String.self, forKey: .fileSizeBytes)
        price = try c.decodeIfPresent(Double.self, forKey: .price)
        formattedPrice = try c.decodeIfPresent(String.self, forKey: .formattedPrice)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        averageUserRating = try c.decodeIfPresent(Double.self, forKey: .averageUserRating)
        averageUserRatingForCurrentVersion = try c.decodeIfPresent(
            Double.self, forKey: .averageUserRatingForCurrentVersion)
        userRatingCount = try c.decodeIfPresent(Int.self, forKey: .userRatingCount)
        userRatingCountForCurrentVersion = try c.decodeIfPresent(Int.self, forKey: .userRatingCountForCurrentVersion)
        contentAdvisoryRating = try c.decodeIfPresent(String.self, forKey: .contentAdvisoryRating)
        trackContentRating = try c.decodeIfPresent(String.self, forKey: .trackContentRating)
        genreIds = try c.decodeIfPresent([String].self, forKey: .genreIds)
        genres = try c.decodeIfPresent([String].self, forKey: .genres)
        primaryGenreId = try c.decodeIfPresent(Int.self, forKey: .primaryGenreId)
        primaryGenreName = try c.decodeIfPresent(String.self, forKey: .primaryGenreName)
        isGameCenterEnabled = try c.decodeIfPresent(Bool.self, forKey: .isGameCenterEnabled)
        isVppDeviceBasedLicensingEnabled = try c.decodeIfPresent(Bool.self, forKey: .isVppDeviceBasedLicensingEnabled)
        kind = try c.decodeIfPresent(String.self, forKey: .kind)
        wrapperType = try c.decodeIfPresent(String.self, forKey: .wrapperType)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an App Store version string, with an error that names the field and the value.
    package func decodeVersion(forKey key: Key) throws -> Version {
        try parseVersion(decode(String.self, forKey: key), forKey: key)
    }

    /// Decodes an App Store version string if the key is there and not null.
    package func decodeVersionIfPresent(forKey key: Key) throws -> Version? {
        try decodeIfPresent(String.self, forKey: key).map { text in try parseVersion(text, forKey: key) }
    }

    private func parseVersion(_ text: String, forKey key: Key) throws -> Version {
        do throws(VersionError) {
            return try Version(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) is not a version: \(error)")
        }
    }

    /// Decodes an ISO 8601 timestamp (`2021-02-02T08:15:22Z`), whatever the decoder's date strategy.
    package func decodeISO8601(forKey key: Key) throws -> Date {
        try parseISO8601(decode(String.self, forKey: key), forKey: key)
    }

    /// Decodes an ISO 8601 timestamp (`2021-02-02T08:15:22Z`) if the key is there and not null.
    package func decodeISO8601IfPresent(forKey key: Key) throws -> Date? {
        try decodeIfPresent(String.self, forKey: key).map { text in try parseISO8601(text, forKey: key) }
    }

    private func parseISO8601(_ text: String, forKey key: Key) throws -> Date {
        guard let date = ISO8601Timestamp.date(from: text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self,
                debugDescription: "\(key.stringValue) is not an ISO 8601 date: \(text.debugDescription)")
        }
        return date
    }
}
