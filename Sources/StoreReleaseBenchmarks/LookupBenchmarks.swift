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

    /// The experiment: only the fields a ``StoreRelease`` is made from, everything else skipped.
    struct FieldsWeKeep: Decodable {
        struct Result: Decodable {
            let trackId: Int
            let bundleId, trackName, version: String
            let currentVersionReleaseDate, releaseNotes, minimumOsVersion, trackViewUrl: String?
        }
        let results: [Result]
    }

    static let payloadPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/appstore/wechat-cn.json")

    static func run(iterations: Int, repetitions: Int) throws -> [Row] {
        let payload = try Data(contentsOf: payloadPath)
        let megabytes = Double(payload.count * iterations) / 1_048_576
        func repeated(_ body: @escaping () throws -> Void) -> () throws -> Void {
            { for _ in 0..<iterations { try body() } }
        }
        let samples = try Measure.rounds(
            repetitions: repetitions,
            [
                repeated { blackHole(try JSONDecoder().decode(PlainLookup.self, from: payload)) },
                repeated { blackHole(try JSONSerialization.jsonObject(with: payload)) },
                repeated { blackHole(try JSONDecoder().decode(AppStoreLookupResponse.self, from: payload)) },
                repeated { blackHole(try JSONDecoder().decode(FieldsWeKeep.self, from: payload)) },
                repeated {
                    let response = try JSONDecoder().decode(AppStoreLookupResponse.self, from: payload)
                    blackHole(response.results.map { StoreRelease($0, country: .unitedStates) })
                },
            ]
        )
        // Throughput in MB/s: higher is better.
        .map { $0.map { megabytes / ($0 / 1e9) } }
        return Row.againstFirst(
            samples, unit: "MB/s", higherIsBetter: true,
            [
                ("decode WeChat: plain synthesized Codable", "baseline: JSONDecoder, every field optional"),
                ("decode: JSONSerialization", "vs the plain model: untyped, no checks"),
                ("decode: AppStoreLookupResponse", "vs the plain model: validated, versions parsed"),
                ("decode: only the fields StoreRelease uses", "vs the plain model: the experiment, not kept"),
                ("decode + StoreRelease", "vs the plain model"),
            ])
    }
}
