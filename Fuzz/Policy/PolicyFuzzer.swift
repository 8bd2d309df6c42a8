// libFuzzer target for UpdatePolicy and its decisions.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is a
// policy file. Decoding may fail, always with a DecodingError; a policy that decodes round-trips
// through JSON, and for a fixed table of releases and Play records every decision follows the
// rules whatever the policy says: the same or a newer build is never prompted, Play's
// DOWNLOADED is always completeUpdate, an immediate decision has a reason that allows one and
// an update type Play allows, and a flexible one is allowed too.

import Foundation

let now = Date(timeIntervalSince1970: 1_612_253_722 + 30 * 86_400)
let released = Date(timeIntervalSince1970: 1_612_253_722)

func version(_ text: String) -> Version {
    guard let version = Version(text) else { fatalError("a fixed version does not parse: \(text)") }
    return version
}

/// Installed version, store version, release date, context.
let appStoreCases: [(String, String, Date?, UpdateContext)] = [
    ("1.0", "2.0", released, UpdateContext(now: now)),
    ("1.9.9", "2.0", released, UpdateContext(now: now)),
    ("2.0.1", "2.0.2", now, UpdateContext(now: now)),
    ("2.0", "2.0.0", released, UpdateContext(now: now)),
    ("2.1", "2.0", released, UpdateContext(now: now)),
    ("1.0", "2.0", released, UpdateContext(osVersion: version("9.0"), now: now)),
    ("1.0", "2.0", released, UpdateContext(now: now, skippedVersion: version("2.0"))),
    ("1.0", "2.0", nil, UpdateContext(now: now, lastPrompted: now)),
    ("0.0.1", "7.13.88.4022", released, UpdateContext(now: now)),
]

let playRecords: [AppUpdateInfo] = [
    AppUpdateInfo(
        packageName: "p", availableVersionCode: 90, updateAvailability: .updateAvailable,
        updatePriority: 5, clientVersionStalenessDays: 30, allowedUpdateTypes: [.flexible, .immediate]),
    AppUpdateInfo(
        packageName: "p", availableVersionCode: 90, updateAvailability: .updateAvailable,
        updatePriority: 1, clientVersionStalenessDays: nil, allowedUpdateTypes: [.flexible]),
    AppUpdateInfo(
        packageName: "p", availableVersionCode: 90, updateAvailability: .updateAvailable,
        updatePriority: 4, clientVersionStalenessDays: 2, allowedUpdateTypes: []),
    AppUpdateInfo(
        packageName: "p", availableVersionCode: 90, updateAvailability: .developerTriggeredUpdateInProgress,
        installStatus: .downloaded),
    AppUpdateInfo(
        packageName: "p", availableVersionCode: 70, updateAvailability: .updateAvailable,
        allowedUpdateTypes: [.flexible, .immediate]),
    AppUpdateInfo(packageName: "p"),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPolicy(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let policy = decodeOrNil(UpdatePolicy.self, from: Data(bytes: data, count: size)) else { return 0 }
    checkRoundTrip(policy, "a policy")

    for (installedText, storeText, date, context) in appStoreCases {
        let installed = version(installedText)
        let release = StoreRelease(
            store: .appStore, version: version(storeText), releaseDate: date, minimumOSVersion: version("10.0"))
        let decision = policy.decide(release: release, installed: installed, context: context)
        check(decision == policy.decide(release: release, installed: installed, context: context), "deterministic")
        if installed >= version(storeText) {
            check(decision.action == .none, "the same or a newer build is never prompted")
        }
        if decision.action == .immediate {
            check([.belowMinimumSupported, .forcedByVersionChange].contains(decision.reason), "why immediate")
        }
        check([.none, .flexible, .immediate].contains(decision.action), "App Store actions only")
    }

    guard let installedCode = VersionCode(rawValue: 80) else { fatalError("80 is a version code") }
    for record in playRecords {
        let decision = policy.decide(play: record, installed: installedCode, context: UpdateContext(now: now))
        if record.installStatus == .downloaded {
            check(decision.action == .completeUpdate, "DOWNLOADED is always completeUpdate")
        }
        if decision.action == .immediate {
            check(record.isUpdateTypeAllowed(.immediate), "immediate only when Play allows it")
            check([.highPriority, .staleForTooLong].contains(decision.reason), "why immediate on Play")
        }
        if decision.action == .flexible { check(record.isUpdateTypeAllowed(.flexible), "flexible only when allowed") }
        if record.availableVersionCode <= installedCode.rawValue, record.installStatus != .downloaded,
            record.updateAvailability == .updateAvailable
        {
            check(decision.action == .none, "no newer version code, no prompt")
        }
    }
    return 0
}
