import Foundation
import StoreReleaseCore
import StoreReleaseModels
import StoreReleasePolicy
import Testing

@Suite struct PromptHistoryTests {
    func v(_ text: String) throws -> Version { try Version(parsing: text) }

    @Test func whatsNewShowsOncePerSignificantVersion() throws {
        var history = PromptHistory()
        #expect(try history.shouldShowWhatsNew(installed: v("1.1.0")), "a fresh install shows it")
        history.whatsNewShown(for: try v("1.1.0"))
        #expect(try !history.shouldShowWhatsNew(installed: v("1.1.0")), "once")
        #expect(try !history.shouldShowWhatsNew(installed: v("1.1.1")), "not for a patch")
        #expect(
            try history.shouldShowWhatsNew(installed: v("1.10.0")), "seed 003's first three characters miss this one")
        #expect(try history.shouldShowWhatsNew(installed: v("2.0")))
        #expect(try history.shouldShowWhatsNew(installed: v("1.1.1"), significance: .patch))
        #expect(try !history.shouldShowWhatsNew(installed: v("1.0.9")), "not after a downgrade")
    }

    @Test func skipAndRemindFeedTheDecision() throws {
        var history = PromptHistory()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        history.skip(try v("2.0"))
        history.promptedAndDeferred(at: now)
        let context = history.context(now: now.addingTimeInterval(3600))
        #expect(context.skippedVersion == (try v("2.0")) && context.lastPrompted == now)
        let release = StoreRelease(store: .manifest, version: try v("2.0"))
        let decision = UpdatePolicy().decide(release: release, installed: try v("1.0"), context: context)
        #expect(decision.reason == .skippedVersion)
        #expect(history.promptCount == 1)
    }

    @Test func theVersionLaterWasSaidToIsKeptAndAnOldHistoryHasNone() throws {
        var history = PromptHistory()
        let now = Date(timeIntervalSince1970: 1_612_310_400)
        history.promptedAndDeferred(at: now, about: try v("8.0.10"))
        let data = try JSONEncoder().encode(history)
        let back = try JSONDecoder().decode(PromptHistory.self, from: data)
        let reminded = try v("8.0.10")
        #expect(back.remindedVersion == reminded && back.context(now: now).remindedVersion == reminded)
        let old = #"{"format": "storerelease.promptHistory.v1", "lastPrompted": 633916800, "promptCount": 1}"#
        let before = try JSONDecoder().decode(PromptHistory.self, from: Data(old.utf8))
        #expect(before.remindedVersion == nil && before.promptCount == 1, "a history written before still reads")
    }

    @Test func theInMemoryStoreUpdatesInPlace() throws {
        let store = InMemoryPromptHistoryStore()
        store.update { $0.promptedAndDeferred(at: Date()) }
        #expect(store.load().promptCount == 1)
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func theFileStoreKeepsTheHistoryAcrossInstances() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        let version = try v("3.1")
        try FilePromptHistoryStore(url: url).update { $0.skip(version) }
        #expect(try FilePromptHistoryStore(url: url).load().skippedVersion == version)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""format" : "storerelease.promptHistory.v1""#))
    }

    @Test func concurrentWritersLoseNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let store = FilePromptHistoryStore(url: url)  // its own file descriptors, as another process has
                    for _ in 0..<25 { try store.update { $0.promptedAndDeferred(at: Date()) } }
                }
            }
            try await group.waitForAll()
        }
        #expect(try FilePromptHistoryStore(url: url).load().promptCount == 200)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// The history's helper files are never opened through a link planted there: the update
    /// fails with the store's typed error naming the file, and the link's target is neither written nor created.
    @Test(arguments: [".tmp", ".lock"])
    func aLinkPlantedBesideTheHistoryIsRefused(_ suffix: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        try FilePromptHistoryStore(url: url).update { $0.promptedAndDeferred(at: Date(timeIntervalSince1970: 0)) }
        let before = try Data(contentsOf: url)
        let victim = folder.appendingPathComponent("victim")
        if suffix == ".tmp" { try Data("someone else's".utf8).write(to: victim) }
        try? FileManager.default.removeItem(atPath: url.path + suffix)  // the lock file stays after an update
        try FileManager.default.createSymbolicLink(atPath: url.path + suffix, withDestinationPath: victim.path)
        do throws(FilePromptHistoryStoreError) {  // the store's one error type, typed: no cast
            try FilePromptHistoryStore(url: url).update { $0.promptedAndDeferred(at: Date()) }
            Issue.record("an update through a planted link succeeded")
        } catch {
            #expect(error.description.contains("\(url.path + suffix): it is a symbolic link, not a regular file"))
        }
        if suffix == ".tmp" {
            #expect(try String(contentsOf: victim, encoding: .utf8) == "someone else's")
        } else {
            #expect(!FileManager.default.fileExists(atPath: victim.path))
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test(arguments: ["{not json", #"{"theme": "dark"}"#, #"{"format": "someone.else.v2", "promptCount": 4}"#, ""])
    func aCorruptOrForeignFileIsMovedAsideWithAWarning(_ content: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("history.json")
        try Data(content.utf8).write(to: url)
        let warnings = InMemoryWarnings()
        let store = FilePromptHistoryStore(url: url, warn: { warnings.append($0) })
        #expect(try store.load() == PromptHistory())
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("was not a prompt history") == true)
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".corrupt-") }
        #expect(aside.count == 1, "the old file is kept, not overwritten")
        let kept = try String(contentsOf: folder.appendingPathComponent(aside[0]), encoding: .utf8)
        #expect(kept == content)
        try store.update { $0.promptedAndDeferred(at: Date()) }
        #expect(try store.load().promptCount == 1)
    }
}

/// Collects warnings from any thread.
final class InMemoryWarnings: @unchecked Sendable {
    private let lock = NSLock()
    private var warnings: [String] = []
    func append(_ warning: String) { lock.withLock { warnings.append(warning) } }
    var all: [String] { lock.withLock { warnings } }
}
