import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension ActingPlan {
    /// The plan for `action` on `version`, from what `reading` holds: pure, nothing is sent.
    ///
    /// - Parameters:
    ///   - action: What to do.
    ///   - version: The version (its name; on Play, the release's name carries it).
    ///   - reading: The stores as just read.
    ///   - regions: For recall, the regions App Recovery targets (`nil`: all users).
    public init(_ action: ReleaseAction, version: Version, reading: ActingReading, regions: [String]? = nil) {
        var planner = Planner(action: action, version: version, regions: regions)
        if let play = reading.googlePlay { planner.plan(play) }
        if let connect = reading.appStoreConnect { planner.plan(connect) }
        if action == .recall { planner.planManifest(reading.manifest) }
        self.init(
            action: action, version: version, steps: planner.steps, refusals: planner.refusals, notes: planner.notes)
    }

    /// What each store given has, for the error when none carries the version.
    ///
    /// `nil` when some store carries it.
    public static func whereMissing(_ version: Version, in reading: ActingReading) -> String? {
        var seen: [String] = []
        if let play = reading.googlePlay {
            if play.tracksRead.contains(where: { $0.releases.contains { $0.version == version } }) { return nil }
            let releases = play.tracksRead.flatMap { track in
                track.releases.map { "\($0.version?.description ?? $0.name ?? "?") (\(track.track), \($0.status))" }
            }
            seen.append("Google Play has " + (releases.isEmpty ? "no release" : releases.joined(separator: ", ")))
        }
        if let connect = reading.appStoreConnect {
            let versions = connect.versions ?? []
            if versions.contains(where: { $0.isVersion(version) }) { return nil }
            let listed = versions.map { "\($0.versionString) (\($0.state))" }
            seen.append("App Store Connect has " + (listed.isEmpty ? "no version" : listed.joined(separator: ", ")))
        }
        guard !seen.isEmpty else { return nil }
        return "\(version) is on no store read: " + seen.joined(separator: "; ")
    }
}

/// Builds a plan's steps, refusals and notes, store by store.
private struct Planner {
    let action: ReleaseAction
    let version: Version
    let regions: [String]?
    var steps: [ActingStep] = []
    var refusals: [String] = []
    var notes: [String] = []

    init(action: ReleaseAction, version: Version, regions: [String]?) {
        self.action = action
        self.version = version
        self.regions = regions
    }

    /// The statuses a Play release moves between for the action: from → to.
    private var playMove: (from: [PlayTrackRelease.Status], to: PlayTrackRelease.Status)? {
        move(running: .inProgress, stopped: .halted, done: .completed)
    }

    /// What the action moves a release between, in a store's own states: halt stops a running
    /// release, resume runs a stopped one, complete finishes either; recall and advance move none.
    private func move<State>(running: State, stopped: State, done: State) -> (from: [State], to: State)? {
        switch action {
        case .halt: ([running], stopped)
        case .resume: ([stopped], running)
        case .complete: ([running, stopped], done)
        case .recall, .advance: nil
        }
    }

    /// Why Play would refuse the track the action writes, or `nil`: the rules a track keeps
    /// (`../reference/play-track-rules.md`).
    ///
    /// - A halt that leaves the track with nothing serving users: Play answers the commit with a
    ///   500 (xroche/httrack-android PR #137).
    /// - A resume beside another staged release: one `inProgress` or `halted` release a track,
    ///   `Too many staged releases specified` (fastlane PR #29134).
    ///
    /// A completion writes the new completed release in place of the earlier one (one completed
    /// release a track, `Too many completed releases specified`: fastlane #15772), so it has no
    /// rule here: ``PlayReleaseChange/applied(to:)`` drops the earlier one.
    static func trackRule(_ action: ReleaseAction, release: PlayTrackRelease, name: String, track: PlayTrack)
        -> String?
    {
        let others = track.releases.filter { $0 != release }
        switch action {
        case .halt where !others.contains(where: \.isServing):
            return "Google Play: halting \(name) would leave \(track.track) with no release serving, which Play "
                + "refuses (HTTP 500 at commit); complete it, or publish a newer release and halt then"
        case .resume:
            guard let staged = others.first(where: { $0.status == .inProgress || $0.status == .halted }) else {
                return nil
            }
            return "Google Play: \(staged.label) is \(staged.status) on \(track.track), and Play allows one staged "
                + "release a track (\"Too many staged releases specified\"): complete or halt it before resuming \(name)"
        case .halt, .complete, .recall, .advance:
            return nil
        }
    }

