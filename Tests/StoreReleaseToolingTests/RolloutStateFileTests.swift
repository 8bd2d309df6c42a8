import Foundation
import StoreReleaseTestSupport
import Testing

@testable import StoreReleaseCore
@testable import StoreReleaseModels
@testable import StoreReleaseTooling

/// ``RolloutStateFile`` as a Swift user calls it: a file that cannot be the rollout's state is
/// refused by name before anything is written, and what is kept counts only for what it was kept for.
@Suite struct RolloutStateFileTests {
    let scratch: ScratchFolder
    var folder: URL { scratch.url }

    init() throws {
        scratch = try ScratchFolder("rollout-state")
    }

    static let now = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00Z

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What `body` was refused with (a ``RolloutStateFileError``'s words).
    func refusal(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "(not refused)"
        } catch let error as RolloutStateFileError {
            return error.description
        } catch {
            return "(another error: \(error))"
        }
    }

    /// The gate's pause kept for 8.0.2 is not its pause of 8.0.10 (whose phased release a person
    /// may have paused): the situation counts it only for the version it was kept for.
    @Test func aPauseKeptForAnotherVersionIsNotTheGates() throws {
        let version = try Version(parsing: "8.0.10")
        let stale = RolloutState(version: try Version(parsing: "8.0.2"), phasedPausedByGate: true)
        let own = RolloutState(version: version, phasedPausedByGate: true)
        #expect(!stale.pausedByGate(version) && own.pausedByGate(version))
        func situation(_ state: RolloutState) -> RolloutGate.Situation {
            RolloutGate.Situation(version, reading: ActingReading(), health: nil, state: state, now: Self.now)
        }
        #expect(!situation(stale).phasedPausedByGate)
        #expect(situation(own).phasedPausedByGate)
    }

    /// A watch's state of another app or track (what both name differs) is refused; of the same
    /// app (or naming none), its rollout is read.
    @Test func aWatchStateOfAnotherAppOrTrackIsRefused() throws {
        let path = try file(
            "watch.json",
            #"{"app": {"packageName": "com.example.rollout", "appStoreID": "414478124"}, "googlePlay": {"track": "production"}, "rollout": {"version": "8.0.10", "phasedPausedByGate": false}}"#
        )
        let other = refusal { _ = try RolloutStateFile.read(path, of: .init(packageName: "com.example.alone")) }
        #expect(
            other.contains(
                #"is a snapshot of another app: its package is "com.example.rollout", not "com.example.alone""#),
            "\(other)")
        let track = refusal {
            _ = try RolloutStateFile.read(path, of: .init(packageName: "com.example.rollout"), track: "beta")
        }
        #expect(track.contains(#"its Play track is "production", not "beta""#), "\(track)")
        let same = try RolloutStateFile.read(
            path, of: .init(appStoreID: "414478124", packageName: "com.example.rollout"), track: "production")
        #expect(same?.version == (try Version(parsing: "8.0.10")))
    }

    /// A link is refused (a rename would replace it), and so is a link at `FILE.tmp` when the
    /// file is locked for writing.
    @Test func linksAreRefusedBeforeAnythingIsWritten() throws {
        let target = try file("target.json", #"{"rollout": {"version": "8.0.10", "phasedPausedByGate": false}}"#)
        let link = folder.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let read = refusal { _ = try RolloutStateFile.read(link) }
        #expect(read.contains("it is a symbolic link") && read.contains("name the file itself"), "\(read)")
        let state = RolloutState(version: try Version(parsing: "8.0.10"))
        let written = refusal { try RolloutStateFile.write(state, to: link) }
        #expect(written.contains("it is a symbolic link"), "\(written)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)

        try FileManager.default.createSymbolicLink(atPath: target + ".tmp", withDestinationPath: link)
        #expect {
            _ = try RolloutStateFile.lock(target)
        } throws: { error in
            "\(error)".contains("\((target + ".tmp").debugDescription) cannot be used for the state")
        }
    }

    /// A step that began after the time judged (beyond a few minutes of skew) is refused; a step
    /// begun later than the real time is kept as begun now.
    @Test func aStepBegunInTheFutureIsRefusedAndNeverWritten() throws {
        let path = try file(
            "future.json",
            #"{"rollout": {"version": "8.0.10", "play": {"fraction": 0.2, "began": "2026-12-01T01:00:00Z"}, "phasedPausedByGate": false}}"#
        )
        let refused = refusal { _ = try RolloutStateFile.read(path, at: Self.now) }
        #expect(refused.contains("began at 2026-12-01T01:00:00Z, after now (2026-12-01T00:00:00Z)"), "\(refused)")
        #expect(try RolloutStateFile.read(path, at: Self.now.addingTimeInterval(3600 - 60)) != nil, "a minute's skew")

        let ahead = Date().addingTimeInterval(86_400 * 365)
        let version = try Version(parsing: "8.0.10")
        try RolloutStateFile.write(RolloutState(version: version, play: .init(fraction: 0.2, began: ahead)), to: path)
        let kept = try #require(try RolloutStateFile.read(path)?.play?.began)
        #expect(kept <= Date())
    }

    /// Not JSON, not an object, or in a folder that does not exist: refused saying what a state
    /// file is, without the decoder's internals.
    @Test func whatIsNotAStateFileSaysWhatOneIs() throws {
        let prose = try file("README.md", "# StoreRelease\n")
        let notJSON = refusal { _ = try RolloutStateFile.read(prose) }
        #expect(notJSON.contains("is not a state file: it is not JSON"), "\(notJSON)")
        #expect(notJSON.contains("a state file is a JSON object") && !notJSON.contains("DecodingError"), "\(notJSON)")
        let array = refusal { _ = try RolloutStateFile.read(try file("array.json", "[]")) }
        #expect(array.contains("it is JSON, but not an object"), "\(array)")
        let nowhere = refusal { _ = try RolloutStateFile.read("/no/such/dir/s.json") }
        #expect(nowhere.contains(#"its folder "/no/such/dir" does not exist"#), "\(nowhere)")
        #expect(try RolloutStateFile.read(folder.appendingPathComponent("new.json").path) == nil, "not there yet")
    }
}
