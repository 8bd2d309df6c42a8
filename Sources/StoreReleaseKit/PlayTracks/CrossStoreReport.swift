import Foundation

/// Are both stores on the same version, where is each rollout, and may a forced update go out?
///
/// Built from App Store releases for one or more storefronts and a Play track.
public struct CrossStoreReport: Sendable, Hashable, Encodable {
    /// One App Store storefront's live release.
    public struct Storefront: Sendable, Hashable, Encodable {
        /// The storefront's country code (`cn`).
        public let country: String
        /// The version the storefront serves.
        public let version: String
        /// When that version was released there (ISO 8601), if the lookup said.
        public let releaseDate: String?
    }

    /// Play's release in staged rollout.
    public struct Rollout: Sendable, Hashable, Encodable {
        /// The release's version name, if the track names it.
        public let version: String?
        /// The release's highest `versionCode`.
        public let versionCode: Int?
        /// The fraction of users it reaches (0 < f < 1).
        public let userFraction: Double?
        /// Its in-app update priority, 0–5.
        public let inAppUpdatePriority: Int?
    }

    /// Whether a forced update to ``version`` is safe now, and if not, why.
    public struct ForceUpdate: Sendable, Hashable, Encodable {
        /// The version a forced update would require: the newest either store has.
        public let version: String?
        /// Whether every storefront and Play's full rollout serve it, for the release delay.
        public let safe: Bool
        /// Why it is not safe yet, one sentence a reason; empty when safe.
        public let reasons: [String]
    }

    /// Every storefront and Play's fully rolled-out release are on the same version.
    public let agree: Bool
    /// Storefronts behind the newest App Store version (the CDN lag), by country code.
    public let laggingStorefronts: [String]
    /// Each storefront's live release, in the order given.
    public let storefronts: [Storefront]
    /// The newest version any storefront serves.
    public let appStoreVersion: String?
    /// The Play track reported on.
    public let playTrack: String
    /// Play's fully rolled-out (`completed`) release.
    public let playVersion: String?
    /// The `versionCode` of Play's fully rolled-out release.
    public let playVersionCode: Int?
    /// Play's release in staged rollout, if one is.
    public let playRollout: Rollout?
    /// `appStore` or `googlePlay`, whichever is ahead; `nil` when they agree or cannot be compared.
    public let ahead: String?
    /// The most significant component in which the store ahead leads (`minor`).
    public let aheadBy: String?
    /// Whether a forced update is safe now.
    public let forceUpdate: ForceUpdate

    /// Builds the report.
    ///
    /// - Parameters:
    ///   - appStore: One release per storefront (their ``StoreRelease/country`` set).
    ///   - play: The Play track (usually `production`).
    ///   - releaseDelayHours: How old a release must be before forcing it is safe.
    ///   - now: The time to judge the delay against.
    public init(appStore: [StoreRelease], play: PlayTrack, releaseDelayHours: Double = 24, now: Date = Date()) {
        let live = appStore.compactMap { release in release.version.map { (release, $0) } }
        storefronts = live.map { release, version in
            Storefront(
                country: release.country?.code ?? "us", version: version.description,
                releaseDate: release.releaseDate.map(ISO8601Timestamp.string(from:)))
        }
        let newestApple = live.map(\.1).max()
        appStoreVersion = newestApple?.description
        laggingStorefronts = live.filter { entry in newestApple.map { entry.1 < $0 } ?? false }
            .map { $0.0.country?.code ?? "us" }.sorted()
        playTrack = play.track
        let playLive = play.liveRelease
        let playVersion = playLive?.version
        self.playVersion = playLive?.name
        playVersionCode = playLive?.highestVersionCode?.rawValue
        playRollout = play.rollout.map {
            Rollout(
                version: $0.name, versionCode: $0.highestVersionCode?.rawValue, userFraction: $0.userFraction,
                inAppUpdatePriority: $0.inAppUpdatePriority)
        }
        let versions = live.map(\.1)
        agree = !versions.isEmpty && playVersion != nil && versions.allSatisfy { $0 == playVersion }
        if let apple = newestApple, let google = playVersion, apple != google {
            ahead = apple > google ? "appStore" : "googlePlay"
            aheadBy = apple.change(from: google).map { "\($0)" }
        } else {
            ahead = nil
            aheadBy = nil
        }
        // Forcing the newest version is safe when every storefront and Play serve it, and it has
        // been out for the delay in every storefront that says when it was released.
        let target = [newestApple, playVersion].compactMap { $0 }.max()
        var reasons: [String] = []
        if let target {
            let missing = live.filter { $0.1 < target }.map { $0.0.country?.code ?? "us" }.sorted()
            if !missing.isEmpty { reasons.append("not live in storefront \(missing.joined(separator: ", ")) yet") }
            if playVersion.map({ $0 < target }) ?? true {
                reasons.append("not fully rolled out on Play (\(play.track))")
            }
            let young = live.filter { release, version in
                version == target
                    && (release.releaseDate.map { now < $0.addingTimeInterval(releaseDelayHours * 3600) } ?? false)
            }
            if !young.isEmpty {
                reasons.append(
                    "released less than \(releaseDelayHours) hours ago in \(young.map { $0.0.country?.code ?? "us" }.sorted().joined(separator: ", "))"
                )
            }
        } else {
            reasons.append("no version is known")
        }
        forceUpdate = ForceUpdate(version: target?.description, safe: reasons.isEmpty, reasons: reasons)
    }

    /// The report as a table for people.
    public var text: String {
        var lines = [agree ? "The stores agree." : "The stores do not agree.", ""]
        lines.append("App Store")
        for storefront in storefronts {
            let parts = [
                storefront.country, storefront.version, storefront.releaseDate ?? "",
                laggingStorefronts.contains(storefront.country) ? "(behind)" : "",
            ]
            lines.append("  " + parts.filter { !$0.isEmpty }.joined(separator: "  "))
        }
        lines.append("Google Play (\(playTrack))")
        lines.append("  live     \(playVersion ?? "none")\(playVersionCode.map { " (versionCode \($0))" } ?? "")")
        if let rollout = playRollout {
            let fraction = rollout.userFraction.map { " to \(Int(($0 * 100).rounded()))% of users" } ?? ""
            let priority = rollout.inAppUpdatePriority.map { ", priority \($0)" } ?? ""
            lines.append(
                "  rollout  \(rollout.version ?? "?")\(rollout.versionCode.map { " (versionCode \($0))" } ?? "")\(fraction)\(priority)"
            )
        }
        if let ahead, let aheadBy {
            lines.append("\(ahead == "appStore" ? "The App Store" : "Google Play") is ahead (\(aheadBy)).")
        }
        let force = forceUpdate.version.map { "Forcing \($0): " } ?? "Forcing: "
        lines.append(
            force + (forceUpdate.safe ? "safe now." : "not yet: " + forceUpdate.reasons.joined(separator: "; ") + "."))
        return lines.joined(separator: "\n") + "\n"
    }
}