    /// The refusal to halt a completed release: what Play allows, and where.
    ///
    /// Since 2025 Play halts a fully rolled-out release on any track but internal, unless it is
    /// the track's first release, serving the previous completed one again
    /// (support.google.com/googleplay/android-developer/answer/16285429). Google's help says the
    /// Publishing API can do it, but the request is in neither the discovery document nor a
    /// public client we found, so none is sent on a guess.
    static func completedHaltRefusal(_ name: String, track: String, version: Version) -> String {
        "Google Play: \(name) is completed on \(track). Play halts a fully rolled-out release (any track but "
            + "internal, not a track's first release; the previous completed release is served again: "
            + "support.google.com/googleplay/android-developer/answer/16285429) from the Play Console: the "
            + "track's Releases tab, Manage rollout > Halt rollout. Google has not published the Publishing API "
            + "request for it, so this tool sends none. Or roll forward (publish a newer release), or recall "
            + "\(version)"
    }

    mutating func plan(_ play: StoreReading.GooglePlay) {
        let carrying = play.tracksRead.flatMap { track in
            track.releases.filter { $0.version == version }.map { (track, $0) }
        }
        guard !carrying.isEmpty else {
            notes.append("Google Play: no release of \(version) on any track")
            return
        }
        guard let move = playMove else {
            // advance's steps come from the rollout gate's decision (ActingPlan.advance).
            if action == .recall { planRecall(play) }
            return
        }
        let track = play.track
        guard let release = track.release(of: version) else {
            notes.append(
                "Google Play: \(version) is not on \(track.track) (only on "
                    + carrying.map(\.0.track).joined(separator: ", ") + "); name the track it is on")
            return
        }
        let name = release.label
        if release.status == move.to {
            notes.append("Google Play: \(name) is \(release.status) on \(track.track) already")
            return
        }
        guard move.from.contains(release.status) else {
            if action == .halt, release.status == .completed {
                refusals.append(Self.completedHaltRefusal(name, track: track.track, version: version))
            } else {
                notes.append("Google Play: \(name) is \(release.status) on \(track.track): nothing to \(action)")
            }
            return
        }
        if let refusal = Self.trackRule(action, release: release, name: name, track: track) {
            refusals.append(refusal)
            return
        }
        let change = PlayReleaseChange(
            track: track.track, versionCodes: release.versionCodes, from: release.status, to: move.to,
            version: release.version)
        guard let json = try? JSONValue(encoding: track) else {
            refusals.append("Google Play: the track \(track.track) cannot be written back as JSON")
            return
        }
        do throws(HTTPClientError) {
            let request = try PlayDeveloperAPIClient.trackUpdateRequest(
                change, track: json, packageName: play.packageName ?? "")
            steps.append(
                ActingStep(
                    store: .googlePlay, from: release.status.rawValue, to: move.to.rawValue, request: request,
                    operation: .playRelease(change)))
        } catch {
            refusals.append("Google Play: \(error)")
        }
    }

