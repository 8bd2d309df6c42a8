import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseFlow

/// One vocabulary: the verb table, the script parser and the guide agree.
@Suite struct UpdateFlowVocabularyTests {
    @Test func theGuidesVerbTableIsTheVocabulary() throws {
        let guide = try String(
            contentsOf: LoopbackServer.packageRoot.appendingPathComponent(
                "Docs/StoreReleaseKit.docc/TestingWithTheSimulator.md"),
            encoding: .utf8)
        let section = guide.components(separatedBy: "### The verbs").last?.components(separatedBy: "###").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .map { $0.replacingOccurrences(of: "\\|", with: "|") }
        let expected = UpdateFlowVerb.allCases.map { verb in
            let play = verb.stores.contains(.googlePlay) ? "yes" : ""
            let apple = verb.stores.contains(.appStore) ? "yes" : ""
            return "| `\(verb.usage)` | \(play) | \(apple) |"
        }
        #expect(Set(rows) == Set(expected), "rows: \(rows)")
        #expect(rows.count == UpdateFlowVerb.allCases.count)
    }

    @Test func everyVerbOfAStoreParsesAndNoOtherDoes() {
        for store in [Store.googlePlay, .appStore] {
            for verb in UpdateFlowVerb.allCases {
                let arguments = Self.sampleArguments(verb)
                let parsed = try? UpdateFlowScriptParser.event(verb.rawValue, arguments, store: store, line: 1)
                #expect((parsed != nil) == verb.stores.contains(store), "\(verb) in \(store)")
                #expect(parsed.map { $0.verb == verb } ?? true, "\(verb) parses to its own event")
            }
        }
    }

    @Test func nullClearsTheStaleness() throws {
        var flow = PlayUpdateFlow()
        for line in ["setUpdateAvailable 3", "setClientVersionStalenessDays 5", "setClientVersionStalenessDays null"] {
            let words = line.split(separator: " ").map(String.init)
            let event = try UpdateFlowScriptParser.event(
                words[0], Array(words.dropFirst()), store: .googlePlay, line: 1)
            guard case .googlePlay(let playEvent) = event else {
                Issue.record("\(line) is not a Play event")
                return
            }
            _ = try flow.handle(playEvent)
            if line.hasSuffix("5") { #expect(flow.appUpdateInfo.clientVersionStalenessDays == 5) }
        }
        #expect(flow.appUpdateInfo.clientVersionStalenessDays == nil)
    }

    static func sampleArguments(_ verb: UpdateFlowVerb) -> [String] {
        switch verb {
        case .setUpdateAvailable: ["2"]
        case .setUpdatePriority: ["3"]
        case .setClientVersionStalenessDays: ["null"]
        case .setInstallErrorCode: ["-6"]
        case .setTotalBytesToDownload, .setBytesDownloaded: ["10"]
        case .startUpdateFlow: ["flexible"]
        case .setUpdatePreconditions: ["flexible", "INSUFFICIENT_STORAGE", "allowedWithAssetPackDeletion"]
        case .setStoreVersion, .setInstalledVersion, .relaunch: ["1.0"]
        case .setUpdateNotAvailable, .userAcceptsUpdate, .userRejectsUpdate, .downloadStarts, .downloadCompletes,
            .downloadFails, .userCancelsDownload, .installCompletes, .installFails, .completeUpdate, .getAppUpdateInfo:
            []
        }
    }
}
