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
    /// Why forcing `target` must wait; empty when it is safe.
    ///
    /// - Parameters:
    ///   - target: The version users would be required to have.
    ///   - appStore: The storefronts' releases (none: the App Store is not judged).
    ///   - play: The Play track, if Play is judged.
    ///   - appStoreConnect: App Store Connect's status, if asked.
    ///   - releaseDelayHours: How old the release serving `target` must be.
    ///   - now: The time to judge the delay against.
    /// - Returns: One sentence a reason.
    static func reasons(
        forcing target: Version, appStore: [StoreRelease], play: PlayTrack?, appStoreConnect: AppStoreConnectStatus?,
        releaseDelayHours: Double, now: Date
    ) -> [String] {
        let live = appStore.compactMap { release in release.version.map { (release, $0) } }
        var reasons: [String] = []
        let missing = live.filter { $0.1 < target }.map { CrossStoreReport.country($0.0) }.sorted()
        if !missing.isEmpty { reasons.append("not live in storefront \(missing.joined(separator: ", ")) yet") }
        if let play, let reason = playReason(play, target: target) { reasons.append(reason) }
        if let status = appStoreConnect { reasons += connectReasons(status, lookup: live.map(\.1).max()) }
        let young = live.filter { release, version in
            version >= target
                && (release.releaseDate.map { now < $0.addingTimeInterval(releaseDelayHours * 3600) } ?? false)
        }
        if !young.isEmpty {
            let countries = young.map { CrossStoreReport.country($0.0) }.sorted().joined(separator: ", ")
            reasons.append("released less than \(releaseDelayHours) hours ago in \(countries)")
        }
        return reasons
    }

    /// The version a forced update would require: the newest of the storefronts' versions and
    /// of Play's fully rolled-out release, `nil` when neither is known.
    static func target(appStore: [StoreRelease], play: PlayTrack?) -> Version? {
        (appStore.compactMap(\.version) + [play?.liveRelease?.version].compactMap { $0 }).max()
    }

    /// Why the health read makes forcing wait: one sentence a store that is not `healthy`.
    ///
    /// The store, its verdict, the candidate's and the baseline's rates with their intervals and
    /// their user-days (see ``StoreHealth/gateReason``).
    static func healthReasons(_ health: ReleaseHealthReport) -> [String] {
        health.stores.compactMap(\.gateReason)
    }

    /// Why Play does not serve `target` to every user of the track yet, or `nil` when it does.
    static func playReason(_ play: PlayTrack, target: Version) -> String? {
        let track = play.track
        guard let live = play.liveRelease else {
            return "nothing is fully rolled out on Play (\(track))"
        }
        guard let liveVersion = live.version else { return noVersionReason(live, track: track) }
        guard liveVersion < target else { return nil }
        if let halted = play.haltedReleases.first(where: { $0.version == target }) {
            return
                "\(target) is halted on Play (\(track))\(CrossStoreReport.percent(halted.userFraction).map { " at \($0)" } ?? "") "
                + "(versionCode \(halted.highestVersionCode?.description ?? "?")): nobody new gets it"
        }
        if let rollout = play.rollout, rollout.version == target {
            var reason = "not fully rolled out on Play (\(track))"
            if let share = CrossStoreReport.percent(rollout.userFraction) { reason += ": \(share) of users" }
            if let targeting = rollout.countryTargeting {
                reason += " in \(targeting.countries.map { $0.lowercased() }.joined(separator: ", ")) only"
                reason += targeting.includeRestOfWorld ? " and the rest of the world" : ""
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

    static func noVersionReason(_ release: PlayTrackRelease, track: String) -> String {
        "Play's live release on \(track) (versionCode \(release.highestVersionCode?.description ?? "?")) is named "
            + "\((release.name ?? "").debugDescription), which carries no version: cannot tell which version Play serves"
    }

}
