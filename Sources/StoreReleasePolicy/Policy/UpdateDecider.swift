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
    /// The version "later" was said to (Play: the versionCode); a newer one ends the reminder.
    ///
    /// `nil`: "later" holds for any version, as before reminders followed the release.
    public var remindedVersion: Version?
    /// Where the installed build came from; only a store install is prompted.
    public var installChannel: InstallChannel
    /// A stable id of this install, for a manifest's staged rollout (a random UUID kept on the device).
    public var installID: String?

    /// Makes a context.
    public init(
        osVersion: Version? = nil, now: Date = Date(), skippedVersion: Version? = nil, lastPrompted: Date? = nil,
        typeInProgress: AppUpdateType? = nil, remindedVersion: Version? = nil,
        installChannel: InstallChannel = .appStore,
        installID: String? = nil
    ) {
        self.installID = installID
        self.remindedVersion = remindedVersion
        self.installChannel = installChannel
        self.osVersion = osVersion
        self.now = now
        self.skippedVersion = skippedVersion
        self.lastPrompted = lastPrompted
        self.typeInProgress = typeInProgress
    }
}

/// Where the installed build came from.
///
/// A store prompt is for store installs: a TestFlight, sandbox or debug build updates another way
/// (upgrader #450; Siren refuses TestFlight). See the guide for how an app tells them apart.
public enum InstallChannel: String, Sendable, Hashable, CaseIterable {
    /// Installed from the App Store or Google Play.
    case appStore
    /// A TestFlight build.
    case testFlight
    /// A sandbox (development-signed or ad hoc) build.
    case sandbox
    /// A debug build run from the IDE, or an APK not installed by Play.
    case debug
}

extension UpdateContext {
    /// Whether a "later" still holds for `version` at `now`, `hours` after it was said.
    func remindsLater(about version: Version, hours: Double) -> Bool {
        guard let prompted = lastPrompted, now < prompted.addingTimeInterval(hours * 3600) else { return false }
        guard let reminded = remindedVersion else { return true }
        return version <= reminded
    }
}

extension UpdatePolicy {
    /// The reasons of ``decide(release:installed:context:)``, in the order its rules apply.
    ///
    /// A manifest's `inReview` comes before all of them. The decision guide's table lists them
    /// in this order (a test keeps the two equal).
    public static let appStoreRules: [UpdateDecision.Reason] = [
        .notAvailable, .notFromTheStore, .upToDate, .installedIsNewer, .osTooOld, .blockedVersion,
        .belowMinimumSupported, .notInRollout, .releaseTooRecent, .forcedByVersionChange, .notForced, .changeTooSmall,
        .skippedVersion, .remindLater, .updateAvailable,
    ]

    /// The reasons of ``decide(play:installed:context:versionNames:)``, in the order its rules apply.
    public static let playRules: [UpdateDecision.Reason] = [
        .notFromTheStore, .downloaded, .updateInProgress, .notAvailable, .availabilityUnknown, .upToDate,
        .installedIsNewer, .highPriority, .staleForTooLong, .forcedByVersionChange, .notForced, .changeTooSmall,
        .skippedVersion, .remindLater, .updateTypeNotAllowed, .notStaleEnough, .updateAvailable,
    ]

    /// What a version-2 manifest adds to the App Store rules.
    struct ManifestRules {
        /// Installed versions that must update.
        var blocked: [Version] = []
        /// Whether the install is in the prompt's staged rollout.
        var inRollout = true
    }

    /// Decides what to do about a store release (App Store, manifest) for an installed version.
    ///
    /// The rules, first match wins (``appStoreRules``): not a store install → `notFromTheStore`;
    /// equal → `upToDate`; installed newer (in review, TestFlight) → `installedIsNewer`, never a
    /// prompt; OS too old → `osTooOld`; a manifest's blocked version → `immediate`; below the
    /// minimum supported version → `immediate`; outside a manifest's rollout → `notInRollout`;
    /// release younger than the delay → `releaseTooRecent`; forced by the version change →
    /// `immediate`; ``onlyForced`` → `notForced`; a change below ``promptOn`` → `changeTooSmall`;
    /// the skipped version → `skippedVersion`; "later" within the change's remind interval, about
    /// this version or a newer one → `remindLater`; otherwise `flexible`.
    public func decide(release: StoreRelease, installed: Version, context: UpdateContext = UpdateContext())
        -> UpdateDecision
    {
        decide(release: release, installed: installed, context: context, manifest: ManifestRules())
    }

