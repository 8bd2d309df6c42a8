import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseClients
@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// recall's manifest write, the App Store's only recall: through a link to the served file,
/// keeping its mode, under a lock, and only over what the plan was made from.
@Suite struct ManifestRecallTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("recall")
    }

    static let manifest = """
        {
          "blockedVersions" : ["8.0.7"],
          "latestVersion" : "8.0.11",
          "schemaVersion" : 2
        }

        """

    /// `served.json`, mode 0660, and `manifest.json`, a link to it.
    func servedThroughALink() throws -> (link: String, served: String) {
        let served = folder.appendingPathComponent("served.json").path
        try Data(Self.manifest.utf8).write(to: URL(fileURLWithPath: served))
        #expect(chmod(served, 0o660) == 0)
        let link = folder.appendingPathComponent("manifest.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "served.json")
        return (link, served)
    }

    func plan(_ actor: ReleaseActor) async throws -> ActingPlan {
        let version = try Version(parsing: "8.0.10")
        return ActingPlan(.recall, version: version, reading: try await actor.read(for: .recall, version: version))
    }

    func blocked(_ path: String) throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try JSONDecoder().decode(ReleaseManifest.self, from: data).blockedVersions.map(\.description)
    }

    @Test func theServedFileGetsTheBlockThroughTheLinkWithItsModeKept() async throws {
        let (link, served) = try servedThroughALink()
        let actor = ReleaseActor(manifestPath: link)
        let applied = await actor.apply(try await plan(actor))
        #expect(applied.verified == true, "\(applied.text)")
        let kind = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink, "the link is still a link")
        #expect(try blocked(served) == ["8.0.7", "8.0.10"], "the served file has the block")
        var status = stat()
        #expect(stat(served, &status) == 0 && status.st_mode & 0o7777 == 0o660, "mode kept")
        #expect(!FileManager.default.fileExists(atPath: served + ".tmp"))
    }

    @Test func aManifestChangedSinceTheReadIsRefusedNamingTheChangeAndKept() async throws {
        let (link, served) = try servedThroughALink()
        let actor = ReleaseActor(manifestPath: link)
        let planned = try await plan(actor)
        // Another recall (or a person) blocks 8.0.9 between the read and the write.
        let edited = Self.manifest.replacingOccurrences(of: "[\"8.0.7\"]", with: "[\"8.0.7\", \"8.0.9\"]")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: served))
        let applied = await actor.apply(planned)
        #expect(applied.verified == false && applied.steps.first?.done == false)
        let error = try #require(applied.steps.first?.error)
        #expect(error.contains("changed since it was read") && error.contains("8.0.9"), "\(error)")
        #expect(try blocked(served) == ["8.0.7", "8.0.9"], "the other block is not lost")
    }

    @Test func aManifestAnotherProcessIsWritingIsRefused() async throws {
        let (link, served) = try servedThroughALink()
        let actor = ReleaseActor(manifestPath: link)
        let planned = try await plan(actor)
        let held = try AtomicFile.lock(served + ".lock", waiting: false)
        let applied = await actor.apply(planned)
        withExtendedLifetime(held) {}
        #expect(applied.steps.first?.error?.contains("being written by another process") == true, "\(applied.text)")
        #expect(try blocked(served) == ["8.0.7"])
    }

    /// Regions are a set: an action for DE,US covers a recall for US,DE (Play may answer either order).
    @Test func aRecoveryActionForTheSameRegionsInAnotherOrderIsNotMadeAgain() throws {
        let codes = [try #require(VersionCode(rawValue: 81))]
        let action = PlayRecoveryAction(
            appRecoveryID: "7", status: .active, versionCodes: codes, regions: ["DE", "US"], recoveredDevices: nil,
            totalDevices: nil)
        let newer = PlayTrackRelease(
            name: "82 (8.0.11)", versionCodes: [try #require(VersionCode(rawValue: 82))], status: .completed)
        let halted = PlayTrackRelease(name: "81 (8.0.10)", versionCodes: codes, status: .halted, userFraction: 0.2)
        let reading = ActingReading(
            googlePlay: .init(
                track: PlayTrack(track: "production", releases: [newer, halted]), packageName: "com.example.app",
                recoveryActions: [action], tracks: [PlayTrack(track: "production", releases: [newer, halted])]))
        let plan = ActingPlan(
            .recall, version: try Version(parsing: "8.0.10"), reading: reading, regions: ["US", "DE"])
        #expect(plan.steps.isEmpty && plan.notes.contains { $0.contains("action 7 already prompts") }, "\(plan.notes)")
    }
}
