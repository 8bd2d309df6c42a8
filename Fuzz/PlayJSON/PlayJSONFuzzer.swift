// libFuzzer target for Google Play's JSON: an AppUpdateInfo record, an InstallState, and the
// Play Developer API's tracks.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is
// one JSON document, tried as each. Decoding may fail, always with a DecodingError; what decodes
// is in Play's ranges, round-trips through JSON, becomes a StoreRelease, and decides as the
// rules say (DOWNLOADED → completeUpdate, not available → none); a track's live release is a
// completed one, its rollout in progress, and a cross-store report on it is consistent.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlayJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let json = Data(bytes: data, count: size)
    if let info = decodeOrNil(AppUpdateInfo.self, from: json) {
        check((0...5).contains(info.updatePriority), "priority 0–5")
        check(info.bytesDownloaded >= 0 && info.totalBytesToDownload >= 0, "byte counts are not negative")
        checkRoundTrip(info, "an update record")
        let release = StoreRelease(info)
        check(release.store == .googlePlay, "a Play release")
        guard let installed = VersionCode(rawValue: 1) else { fatalError("1 is a version code") }
        let decision = UpdatePolicy().decide(play: info, installed: installed)
        if info.installStatus == .downloaded {
            check(decision.action == .completeUpdate, "DOWNLOADED is completeUpdate")
        } else if info.updateAvailability == .updateNotAvailable {
            check(decision.action == .none, "not available is no prompt")
        }
    }
    if let state = decodeOrNil(InstallState.self, from: json) {
        checkRoundTrip(state, "an install state")
    }
    guard let tracks = decodeOrNil({ try PlayTrack.decodeTracks(from: json) }) else { return 0 }
    for track in tracks {
        if let live = track.liveRelease { check(live.status == .completed, "the live release is completed") }
        if let rollout = track.rollout {
            check(rollout.status == .inProgress, "the rollout is in progress")
            if let fraction = rollout.userFraction { check(fraction > 0 && fraction < 1, "a fraction in (0, 1)") }
        }
        let report = CrossStoreReport(appStore: [], play: track, now: Date(timeIntervalSince1970: 0))
        check(!report.agree, "no storefront cannot agree")
        check(report.forceUpdate.safe == report.forceUpdate.reasons.isEmpty, "safe exactly when no reason is left")
        check(report.playReleaseName == track.liveRelease?.name, "the report names the live release")
        check(
            report.playVersion == track.liveRelease?.version?.description,
            "the report's Play version is the one the live release's name carries, never guessed")
        check(report.playHalted.count == track.haltedReleases.count, "every halted release is reported")
    }
    return 0
}