    /// The App Store rules, with a manifest's blocked versions and rollout.
    func decide(release: StoreRelease, installed: Version, context: UpdateContext, manifest: ManifestRules)
        -> UpdateDecision
    {
        func decision(_ action: UpdateDecision.Action, _ reason: UpdateDecision.Reason) -> UpdateDecision {
            UpdateDecision(
                action: action, reason: reason, installedVersion: installed.description,
                storeVersion: release.version?.description, storeURL: release.storeURL,
                releaseNotes: release.releaseNotes)
        }
        guard let storeVersion = release.version else { return decision(.none, .notAvailable) }
        if context.installChannel != .appStore { return decision(.none, .notFromTheStore) }
        if storeVersion == installed { return decision(.none, .upToDate) }
        if storeVersion < installed { return decision(.none, .installedIsNewer) }
        if let minimum = release.minimumOSVersion, let os = context.osVersion, os < minimum {
            return decision(.none, .osTooOld)
        }
        if manifest.blocked.contains(installed) { return decision(.immediate, .blockedVersion) }
        if let minimum = minimumSupportedVersion, installed < minimum {
            return decision(.immediate, .belowMinimumSupported)
        }
        if !manifest.inRollout { return decision(.none, .notInRollout) }
        if let released = release.releaseDate, context.now < released.addingTimeInterval(releaseDelayHours * 3600) {
            return decision(.none, .releaseTooRecent)
        }
        let change = storeVersion.change(from: installed)
        if let level = forceUpdateOn, let change, change >= level {
            return decision(.immediate, .forcedByVersionChange)
        }
        if onlyForced { return decision(.none, .notForced) }
        if let smallest = promptOn, let change, change < smallest { return decision(.none, .changeTooSmall) }
        if let skipped = context.skippedVersion, skipped == storeVersion { return decision(.none, .skippedVersion) }
        if context.remindsLater(about: storeVersion, hours: remindHours(for: change)) {
            return decision(.none, .remindLater)
        }
        return decision(.flexible, .updateAvailable)
    }

    /// Decides what to do about a Play update record for the installed `versionCode`.
    ///
    /// The rules, first match wins (``playRules``): not installed by Play → `notFromTheStore`;
    /// DOWNLOADED → `completeUpdate`; an update in progress → `none` / `updateInProgress` when the
    /// app started a flexible one (its listener reports the download), else `resumeImmediate`
    /// (Google's guide: resume an immediate update at every entry point; an unknown type counts
    /// as immediate); not available → `none`; the available code not above the installed one →
    /// `upToDate` or `installedIsNewer`; priority at least ``immediatePriority`` with IMMEDIATE
    /// allowed → `immediate`; stale for ``immediateStalenessDays`` with IMMEDIATE allowed →
    /// `immediate`; with `versionNames` naming both versionCodes (a manifest's), a change at
    /// least ``forceUpdateOn`` with IMMEDIATE allowed → `immediate`; ``onlyForced`` →
    /// `notForced`; with the names, a change below ``promptOn`` → `changeTooSmall`; the skipped
    /// versionCode → `skippedVersion`; "later" within the remind interval (the change's, with
    /// the names), said to this versionCode or a higher one → `remindLater`; FLEXIBLE not allowed →
    /// `updateTypeNotAllowed`; not stale enough → `notStaleEnough`; otherwise `flexible`.
    ///
    /// A type counts as allowed when Play allows it only once asset packs may be deleted; the
    /// decision then says ``UpdateDecision/allowAssetPackDeletion`` and names the preconditions
    /// Play reported for it (``UpdateDecision/failedPreconditions``), as it does for a type not
    /// allowed at all (`updateTypeNotAllowed`).
    public func decide(
        play info: AppUpdateInfo, installed: VersionCode, context: UpdateContext = UpdateContext(),
        versionNames: [VersionCode: Version] = [:]
    ) -> UpdateDecision {
        func decision(
            _ action: UpdateDecision.Action, _ reason: UpdateDecision.Reason, about type: AppUpdateType? = nil,
            deleting: Bool = false
        ) -> UpdateDecision {
            let failed = type.map { info.failedPreconditions[$0] ?? [] } ?? []
            return UpdateDecision(
                action: action, reason: reason, installedVersion: installed.description,
                storeVersion: info.versionCode?.description, storeURL: nil, releaseNotes: nil,
                failedPreconditions: failed.sorted { $0.rawValue < $1.rawValue }.map(\.name),
                allowAssetPackDeletion: deleting)
        }
        /// Whether Play would start `type`, and whether only once asset packs may be deleted.
        func allowance(_ type: AppUpdateType) -> (allowed: Bool, deleting: Bool) {
            if info.isUpdateTypeAllowed(type) { return (true, false) }
            let deleting = info.isUpdateTypeAllowed(AppUpdateOptions(appUpdateType: type, allowAssetPackDeletion: true))
            return (deleting, deleting)
        }
        if context.installChannel != .appStore { return decision(.none, .notFromTheStore) }
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
        let immediate = allowance(.immediate)
        if info.updatePriority >= immediatePriority, immediate.allowed {
            return decision(.immediate, .highPriority, about: .immediate, deleting: immediate.deleting)
        }
        if let days = immediateStalenessDays, staleness >= days, immediate.allowed {
            return decision(.immediate, .staleForTooLong, about: .immediate, deleting: immediate.deleting)
        }
        let change = versionNames[available].flatMap { new in versionNames[installed].flatMap { new.change(from: $0) } }
        if let level = forceUpdateOn, let change, change >= level, immediate.allowed {
            return decision(.immediate, .forcedByVersionChange, about: .immediate, deleting: immediate.deleting)
        }
        if onlyForced { return decision(.none, .notForced) }
        if let smallest = promptOn, let change, change < smallest { return decision(.none, .changeTooSmall) }
        if let skipped = context.skippedVersion, skipped.description == available.description {
            return decision(.none, .skippedVersion)
        }
        if let code = Version(available.description), context.remindsLater(about: code, hours: remindHours(for: change))
        {
            return decision(.none, .remindLater)
        }
        let flexible = allowance(.flexible)
        if !flexible.allowed { return decision(.none, .updateTypeNotAllowed, about: .flexible) }
        if staleness < flexibleStalenessDays { return decision(.none, .notStaleEnough) }
        return decision(.flexible, .updateAvailable, about: .flexible, deleting: flexible.deleting)
    }
}