    private mutating func planRecall(_ play: StoreReading.GooglePlay) {
        let codes = play.versionCodes(of: version)
        let top = codes.max()?.rawValue ?? 0
        for track in play.tracksRead
        where track.releases.contains(where: { !Set($0.versionCodes).isDisjoint(with: codes) }) {
            let newer = track.releases.contains { release in
                (release.status == .completed || release.status == .inProgress)
                    && (release.highestVersionCode?.rawValue ?? 0) > top
            }
            if !newer {
                refusals.append(
                    "Google Play: \(track.track) holds \(version) (versionCode "
                        + codes.map(\.description).joined(separator: ", ")
                        + ") and no newer version is published there: users asked to update would find nothing newer")
            }
        }
        let covering = (play.recoveryActions ?? []).filter { action in
            // Regions are a set: Play may list them in another order than --regions gave them.
            Set(codes).isSubset(of: Set(action.versionCodes)) && action.regions.map(Set.init) == regions.map(Set.init)
                && [.active, .draft, .generationInProgress].contains(action.status)
        }
        if let active = covering.first(where: { $0.status == .active || $0.status == .generationInProgress }) {
            notes.append("Google Play: App Recovery action \(active.appRecoveryID) already prompts \(version)'s users")
            return
        }
        do throws(HTTPClientError) {
            if let draft = covering.first {
                steps.append(
                    ActingStep(
                        store: .googlePlay, from: draft.status.rawValue, to: PlayRecoveryAction.Status.active.rawValue,
                        request: try PlayDeveloperAPIClient.deployRecoveryRequest(
                            packageName: play.packageName ?? "", appRecoveryID: draft.appRecoveryID),
                        operation: .deployRecovery(appRecoveryID: draft.appRecoveryID)))
                return
            }
            steps.append(
                ActingStep(
                    store: .googlePlay, from: "none", to: PlayRecoveryAction.Status.draft.rawValue,
                    request: try PlayDeveloperAPIClient.createRecoveryRequest(
                        packageName: play.packageName ?? "", versionCodes: codes, regions: regions),
                    operation: .createRecovery(versionCodes: codes, regions: regions)))
            steps.append(
                ActingStep(
                    store: .googlePlay, from: PlayRecoveryAction.Status.draft.rawValue,
                    to: PlayRecoveryAction.Status.active.rawValue,
                    request: try PlayDeveloperAPIClient.deployRecoveryRequest(packageName: play.packageName ?? ""),
                    operation: .deployRecovery(appRecoveryID: nil)))
        } catch {
            refusals.append("Google Play: \(error)")
        }
    }

    /// The phased-release state the action moves to, and the states it moves from.
    private var phasedMove: (from: [PhasedRelease.State], to: PhasedRelease.State)? {
        move(running: .active, stopped: .paused, done: .complete)
    }

    mutating func plan(_ connect: StoreReading.AppStoreConnect) {
        if action == .advance { return }
        guard let move = phasedMove else {
            notes.append(
                "App Store: Apple has no recall; the manifest's blockedVersions makes the app's own check ask "
                    + "\(version)'s users to update")
            return
        }
        guard let found = connect.versions?.first(where: { $0.isVersion(version) }) else {
            notes.append("App Store Connect: the app has no version \(version)")
            return
        }
        guard let phase = found.phasedRelease, let id = phase.id else {
            notes.append("App Store Connect: \(version) has no phased release (\(found.state)): nothing to \(action)")
            return
        }
        if phase.state == move.to {
            notes.append("App Store Connect: \(version)'s phased release is \(phase.state) already")
            return
        }
        guard move.from.contains(phase.state) else {
            notes.append(
                "App Store Connect: \(version)'s phased release is \(phase.state): nothing to \(action)")
            return
        }
        if action == .resume, let paused = phase.totalPauseDuration, paused >= PhasedRelease.maximumPauseDays {
            refusals.append(
                "App Store Connect: \(version)'s phased release has been paused \(paused) days, Apple's limit is "
                    + "\(PhasedRelease.maximumPauseDays): it cannot resume; complete it (release to all) instead")
            return
        }
        do throws(HTTPClientError) {
            steps.append(
                ActingStep(
                    store: .appStore, from: phase.state.rawValue, to: move.to.rawValue,
                    request: try AppStoreConnectClient.phasedReleaseRequest(id: id, state: move.to),
                    operation: .phasedRelease(id: id, state: move.to)))
        } catch {
            refusals.append("App Store Connect: \(error)")
        }
    }

    mutating func planManifest(_ reading: ActingReading.Manifest?) {
        guard let reading else { return }
        let manifest = reading.manifest
        guard manifest.latestVersion > version else {
            refusals.append(
                "manifest \(reading.path): latestVersion \(manifest.latestVersion) is not newer than \(version): "
                    + "publish a newer version first, or users blocked on \(version) have nothing to update to")
            return
        }
        let blocked = manifest.blockedVersions.map(\.description)
        if manifest.blockedVersions.contains(version) {
            notes.append("manifest \(reading.path): \(version) is in blockedVersions already")
            return
        }
        guard case .object(var members) = reading.json else { return }
        let after = blocked + [version.description]
        members["blockedVersions"] = .array(after.map(JSONValue.string))
        let shown = { (list: [String]) in "blockedVersions [" + list.joined(separator: ", ") + "]" }
        steps.append(
            ActingStep(
                store: .manifest, from: shown(blocked), to: shown(after),
                request: StoreRequest(method: "WRITE", path: reading.path, body: .object(members)),
                operation: .writeManifest(path: reading.path, manifest: .object(members), read: reading.json)))
    }
}
