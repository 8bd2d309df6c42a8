import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// When forcing an update to a version is safe: the rules ``CrossStoreReport`` and the manifest
/// generator share.
///
/// Forcing locks out every user who cannot get the version yet, so each rule that holds is a
/// reason to wait: a storefront asked that does not serve it, a Play track that has not completed
/// a release of it (in progress, limited to some countries, halted, or named without a version),
/// an App Store phased release under way, an app removed from sale, or a live version the lookup
/// does not show yet, and a release younger than the release delay.
enum ForceGate {
    /// What the gate judges: each storefront's live release, the Play track as a snapshot records
    /// it, App Store Connect's status.
    ///
    /// Made alike from what the stores answered (``CrossStoreReport``, a manifest) and from a
    /// snapshot (``ReleaseSnapshot/forceUpdate(releaseDelayHours:)``), so both say the same.
    struct Input: Sendable {
        /// Each storefront's release, as read (a lookup without a country is the United States').
        var storefronts: [(country: StorefrontCountry, release: ReleaseSnapshot.Storefront)]
        /// The Play track, if Play is judged.
        var play: ReleaseSnapshot.GooglePlay?
        /// App Store Connect's status, if asked.
        var appStoreConnect: AppStoreConnectStatus?

        /// The input of the storefronts' releases (none: the App Store is not judged) and a Play track read.
        init(appStore: [StoreRelease], play: PlayTrack?, appStoreConnect: AppStoreConnectStatus? = nil) {
            storefronts = appStore.map { release in
                (
                    release.country ?? .unitedStates,
                    ReleaseSnapshot.Storefront(version: release.version, releaseDate: release.releaseDate)
                )
            }
            self.play = play.map { ReleaseSnapshot.GooglePlay($0) }
            self.appStoreConnect = appStoreConnect
        }

        /// The input a snapshot records: its storefronts in code order, its track, its status.
        init(_ snapshot: ReleaseSnapshot) {
            storefronts = (snapshot.appStore?.storefronts ?? [:]).sorted { $0.key.code < $1.key.code }.map {
                ($0.key, $0.value)
            }
            play = snapshot.googlePlay
            appStoreConnect = snapshot.appStoreConnect
        }

        /// The version a forced update would require: the newest of the storefronts' versions and
        /// of Play's fully rolled-out release, `nil` when neither is known.
        var target: Version? {
            (storefronts.compactMap(\.release.version) + [play?.liveRelease?.version].compactMap { $0 }).max()
        }
    }

    /// Whether forcing is safe by `input`, and if not, why.
    ///
    /// - Parameters:
    ///   - input: The storefronts, the Play track and App Store Connect's status.
    ///   - missing: The storefronts that should have answered and did not, by code.
    ///   - health: Why health makes forcing wait, one sentence a store.
    ///   - releaseDelayHours: How old the release serving the target must be.
    ///   - now: The time to judge the delay against.
    /// - Returns: The version forcing would require, safe when no reason holds: the missing
    ///   storefronts' first, then the gate's, then health's.
    static func forceUpdate(
        _ input: Input, missing: [String] = [], health: [String], releaseDelayHours: Double, now: Date
    ) -> CrossStoreReport.ForceUpdate {
        let target = input.target
        var reasons: [String] = []
        if let target {
            reasons = Self.reasons(forcing: target, input, releaseDelayHours: releaseDelayHours, now: now)
            if !missing.isEmpty {
                reasons.insert("no result yet in storefront \(CrossStoreReport.list(missing))", at: 0)
            }
        } else if let play = input.play, let live = play.liveRelease {
            reasons.append(noVersionReason(live, track: play.track))
        } else {
            reasons.append("no version is known")
        }
        reasons += health
        return CrossStoreReport.ForceUpdate(version: target, safe: reasons.isEmpty, reasons: reasons)
    }

