import Foundation
import Testing

/// The bundled payloads (`Docs/Examples/payloads`) and watch histories (`Docs/Watch/*.jsonl`) are
/// one app's one release history, as the guides quote them side by side: a versionCode names one version in every file, and each Play
/// track is one Play allows (at most one `completed` release and at most one `inProgress` or
/// `halted` one, drafts aside: Play answers "Too many completed releases specified" otherwise,
/// fastlane #15772; Tests/Support/play_api.py plays the same rule).
@Suite struct BundledPayloadsTests {
    static let folder = BuiltProducts.packageRoot.appendingPathComponent("Docs/Examples/payloads")

    /// One Play release as a payload writes it: where, its versionCode, version and status.
    struct PlayRelease: CustomStringConvertible {
        let file: String
        let track: String
        let versionCode: Int
        let version: String
        let status: String?
        var description: String { "\(file) (\(track)): \(versionCode) = \(version), \(status ?? "no status")" }
    }

    /// The version in a release name as Play Console writes it: `8.0.2`, `80 (8.0.2)` or `8.0.2 (80)`.
    static func version(inName name: String) -> String? {
        let words = name.split(whereSeparator: { " ()".contains($0) }).map(String.init)
        return words.first { $0.contains(".") }
    }

    /// Every versionCode → version pair a payload states, with its track and status where it has one.
    static func releases(in file: String, _ json: Any) -> [PlayRelease] {
        guard let object = json as? [String: Any] else { return [] }
        var found: [PlayRelease] = []
        // A track in the API's shape (play-production.json).
        if let track = object["track"] as? String, let releases = object["releases"] as? [[String: Any]] {
            for release in releases {
                let codes = (release["versionCodes"] as? [String] ?? []).compactMap { Int($0) }
                guard let name = release["name"] as? String, let version = version(inName: name) else { continue }
                for code in codes {
                    found.append(
                        PlayRelease(
                            file: file, track: track, versionCode: code, version: version,
                            status: release["status"] as? String))
                }
            }
        }
        // A snapshot or a watch state: googlePlay's releases with version and versionCode.
        if let play = object["googlePlay"] as? [String: Any], let releases = play["releases"] as? [[String: Any]] {
            let track = play["track"] as? String ?? "?"
            for release in releases {
                guard let code = release["versionCode"] as? Int, let version = release["version"] as? String else {
                    continue
                }
                found.append(
                    PlayRelease(
                        file: file, track: track, versionCode: code, version: version,
                        status: release["status"] as? String))
            }
        }
        // A health file: its days' versionCode and version (Play's days carry both).
        if let days = object["days"] as? [[String: Any]] {
            for day in days {
                guard let code = day["versionCode"] as? Int, let version = day["version"] as? String else { continue }
                found.append(PlayRelease(file: file, track: "health", versionCode: code, version: version, status: nil))
            }
        }
        return found
    }

    /// The bundled watch histories (`Docs/Watch/*.jsonl`), which the guides draw beside the payloads.
    static let histories = BuiltProducts.packageRoot.appendingPathComponent("Docs/Watch")

    static func allReleases() throws -> [PlayRelease] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
        #expect(names.count >= 8, "the payloads are there: \(names)")
        let payloads = try names.sorted().flatMap { name in
            releases(
                in: name,
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(name))))
        }
        // Each line of a history is a round, its track one Play allowed then.
        let lines = try FileManager.default.contentsOfDirectory(atPath: histories.path)
            .filter { $0.hasSuffix(".jsonl") }.sorted()
            .flatMap { name in
                try String(contentsOf: histories.appendingPathComponent(name), encoding: .utf8)
                    .split(separator: "\n").enumerated().map { (file: "\(name):\($0.offset + 1)", line: $0.element) }
            }
        #expect(lines.count > 100, "the histories are there")
        return try payloads
            + lines.flatMap { file, line in
                releases(in: file, try JSONSerialization.jsonObject(with: Data(line.utf8)))
            }
    }

    @Test func aVersionCodeNamesOneVersionInEveryPayload() throws {
        let releases = try Self.allReleases()
        #expect(
            Set(releases.map { $0.file.prefix { $0 != ":" } }).count >= 6,
            "the Play track, both snapshots, the watch state, Play's health, a history")
        for (code, stated) in Dictionary(grouping: releases, by: \.versionCode) {
            #expect(
                Set(stated.map(\.version)).count == 1,
                "versionCode \(code) names more than one version: \(stated.map(\.description))")
        }
        // Newer versionCodes carry newer versions (Play takes only a higher versionCode).
        let versions = Dictionary(releases.map { ($0.versionCode, $0.version) }) { first, _ in first }
        let byCode = versions.sorted { $0.key < $1.key }
        for (older, newer) in zip(byCode, byCode.dropFirst()) {
            let a = older.value.split(separator: ".").compactMap { Int($0) }
            let b = newer.value.split(separator: ".").compactMap { Int($0) }
            #expect(
                a.lexicographicallyPrecedes(b),
                "versionCode \(older.key) is \(older.value), \(newer.key) is \(newer.value)")
        }
    }

    @Test func everyPlayTrackIsOnePlayAllows() throws {
        let releases = try Self.allReleases().filter { $0.status != nil }
        for (place, track) in Dictionary(grouping: releases, by: { "\($0.file) (\($0.track))" }) {
            let completed = track.filter { $0.status == "completed" }
            let staged = track.filter { $0.status == "inProgress" || $0.status == "halted" }
            #expect(completed.count <= 1, "\(place): more than one completed release: \(completed)")
            #expect(staged.count <= 1, "\(place): more than one release in progress or halted: \(staged)")
        }
    }

    /// The App Store side tells one story too: every version the App Store health file counts
    /// users of is one the bundled lookups or snapshots show a storefront serving (the version
    /// before 8.0.10 is 8.0.2 there, so its health is compared with 8.0.2's).
    @Test func theAppStoreHealthCountsVersionsTheStorefrontsServe() throws {
        var served: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.folder.path) where name.hasSuffix(".json")
        {
            let json = try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.folder.appendingPathComponent(name)))
            let object = json as? [String: Any]
            for result in object?["results"] as? [[String: Any]] ?? [] {
                if let version = result["version"] as? String { served.insert(version) }
            }
            let storefronts = (object?["appStore"] as? [String: Any])?["storefronts"] as? [String: [String: Any]]
            for storefront in storefronts?.values.map({ $0 }) ?? [] {
                if let version = storefront["version"] as? String { served.insert(version) }
            }
        }
        let health =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.folder.appendingPathComponent("health-appstore.json"))) as? [String: Any]
        let counted = Set((health?["days"] as? [[String: Any]] ?? []).compactMap { $0["version"] as? String })
        #expect(
            !counted.isEmpty && counted.isSubset(of: served), "counted \(counted.sorted()), served \(served.sorted())")
    }
}
