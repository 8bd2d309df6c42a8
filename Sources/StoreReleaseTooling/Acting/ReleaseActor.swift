import Foundation
import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

/// Reads both stores for a plan, applies it, and reads them again to verify it.
///
/// Reads only write nothing (Play's tracks are read through an edit that is deleted). A plan is
/// applied step by step in its order and stops at the first step a store refuses: that step
/// holds the error, the ones after it stay not done, and a Play edit is never half-committed.
public struct ReleaseActor: Sendable {
    /// Google Play's app, and the track halt, resume and complete act on, if acted on.
    ///
    /// A live source (``PlaySource/live(packageName:track:client:)``): a stored track is read,
    /// never written.
    public var play: PlaySource?
    /// App Store Connect, about the app it names (``AppStoreConnectSource/app``), if acted on.
    public var appStoreConnect: AppStoreConnectSource?
    /// The v2 manifest recall writes, if given.
    public var manifestPath: String?

    /// Makes an actor for the stores given.
    public init(play: PlaySource? = nil, appStoreConnect: AppStoreConnectSource? = nil, manifestPath: String? = nil) {
        self.play = play
        self.appStoreConnect = appStoreConnect
        self.manifestPath = manifestPath
    }

    /// An actor for the stores `sources` read, through their own clients.
    ///
    /// One client a store serves the read, the acts and the read-back. Google Play when its
    /// source is live (a stored track is read, never written); App Store Connect about the app it
    /// names, else the one a live App Store source names.
    public init(acting sources: StoreSources) {
        var connect = sources.appStoreConnect
        if connect?.app == nil, case .live(let app, _, _)? = sources.appStore { connect?.app = app }
        let play: PlaySource? = if case .live? = sources.play { sources.play } else { nil }
        self.init(play: play, appStoreConnect: connect)
    }

    /// The stores given, Google Play first.
    public var stores: [Store] {
        (play == nil ? [] : [.googlePlay]) + (appStoreConnect == nil ? [] : [.appStore])
    }

    /// Reads every store given (and the manifest), writing nothing.
    ///
    /// Google Play: every track, listed in one edit (``PlaySource/listedTracks()``); for
    /// advance, the track's review states; for recall, the App Recovery actions for the
    /// version's versionCodes. Then App Store Connect, about the app its source names
    /// (``StoreSources/read(_:)``).
    ///
    /// - Throws: ``ReleaseActorError``.
    public func read(for action: ReleaseAction, version: Version) async throws(ReleaseActorError) -> ActingReading {
        var reading = ActingReading()
        if let manifestPath { reading.manifest = try Self.readManifest(manifestPath) }
        if let play {
            do throws(ReleaseSourceError) {
                let (track, tracks) = try await play.listedTracks()
                var read = StoreReading.GooglePlay(
                    track: track, packageName: play.packageName,
                    reviewStates: action == .advance ? try await play.reviewStates() : [], tracks: tracks)
                if action == .recall {
                    read.recoveryActions = try await play.recoveryActions(versionCodes: read.versionCodes(of: version))
                }
                reading.googlePlay = read
            } catch {
                throw .read(.googlePlay, error)
            }
        }
        if let appStoreConnect {
            guard appStoreConnect.app != nil else { throw .notGiven("App Store Connect names no app to act on") }
            do throws(ReleaseSourceError) {
                reading.appStoreConnect = try await StoreSources(appStoreConnect: appStoreConnect).read()
                    .appStoreConnect
            } catch {
                throw .read(.appStore, error)
            }
        }
        return reading
    }

    /// What a plan to halt or advance is made from, out of a read of the stores.
    ///
    /// `nil` when the read does not cover every store this actor acts on. A round of `watch`
    /// reads the stores once (``StoreSources/read(_:)`` with ``StoreReading/Extras/everyTrack``):
    /// when that read is of this actor's Play app and track (every track listed) and App Store
    /// Connect app (named by id, on `platform`, the platform of the source that read it), the
    /// round plans on its records as they are instead of reading the stores a second time.
    /// Recall is planned on ``read(for:version:)`` (it reads App Recovery's actions for the
    /// version), and so is a plan with a manifest.
    public func reading(from read: StoreReading, platform: AppStoreConnectPlatform?) -> ActingReading? {
        guard manifestPath == nil else { return nil }
        var reading = ActingReading()
        if let play {
            guard let read = read.googlePlay, read.tracks != nil, case .live(let packageName, let track, _) = play,
                read.packageName == packageName, read.track.track == track
            else { return nil }
            reading.googlePlay = read
        }
        if let appStoreConnect {
            guard case .id(let number)? = appStoreConnect.app, platform == appStoreConnect.platform,
                let read = read.appStoreConnect, read.status.appID == String(number), read.versions != nil
            else { return nil }
            reading.appStoreConnect = read
        }
        return reading
    }

    /// Reads the stores, plans `action` for `version`, and applies the plan unless it refuses.
    ///
    /// What `watch --halt-on regressed` does the round a verdict turns: a plan with nothing to
    /// do (the release already halted) sends nothing and comes back with no step; one with a
    /// refusal comes back as planned, nothing written.
    ///
    /// - Throws: ``ReleaseActorError`` when a store (or the manifest) cannot be read; nothing was written.
    public func act(_ action: ReleaseAction, version: Version) async throws(ReleaseActorError) -> ActingPlan {
        let plan = ActingPlan(action, version: version, reading: try await read(for: action, version: version))
        return plan.steps.isEmpty ? plan : await apply(plan)
    }