    /// Why forcing `target` must wait; empty when it is safe.
    ///
    /// - Parameters:
    ///   - target: The version users would be required to have.
    ///   - input: The storefronts (none: the App Store is not judged), the Play track and App
    ///     Store Connect's status.
    ///   - releaseDelayHours: How old the release serving `target` must be.
    ///   - now: The time to judge the delay against.
    /// - Returns: One sentence a reason.
    static func reasons(forcing target: Version, _ input: Input, releaseDelayHours: Double, now: Date) -> [String] {
        let live = input.storefronts.compactMap { country, release in
            release.version.map { (country: country, released: release.releaseDate, version: $0) }
        }
        var reasons: [String] = []
        let missing = live.filter { $0.version < target }.map(\.country.code).sorted()
        if !missing.isEmpty { reasons.append("not live in storefront \(missing.joined(separator: ", ")) yet") }
        if let play = input.play, let reason = playReason(play, target: target) { reasons.append(reason) }
        if let status = input.appStoreConnect { reasons += connectReasons(status, lookup: live.map(\.version).max()) }
        let young = live.filter { release in
            release.version >= target
                && (release.released.map { now < $0.addingTimeInterval(releaseDelayHours * 3600) } ?? false)
        }
        if !young.isEmpty {
            let countries = young.map(\.country.code).sorted().joined(separator: ", ")
            reasons.append("released less than \(releaseDelayHours) hours ago in \(countries)")
        }
        return reasons
    }

    /// The version a forced update would require of the storefronts' releases and a Play track
    /// read (``StoreReading/forceTarget``).
    static func target(appStore: [StoreRelease], play: PlayTrack?) -> Version? {
        Input(appStore: appStore, play: play).target
    }

    /// Why the health read makes forcing wait: one sentence a store that is not `healthy`.
    ///
    /// The store, its verdict, the candidate's and the baseline's rates with their intervals and
    /// their user-days (see ``StoreHealth/gateReason``).
    static func healthReasons(_ health: ReleaseHealthReport) -> [String] {
        health.stores.compactMap(\.gateReason)
    }

    /// Why Play does not serve `target` to every user of the track yet, or `nil` when it does.
    static func playReason(_ play: ReleaseSnapshot.GooglePlay, target: Version) -> String? {
        let track = play.track
        guard let live = play.liveRelease else {
            return "nothing is fully rolled out on Play (\(track))"
        }
        guard let liveVersion = live.version else { return noVersionReason(live, track: track) }
        guard liveVersion < target else { return nil }
        if let halted = play.haltedReleases.first(where: { $0.version == target }) {
            return
                "\(target) is halted on Play (\(track))\(CrossStoreReport.percent(halted.userFraction).map { " at \($0)" } ?? "") "
                + "(versionCode \(halted.versionCode?.description ?? "?")): nobody new gets it"
        }
        if let rollout = play.rollout, rollout.version == target {
            var reason = "not fully rolled out on Play (\(track))"
            if let share = CrossStoreReport.percent(rollout.userFraction) { reason += ": \(share) of users" }
            if let countries = rollout.countries {
                reason += " in \(countries.map { $0.lowercased() }.joined(separator: ", ")) only"
                reason += rollout.includeRestOfWorld ? " and the rest of the world" : ""
            }
            return reason + "; forcing waits until the release is completed"
        }
        return "not fully rolled out on Play (\(track))"
    }

    /// Why App Store Connect says forcing must wait: a phased release under way, or a live
    /// version the lookup does not show yet.
    static func connectReasons(_ status: AppStoreConnectStatus, lookup: Version?) -> [String] {
        guard let live = status.live else { return ["App Store Connect has no version users can download"] }
        if live.removedFromSale {
            return [
                "the app is removed from sale on the App Store (\(live.version)): nobody new can download it, so "
                    + "forcing an update would lock users out"
            ]
        }
        var reasons: [String] = []
        if let lookup, live.parsedVersion != lookup {
            reasons.append(
                "the lookup shows \(lookup) but App Store Connect's live version is \(live.version)")
        }
        if let phase = live.phasedRelease, phase.isInProgress {
            let day = phase.day.map { "day \($0), " } ?? ""
            reasons.append(
                "\(live.version) is in a phased release on the App Store (\(phase.state), \(day)\(phase.percent)% of "
                    + "automatic updates); forcing waits until it is complete")
        }
        return reasons
    }

    /// Why Play's live `release` tells no version: its name carries none.
    static func noVersionReason(_ release: ReleaseSnapshot.PlayRelease, track: String) -> String {
        "Play's live release on \(track) (versionCode \(release.versionCode?.description ?? "?")) is named "
            + "\((release.name ?? "").debugDescription), which carries no version: cannot tell which version Play serves"
    }
}
