// libFuzzer target for ReleaseManifest and the decision it leads to.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is a
// manifest file. Decoding may fail, always with a DecodingError; when it succeeds the store URL
// is https, the release carries the manifest's facts, and deciding for versions below, at and
// above the latest follows the rules: in review is never a prompt, the same or a newer build is
// never a prompt, below the minimum supported version is immediate.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let manifest = decodeOrNil(ReleaseManifest.self, from: Data(bytes: data, count: size)) else { return 0 }
    if let url = manifest.storeURL { check(url.scheme == "https", "a manifest's store URL is https") }
    for languages in [["en"], ["zh-Hans-CN", "ja"], []] {
        let release = manifest.release(preferredLanguages: languages)
        check(release.version == manifest.latestVersion, "the release is the latest version")
        check(release.minimumOSVersion == manifest.minimumOSVersion, "the release keeps the minimum OS")
        check(
            release.releaseNotes == nil || manifest.releaseNotes.values.contains(release.releaseNotes ?? ""),
            "the notes are one of the manifest's")
    }

    let latest = manifest.latestVersion
    let candidates = ["0", "1", latest.description, latest.description + ".1", "99999.0"]
        .compactMap { try? Version(parsing: $0) }
    let policy = UpdatePolicy(releaseDelayHours: 0)
    let context = UpdateContext(now: Date(timeIntervalSince1970: 4_102_444_800))  // 2100: past any delay
    for installed in candidates {
        let decision = policy.decide(manifest: manifest, installed: installed, context: context)
        check(decision.storeVersion == latest.description, "the decision names the latest version")
        if manifest.inReview {
            check(decision.action == .none && decision.reason == .inReview, "in review: no prompt")
        } else if installed >= latest {
            check(decision.action == .none, "the same or a newer build is never prompted")
        } else if let minimum = manifest.minimumSupportedVersion, installed < minimum {
            check(decision.action == .immediate && decision.reason == .belowMinimumSupported, "below the minimum")
        } else if let date = manifest.releaseDate, date > context.now {
            check(decision.action == .none && decision.reason == .releaseTooRecent, "not released yet")
        } else {
            check(decision.action == .flexible, "an older build is offered the update: \(decision.reason)")
        }
    }
    return 0
}
