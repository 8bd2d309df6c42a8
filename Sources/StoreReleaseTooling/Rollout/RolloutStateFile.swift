import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Where `advance --state FILE` keeps a ``RolloutState``: the `rollout` key of a JSON object.
///
/// The file may be a watch's state: its other keys are kept as read. It is read with a size
/// limit, never through a link or a FIFO, and replaced whole (atomically, beside itself) under an
/// exclusive lock on `FILE.lock`. A file that cannot be the rollout's state is refused before
/// anything is written: a link (the rename would replace the link), a watch's state of another
/// app or track, a step that began after the time judged (a wrong clock), a folder that does not
/// exist, and (``lock(_:)``) something other than a file at `FILE.tmp` or `FILE.lock`.
public enum RolloutStateFile {
    /// How far a kept step may have begun after the time judged, in seconds.
    ///
    /// Clocks of two machines that share a state differ by seconds, a wrong clock by hours or years.
    public static let clockSkew: TimeInterval = 300

    /// The state kept in `path`, refused when the file cannot be the rollout's state.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - app: The app rolled out, as far as it is known: a watch's state of another app (its
    ///     `app` key) is refused, as `watch` refuses it.
    ///   - track: The Play track rolled out: a watch's state of another track is refused.
    ///   - now: The time judged: a step that began more than ``clockSkew`` after it is refused.
    /// - Returns: The state kept; `nil` when there is no file yet or it keeps no `rollout`.
    /// - Throws: ``RolloutStateFileError`` naming the file: a link, a FIFO or a folder; a folder
    ///   that does not exist; not JSON, not an object, a watch's state of another app, or a
    ///   `rollout` key that is not a rollout state or whose step began after `now`.
    public static func read(
        _ path: String, of app: ReleaseSnapshot.App? = nil, track: String? = nil, at now: Date? = nil
    ) throws(RolloutStateFileError) -> RolloutState? {
        guard let object = try object(path) else { return nil }
        if let conflict = conflict(in: object, app: app, track: track) {
            throw RolloutStateFileError("\(WatchStateFileError.otherApp(path: path, reason: conflict))")
        }
        guard let kept = object["rollout"] else { return nil }
        let state: RolloutState
        do {
            state = try JSONDecoder().decode(RolloutState.self, from: kept.data)
        } catch let error as DecodingError {
            throw RolloutStateFileError(
                "state file \(path.debugDescription): its \"rollout\" is not a rollout state: \(error.readableDescription)"
            )
        } catch {
            throw RolloutStateFileError(
                "state file \(path.debugDescription): its \"rollout\" is not a rollout state: \(error)")
        }
        if let now, let began = state.play?.began, began.timeIntervalSince(now) > clockSkew {
            throw RolloutStateFileError(
                "state file \(path.debugDescription): its rollout's step began at \(ISO8601Timestamp.string(from: began)), "
                    + "after now (\(ISO8601Timestamp.string(from: now))): a wrong clock wrote it, or the time judged is "
                    + "wrong (correct the clock, or remove the \"rollout\" key)")
        }
        return state
    }

    /// Takes the file's lock (`FILE.lock`) for a run that writes it, without waiting.
    ///
    /// Call it before reading the stores: `FILE.tmp`, which the write goes through, is checked too.
    ///
    /// - Throws: ``WatchStateFileError/locked(path:)`` when a watch or another advance holds it;
    ///   ``WatchStateFileError/notAFile(path:reason:)`` naming `FILE.tmp` or `FILE.lock` when it
    ///   is a link, a FIFO or a folder; ``WatchStateFileError/io(path:operation:reason:)``.
    public static func lock(_ path: String) throws(WatchStateFileError) -> WatchStateFile.Lock {
        do throws(AtomicFile.Failure) {
            try AtomicFile.requireReplaceable(path)
        } catch {
            throw .notAFile(path: error.path, reason: error.reason)
        }
        return try WatchStateFile(path: path).lock()
    }

    /// Keeps `state` as the `rollout` key of `path`, every other key as it is.
    ///
    /// A step is never kept as begun later than the real time: a later one (judged at a time ahead
    /// of the clock) is kept as begun now.
    ///
    /// - Parameters:
    ///   - state: The rollout's state.
    ///   - path: The file.
    ///   - held: The lock of `path` (``lock(_:)``) the caller took for its whole run;
    ///     without it the file is locked for the write alone.
    /// - Throws: ``RolloutStateFileError`` naming the file; it is as it was.
    public static func write(
        _ state: RolloutState, to path: String, holding held: WatchStateFile.Lock? = nil
    ) throws(RolloutStateFileError) {
        var lock: AtomicFile.Lock?
        if held == nil {
            do throws(AtomicFile.Failure) {
                lock = try AtomicFile.lock(path + ".lock", waiting: false)
            } catch {
                throw RolloutStateFileError("\(path): cannot lock \(error.path): \(error.reason)")
            }
            guard lock != nil else { throw RolloutStateFileError("\(path) is being written by another process") }
        }
        defer { withExtendedLifetime((lock, held)) {} }
        var members: [String: JSONValue] = [:]
        if case .object(let kept)? = try object(path) { members = kept }
        var state = state
        let clock = Date()
        if let began = state.play?.began, began > clock { state.play?.began = clock }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            members["rollout"] = try JSONValue(json: try encoder.encode(state))
            var data = try encoder.encode(JSONValue.object(members))
            data.append(UInt8(ascii: "\n"))
            try AtomicFile.replace(path, with: data)
        } catch let failure as AtomicFile.Failure {
            throw RolloutStateFileError("\(path): cannot \(failure.operation) \(failure.path): \(failure.reason)")
        } catch {
            throw RolloutStateFileError("\(path): cannot be written: \(error)")
        }
    }
}

/// Why a rollout state file could not be read or written; the message names the file.
public struct RolloutStateFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
