import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Where a watcher keeps its last delivered snapshot.
///
/// A ``WatchStateFile`` (what `watch --state` uses), or a store of your own (the tests keep the
/// bytes in memory).
///
/// A store keeps bytes; the snapshot is turned into them (and read back from them) here, in one
/// place, so every store holds exactly what the file holds. A store replaces its bytes whole:
/// a reader sees the old snapshot or the new one, never part of either.
public protocol WatchStateStore: Sendable {
    /// What errors call the store: the file's path.
    var path: String { get }

    /// The bytes kept, or `nil` when nothing is kept yet (the first round).
    ///
    /// - Throws: ``WatchStateFileError`` when they cannot be read.
    func contents() throws(WatchStateFileError) -> Data?

    /// Replaces the bytes kept with `data`, whole.
    ///
    /// - Throws: ``WatchStateFileError``; what was kept is then as it was.
    func replaceContents(with data: Data) throws(WatchStateFileError)

    /// Takes the store for one watcher without waiting, until the lock is released.
    ///
    /// - Throws: ``WatchStateFileError/locked(path:)`` when another watcher holds it.
    func lock() throws(WatchStateFileError) -> WatchStateFile.Lock
}

extension WatchStateStore {
    /// The snapshot kept, or `nil` when there is none yet (the first round).
    ///
    /// - Throws: ``WatchStateFileError/notASnapshot(path:reason:)`` for bytes that are not
    ///   one (left as they are), or what ``contents()`` throws.
    public func read() throws(WatchStateFileError) -> ReleaseSnapshot? {
        try readState()?.snapshot
    }

    /// The snapshot kept and what the watch remembers beside it, or `nil` when nothing is kept yet.
    ///
    /// The memory (``WatchMemory``) is `nil` when the state has none: written without
    /// `--halt-on`, or before the memory was kept; a state with only a rollout (`advance
    /// --state`) has a memory with that alone.
    ///
    /// - Throws: ``WatchStateFileError/notASnapshot(path:reason:)`` for bytes that are not
    ///   one (left as they are), or what ``contents()`` throws.
    public func readState() throws(WatchStateFileError) -> (snapshot: ReleaseSnapshot, memory: WatchMemory?)? {
        guard let data = try contents() else { return nil }
        do {
            let snapshot = try StrictJSON.decode(ReleaseSnapshot.self, from: data)
            let kept = try StrictJSON.decode(WatchStateDocument.Memory.self, from: data)
            guard var memory = kept.watch else {
                return (snapshot, kept.rollout.map { WatchMemory(rollout: $0) })
            }
            memory.rollout = kept.rollout
            return (snapshot, memory)
        } catch let error as DecodingError {
            throw .notASnapshot(path: path, reason: error.readableDescription)
        } catch {
            throw .notASnapshot(path: path, reason: "not JSON")
        }
    }

    /// Replaces the kept snapshot with `snapshot`, and what the watch remembers with `memory`.
    ///
    /// Their JSON, keys sorted, pretty-printed (the memory under `watch`, only when it holds
    /// something).
    ///
    /// - Throws: What ``replaceContents(with:)`` throws; the old snapshot is then as it was.
    public func replace(with snapshot: ReleaseSnapshot, memory: WatchMemory = WatchMemory())
        throws(WatchStateFileError)
    {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(WatchStateDocument(snapshot: snapshot, memory: memory))
        } catch {
            throw .io(path: path, operation: "encode", reason: "\(error)")
        }
        try replaceContents(with: data)
    }
}

/// A state file's JSON: the snapshot's keys, `watch` (``WatchMemory``) when it holds
/// something, and `rollout` (``RolloutState``, as `advance --state` keeps it) when there is one.
struct WatchStateDocument: Encodable {
    /// The `watch` and `rollout` keys alone, read beside the snapshot.
    struct Memory: Decodable {
        let watch: WatchMemory?
        let rollout: RolloutState?
    }

    let snapshot: ReleaseSnapshot
    let memory: WatchMemory

    enum CodingKeys: String, CodingKey {
        case watch, rollout
    }

    func encode(to encoder: any Encoder) throws {
        try snapshot.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        if !memory.isEmpty { try c.encode(memory, forKey: .watch) }
        try c.encodeIfPresent(memory.rollout, forKey: .rollout)
    }
}
