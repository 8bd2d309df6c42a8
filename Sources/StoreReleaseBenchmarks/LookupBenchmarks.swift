import Foundation
import StoreReleaseKit

/// Decoding the WeChat lookup payload (seed 000), against `JSONSerialization` and a plain
/// synthesized `Codable` model of every field, in the same run.
enum LookupBenchmarks {
    /// Seed 000's model, every field optional and synthesized: what people write by hand.
    struct PlainLookup: Decodable {
        struct Result: Decodable {
            let advisories, appletvScreenshotUrls, features, genreIds, genres, ipadScreenshotUrls: [String]?
            let languageCodesISO2A, screenshotUrls, supportedDevices: [String]?
            let artistId, primaryGenreId, trackId, userRatingCount, userRatingCountForCurrentVersion: Int?
            let artistName, artistViewUrl, artworkUrl100, artworkUrl512, artworkUrl60, bundleId: String?
            let contentAdvisoryRating, currency, currentVersionReleaseDate, description, fileSizeBytes: String?
            let formattedPrice, kind, minimumOsVersion, primaryGenreName, releaseDate, releaseNotes: String?
            let sellerName, sellerUrl, trackCensoredName, trackContentRating, trackName, trackViewUrl: String?
            let version, wrapperType: String?
            let averageUserRating, averageUserRatingForCurrentVersion, price: Double?
            let isGameCenterEnabled, isVppDeviceBasedLicensingEnabled: Bool?
        }
        let resultCount: Int?
        let results: [Result]?
    }

    static let payloadPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/appstore/wechat-cn.json")

    static func run(iterations: Int, repetitions: Int) throws -> [Row] {
        let payload = try Data(contentsOf: payloadPath)
        let megabytes = Double(payload.count * iterations) / 1_048_576
        func throughput(_ body: () throws -> Void) rethrows -> Double {
            let nanoseconds = try Measure.median(repetitions: repetitions) {
                for _ in 0..<iterations { try body() }
            }
            return megabytes / (nanoseconds / 1e9)
        }
        let serialization = try throughput { blackHole(try JSONSerialization.jsonObject(with: payload)) }
        let plain = try throughput { blackHole(try JSONDecoder().decode(PlainLookup.self, from: payload)) }
        let ours = try throughput { blackHole(try JSONDecoder().decode(AppStoreLookupResponse.self, from: payload)) }
        let releases = try throughput {
            let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: payload)
            blackHole(response.results.map { StoreRelease($0, country: .unitedStates) })
        }
        // Throughput: higher is better, so the ratio is taken the other way round.
        func row(_ name: String, _ value: Double, against baseline: Double?, _ note: String) -> Row {
            Row(name: name, value: value, unit: "MB/s", baseline: baseline.map { 1 / $0 }, note: note, inverse: true)
        }
        return [
            row("decode WeChat payload: JSONSerialization", serialization, against: nil, "baseline: untyped"),
            row("decode: plain synthesized Codable model", plain, against: serialization, "vs JSONSerialization"),
            row("decode: AppStoreLookupResponse", ours, against: serialization, "vs JSONSerialization"),
            row("decode + StoreRelease", releases, against: plain, "vs the plain Codable model"),
        ]
    }
}