    /// Applies `plan`'s steps in order, stopping at the first that fails, then reads the stores again.
    ///
    /// Each write is sent once. When one fails (refused, answered with a 5xx, not answered in
    /// time), the stores are read again and the step says what they show
    /// (``ActingStep/ReadBack``): a write the store shows done (its answer was lost) counts as
    /// done and the plan goes on; otherwise the plan stops there.
    ///
    /// `verified` is whether a new plan finds nothing left to do.
    ///
    /// A plan with refusals is returned as it is, nothing written.
    public func apply(_ plan: ActingPlan, regions: [String]? = nil) async -> ActingPlan {
        guard plan.refusals.isEmpty else { return plan }
        var applied = plan
        applied.apply = true
        var created: String?
        for index in applied.steps.indices {
            do {
                if case .deployRecovery(nil) = applied.steps[index].operation, let created,
                    let packageName = play?.packageName
                {
                    applied.steps[index].request =
                        (try? PlayDeveloperAPIClient.deployRecoveryRequest(
                            packageName: packageName, appRecoveryID: created)) ?? applied.steps[index].request
                }
                created = try await perform(applied.steps[index], created: created) ?? created
                applied.steps[index].done = true
            } catch {
                applied.steps[index].error = "\(error)"
                let (shown, again) = await readBack(applied.steps[index], plan: plan)
                applied.steps[index].readBack = shown
                guard shown == .done else {
                    applied.verified = false
                    return applied
                }
                applied.steps[index].done = true
                created = again?.createdRecovery(by: applied.steps[index]) ?? created
            }
        }
        do throws(ReleaseActorError) {
            let reading = try await read(for: plan.action, version: plan.version)
            if plan.action == .advance {
                // The gate's steps are checked one by one: the store shows each as done.
                applied.verified = applied.steps.allSatisfy { reading.shows($0, version: plan.version) == .done }
            } else {
                let again = ActingPlan(plan.action, version: plan.version, reading: reading, regions: regions)
                applied.verified = again.steps.isEmpty && again.refusals.isEmpty
            }
        } catch {
            applied.verified = false
        }
        return applied
    }

    /// What the stores show after `step` failed, read again (``ActingReading/shows(_:version:)``),
    /// with the reading when it was made.
    private func readBack(_ step: ActingStep, plan: ActingPlan) async -> (ActingStep.ReadBack, ActingReading?) {
        do throws(ReleaseActorError) {
            let again = try await read(for: plan.action, version: plan.version)
            return (again.shows(step, version: plan.version), again)
        } catch {
            return (.unknown("the read afterwards failed: \(error)"), nil)
        }
    }

    /// Sends one step; returns the id of an App Recovery action it created.
    private func perform(_ step: ActingStep, created: String?) async throws -> String? {
        switch step.operation {
        case .playRelease(let change):
            let (client, packageName) = try playWriter()
            _ = try await client.apply(change, packageName: packageName)
        case .phasedRelease(let id, let state):
            guard let appStoreConnect else {
                throw ReleaseActorError.notGiven("the step is for App Store Connect, which was not given")
            }
            _ = try await appStoreConnect.client.setPhasedRelease(id: id, to: state)
        case .createRecovery(let codes, let regions):
            let (client, packageName) = try playWriter()
            return try await client.createRecovery(packageName: packageName, versionCodes: codes, regions: regions)
                .appRecoveryID
        case .deployRecovery(let id):
            let (client, packageName) = try playWriter()
            guard let id = id ?? created else {
                throw ReleaseActorError.notGiven("no App Recovery action was created to deploy")
            }
            try await client.deployRecovery(id, packageName: packageName)
        case .writeManifest(let path, let manifest, let read):
            try ManifestFile.write(manifest, to: path, ifStill: read)
        }
        return nil
    }

    /// The client and app a Google Play step is sent with.
    private func playWriter() throws(ReleaseActorError) -> (PlayDeveloperAPIClient, String) {
        switch play {
        case .live(let packageName, _, let client)?: (client, packageName)
        case .stored?: throw .notGiven("the step is for Google Play, which was given as a stored track")
        case nil: throw .notGiven("the step is for Google Play, which was not given")
        }
    }

    /// Reads a v2 manifest, keeping its JSON as written.
    static func readManifest(_ path: String) throws(ReleaseActorError) -> ActingReading.Manifest {
        let found: Data?
        do throws(RegularFile.Problem) {
            found = try RegularFile.contents(path, limit: 1 << 20)
        } catch {
            throw .manifest("manifest \(path): \(error)")
        }
        guard let data = found else { throw .manifest("manifest \(path): no such file") }
        do {
            let json = try JSONValue(json: data)
            let manifest = try JSONDecoder().decode(ReleaseManifest.self, from: data)
            guard manifest.schemaVersion == 2 else {
                throw ReleaseActorError.manifest(
                    "manifest \(path) is version \(manifest.schemaVersion), not 2: recall writes blockedVersions, a key of "
                        + "version 2 (add \"schemaVersion\": 2); the file was not changed")
            }
            return ActingReading.Manifest(path: path, json: json, manifest: manifest)
        } catch let failure as ReleaseActorError {
            throw failure
        } catch let error as DecodingError {
            throw .manifest("manifest \(path) is not a release manifest: \(error.readableDescription)")
        } catch {
            throw .manifest("manifest \(path) is not a release manifest: \(error)")
        }
    }
}

/// Why reading or applying could not go on.
public enum ReleaseActorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A store could not be read.
    case read(Store, ReleaseSourceError)
    /// The manifest is missing, not JSON, or not version 2; it was not touched.
    case manifest(String)
    /// A step names a store this actor was not given, or a recovery action no step created.
    case notGiven(String)

    /// What happened.
    public var description: String {
        switch self {
        case .read(let store, let error): "\(store) could not be read: \(error)"
        case .manifest(let problem): problem
        case .notGiven(let what): "nothing was sent: \(what)"
        }
    }
}
