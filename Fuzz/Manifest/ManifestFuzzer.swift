// libFuzzer target for ReleaseManifest (versions 1 and 2) and the decision it leads to.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is a
// manifest file, read as `decide --manifest` reads it (StrictJSON: a repeated key or an
// unrepresentable number refused). Decoding may fail, always with a DecodingError; when it
// succeeds the store URL is https, a version-1 manifest has none of version 2's keys, a
// rollout's percent is 0–100 and an install's bucket 0–99, the release carries the manifest's
// facts, and deciding for versions below, at and above the latest (and each blocked version),
// without an install id and with two, follows the rules in their order: in review is never a
// prompt, the same or a newer build is never a prompt, a blocked version is immediate, below
// the minimum supported version is immediate, outside the rollout is none, a future release
// date is too recent, anything else is offered.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard let manifest = decodeOrNil({ try StrictJSON.decode(ReleaseManifest.self, from: bytes) }) else { return 0 }
    if let url = manifest.storeURL { check(url.scheme == "https", "a manifest's store URL is https") }
    check([1, 2].contains(manifest.schemaVersion), "the schema is 1 or 2")
    if manifest.schemaVersion == 1 {
        check(
            manifest.blockedVersions.isEmpty && manifest.rollout == nil && manifest.versionNames.isEmpty,
            "a version-1 manifest has none of version 2's keys")
    }
    if let rollout = manifest.rollout {
        check(rollout.percent.isFinite && (0...100).contains(rollout.percent), "a rollout's percent is 0–100")
    }
    for languages in [["en"], ["zh-Hans-CN", "ja"], []] {
        let release = manifest.release(preferredLanguages: languages)
        check(release.version == manifest.latestVersion, "the release is the latest version")
        check(release.minimumOSVersion == manifest.minimumOSVersion, "the release keeps the minimum OS")
        check(
            release.releaseNotes == nil || manifest.releaseNotes.values.contains(release.releaseNotes ?? ""),
            "the notes are one of the manifest's")
    }

    let latest = manifest.latestVersion
    let candidates =
        ["0", "1", latest.description, latest.description + ".1", "99999.0"].compactMap { try? Version(parsing: $0) }
        + manifest.blockedVersions.prefix(4)
    let policy = UpdatePolicy(releaseDelayHours: 0)
    for installID in [nil, "install-0", "install-1"] {
        let context = UpdateContext(now: Date(timeIntervalSince1970: 4_102_444_800), installID: installID)  // 2100
        let inRollout = manifest.rollout.map { rollout in
            guard let installID else { return rollout.percent >= 100 }
            let bucket = ReleaseManifest.Rollout.bucket(installID: installID, latestVersion: latest)
            check((0..<100).contains(bucket), "a bucket is 0–99")
            return Double(bucket) < rollout.percent
        }
        check(
            manifest.rollout?.includes(installID: installID, latestVersion: latest) == inRollout,
            "an install is in the rollout exactly when its bucket is below the percent")
        for installed in candidates {
            let decision = policy.decide(manifest: manifest, installed: installed, context: context)
            check(decision.storeVersion == latest.description, "the decision names the latest version")
            if manifest.inReview {
                check(decision.action == .none && decision.reason == .inReview, "in review: no prompt")
            } else if installed >= latest {
                check(decision.action == .none, "the same or a newer build is never prompted")
            } else if manifest.blockedVersions.contains(installed) {
                check(decision.action == .immediate && decision.reason == .blockedVersion, "a blocked version")
            } else if let minimum = manifest.minimumSupportedVersion, installed < minimum {
                check(decision.action == .immediate && decision.reason == .belowMinimumSupported, "below the minimum")
            } else if inRollout == false {
                check(decision.action == .none && decision.reason == .notInRollout, "outside the rollout")
            } else if let date = manifest.releaseDate, date > context.now {
                check(decision.action == .none && decision.reason == .releaseTooRecent, "not released yet")
            } else {
                check(decision.action == .flexible, "an older build is offered the update: \(decision.reason)")
            }
        }
    }
    return 0
}
