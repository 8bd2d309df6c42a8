import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What the app knows besides the release.
///
/// The device, the clock, and the prompt history.
public struct UpdateContext: Sendable, Hashable {
    /// The device's OS version, to respect the release's `minimumOSVersion`.
    public var osVersion: Version?
    /// Now.
    public var now: Date
    /// The version the user chose to skip.
    public var skippedVersion: Version?
    /// When the user was last prompted (and chose "later").
    public var lastPrompted: Date?
    /// The type of the Play update flow the app started, if it remembers; Play's record does not say.
    public var typeInProgress: AppUpdateType?

    /// Makes a context.
    public init(
        osVersion: Version? = nil, now: Date = Date(), skippedVersion: Version? = nil, lastPrompted: Date? = nil,
        typeInProgress: AppUpdateType? = nil
    ) {
        self.osVersion = osVersion
        self.now = now
        self.skippedVersion = skippedVersion
        self.lastPrompted = lastPrompted
        self.typeInProgress = typeInProgress
    }
}

extension UpdatePolicy {
    /// Decides what to do about a store release (App Store, manifest) for an installed version.
    ///
    /// The rules, first match wins: equal → `upToDate`; installed newer (in review, TestFlight)
    /// → `installedIsNewer`, never a prompt; OS too old → `osTooOld`; below the minimum supported
    /// version → `immediate`; release younger than the delay → `releaseTooRecent`; forced by the
    /// version change → `immediate`; the skipped version → `skippedVersion`; prompted too
    /// recently → `remindLater`; otherwise `flexible`.
    public func decide(release: StoreRelease, installed: Version, context: UpdateContext = UpdateContext())
        -> UpdateDecision
    {
        func decision(_ action: UpdateDecision.Action, _ reason: UpdateDecision.Reason) -> UpdateDecision {
            UpdateDecision(
                action: action, reason: reason, installedVersion: installed.description,
                storeVersion: release.version?.description, storeURL: release.storeURL,
                releaseNotes: release.releaseNotes)
        }
        guard let storeVersion = release.version else { return decision(.none, .notAvailable) }
        if storeVersion == installed { return decision(.none, .upToDate) }
        if storeVersion < installed { return decision(.none, .installedIsNewer) }
        if let minimum = release.minimumOSVersion, let os = context.osVersion, os < minimum {
            return decision(.none, .osTooOld)
        }
        if let minimum = minimumSupportedVersion, installed < minimum {
            return decision(.immediate, .belowMinimumSupported)
        }
        if let released = release.releaseDate, context.now < released.addingTimeInterval(releaseDelayHours * 3600) {
            return decision(.none, .releaseTooRecent)
        }
        if let level = forceUpdateOn, let change = storeVersion.change(from: installed), change >= level {
            return decision(.immediate, .forcedByVersionChange)
        }
        if let skipped = context.skippedVersion, skipped == storeVersion { return decision(.none, .skippedVersion) }
        if let prompted = context.lastPrompted, context.now < prompted.addingTimeInterval(remindAfterHours * 3600) {
            return decision(.none, .remindLater)
        }
        return decision(.flexible, .updateAvailable)
    }

    /// Decides what to do about a Play update record for the installed `versionCode`.
    ///
    /// The rules, first match wins: DOWNLOADED → `completeUpdate`; an update in progress →
    /// `none` / `updateInProgress` when the app started a flexible one (its listener reports the
    /// download), else `resumeImmediate` (Google's guide: resume an immediate update at every
    /// entry point; an unknown type is treated as immediate); not available → `none`; the available code not above the installed
    /// one → `upToDate` or `installedIsNewer`; priority at least ``immediatePriority`` with
    /// IMMEDIATE allowed → `immediate`; stale for ``immediateStalenessDays`` with IMMEDIATE
    /// allowed → `immediate`; the skipped version code → `skippedVersion`; prompted too
    /// recently → `remindLater`; FLEXIBLE not allowed → `updateTypeNotAllowed`; not stale enough
    /// → `notStaleEnough`; otherwise `flexible`.
    public func decide(play info: AppUpdateInfo, installed: VersionCode, context: UpdateContext = UpdateContext())
        -> UpdateDecision
    {
        func decision(_ action: UpdateDecision.Action, _ reason: UpdateDecision.Reason) -> UpdateDecision {
            UpdateDecision(
                action: action, reason: reason, installedVersion: installed.description,
                storeVersion: info.versionCode?.description, storeURL: nil, releaseNotes: nil)
        }
        if info.installStatus == .downloaded { return decision(.completeUpdate, .downloaded) }
        switch info.updateAvailability {
        case .developerTriggeredUpdateInProgress:
            let action: UpdateDecision.Action = context.typeInProgress == .flexible ? .none : .resumeImmediate
            return decision(action, .updateInProgress)
        case .updateNotAvailable: return decision(.none, .notAvailable)
        case .updateAvailable: break
        default: return decision(.none, .availabilityUnknown)
        }
        guard let available = info.versionCode else { return decision(.none, .notAvailable) }
        if available == installed { return decision(.none, .upToDate) }
        if available < installed { return decision(.none, .installedIsNewer) }
        let staleness = info.clientVersionStalenessDays ?? 0
        if info.updatePriority >= immediatePriority, info.isUpdateTypeAllowed(.immediate) {
            return decision(.immediate, .highPriority)
        }
        if let days = immediateStalenessDays, staleness >= days, info.isUpdateTypeAllowed(.immediate) {
            return decision(.immediate, .staleForTooLong)
        }
        if let skipped = context.skippedVersion, skipped.description == available.description {
            return decision(.none, .skippedVersion)
        }
        if let prompted = context.lastPrompted, context.now < prompted.addingTimeInterval(remindAfterHours * 3600) {
            return decision(.none, .remindLater)
        }
        if !info.isUpdateTypeAllowed(.flexible) { return decision(.none, .updateTypeNotAllowed) }
        if staleness < flexibleStalenessDays { return decision(.none, .notStaleEnough) }
        return decision(.flexible, .updateAvailable)
    }
}
