import Foundation
import StoreReleaseKit

/// Deciding what to show, against the seeds' whole check (a Foundation numeric compare of the
/// two version strings), in the same run.
enum DecisionBenchmarks {
    static func run(size: Int, repetitions: Int) throws -> [Row] {
        let installedTexts = VersionBenchmarks.versionStrings(count: size, seed: 3)
        let storeTexts = VersionBenchmarks.versionStrings(count: size, seed: 4)
        let installed = try installedTexts.map { try Version(parsing: $0) }
        let released = Date(timeIntervalSince1970: 1_612_253_722)
        let releases = storeTexts.map {
            StoreRelease(store: .appStore, version: Version($0), releaseDate: released)
        }
        let context = UpdateContext(now: released.addingTimeInterval(3 * 86_400))
        let policy = UpdatePolicy(forceUpdateOn: .major, minimumSupportedVersion: Version("2.0"))
        let perDecision = Double(size)

        let records = (0..<size).map { index in
            AppUpdateInfo(
                packageName: "com.example.app", availableVersionCode: 100 + index % 50,
                updateAvailability: index % 7 == 0 ? .updateNotAvailable : .updateAvailable,
                installStatus: index % 11 == 0 ? .downloaded : .unknown, updatePriority: index % 6,
                clientVersionStalenessDays: index % 3 == 0 ? nil : index % 30,
                allowedUpdateTypes: [.flexible, .immediate])
        }
        let installedCode = try VersionCode(parsing: "99")
        let samples = try Measure.rounds(
            repetitions: repetitions, per: perDecision,
            [
                {
                    var prompts = 0
                    for index in 0..<size
                    where installedTexts[index].compare(storeTexts[index], options: .numeric) == .orderedAscending {
                        prompts += 1
                    }
                    blackHole(prompts)
                },
                {
                    var prompts = 0
                    for index in 0..<size
                    where policy.decide(release: releases[index], installed: installed[index], context: context)
                        .action != .none
                    {
                        prompts += 1
                    }
                    blackHole(prompts)
                },
                {
                    var prompts = 0
                    for index in 0..<size {
                        let version = try Version(parsing: installedTexts[index])
                        if policy.decide(release: releases[index], installed: version, context: context).action
                            != .none
                        {
                            prompts += 1
                        }
                    }
                    blackHole(prompts)
                },
                {
                    var prompts = 0
                    for record in records
                    where policy.decide(play: record, installed: installedCode, context: context).action != .none {
                        prompts += 1
                    }
                    blackHole(prompts)
                },
            ])
        return Row.againstFirst(
            samples, unit: "ns/op",
            [
                ("seeds' check: Foundation .numeric compare", "baseline: no review safety, no policy"),
                ("UpdatePolicy.decide(release:), parsed", "vs the seeds' check"),
                ("parse installed + decide(release:)", "vs the seeds' check, from strings"),
                ("UpdatePolicy.decide(play:)", "vs the seeds' check"),
            ])
    }
}
