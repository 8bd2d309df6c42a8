import Foundation
import StoreReleaseCore

/// A version of an app in App Store Connect (`appStoreVersions`), with its phased release.
public struct AppStoreVersion: Sendable, Hashable {
    /// A version's state, as Apple names it; values Apple adds later are kept as they are.
    public struct State: OpenStringValue {
        /// Apple's name (`READY_FOR_DISTRIBUTION`).
        public let rawValue: String

        /// Wraps a state's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Users can download it.
        public static let readyForDistribution = Self(rawValue: "READY_FOR_DISTRIBUTION")
        /// Users can download it (the deprecated `appStoreState`'s name).
        public static let readyForSale = Self(rawValue: "READY_FOR_SALE")
        /// Approved; waiting for the developer to release it.
        public static let pendingDeveloperRelease = Self(rawValue: "PENDING_DEVELOPER_RELEASE")
        /// Approved; waiting for its scheduled date.
        public static let pendingAppleRelease = Self(rawValue: "PENDING_APPLE_RELEASE")
        /// Released, on its way to the storefronts.
        public static let processingForDistribution = Self(rawValue: "PROCESSING_FOR_DISTRIBUTION")
        /// Submitted; waiting for App Review.
        public static let waitingForReview = Self(rawValue: "WAITING_FOR_REVIEW")
        /// In App Review.
        public static let inReview = Self(rawValue: "IN_REVIEW")
        /// A newer version has been released.
        public static let replacedWithNewVersion = Self(rawValue: "REPLACED_WITH_NEW_VERSION")
        /// The developer removed it from sale (`appStoreState` only).
        public static let developerRemovedFromSale = Self(rawValue: "DEVELOPER_REMOVED_FROM_SALE")
        /// Apple removed it from sale (`appStoreState` only).
        public static let removedFromSale = Self(rawValue: "REMOVED_FROM_SALE")

        /// The states of a version on its way to users.
        ///
        /// Submitted (waiting for review or export compliance), in review, approved and waiting
        /// to be released, or released and processing.
        public static let onTheWay: Set<Self> = [
            .waitingForReview, Self(rawValue: "WAITING_FOR_EXPORT_COMPLIANCE"), Self(rawValue: "READY_FOR_REVIEW"),
            .inReview, Self(rawValue: "ACCEPTED"), .pendingDeveloperRelease, .pendingAppleRelease,
            .processingForDistribution, Self(rawValue: "PROCESSING_FOR_APP_STORE"), Self(rawValue: "PENDING_CONTRACT"),
            Self(rawValue: "PREORDER_READY_FOR_SALE"),
        ]

        /// Whether users can download the version.
        public var isLive: Bool { self == .readyForDistribution || self == .readyForSale }

        /// Whether the version was live and is now removed from sale.
        public var isRemovedFromSale: Bool { self == .developerRemovedFromSale || self == .removedFromSale }

        /// Whether the version is on its way to users (see ``onTheWay``).
        public var isOnTheWay: Bool { Self.onTheWay.contains(self) }

        /// Whether the version is in the past: replaced by a newer one.
        public var isRetired: Bool { self == .replacedWithNewVersion }
    }

    /// The App Store Connect id of the version.
    public let id: String
    /// The version string (`8.0.10`), or `nil` when it is not a version.
    public let version: Version?
    /// The version string as Apple sent it.
    public let versionString: String
    /// `appVersionState`, or the deprecated `appStoreState` when that is all there is.
    public let state: State
    /// The deprecated `appStoreState`, when Apple sent it beside `appVersionState`.
    ///
    /// It is the only place that says a version was removed from sale
    /// (`DEVELOPER_REMOVED_FROM_SALE`, `REMOVED_FROM_SALE`).
    public let storeState: State?
    /// `MANUAL`, `AFTER_APPROVAL` or `SCHEDULED`, if given.
    public let releaseType: String?
    /// The scheduled release date, if any.
    public let earliestReleaseDate: Date?
    /// When the version was created.
    public let createdDate: Date?
    /// Its phased release, if it has one.
    public let phasedRelease: PhasedRelease?

    /// Makes a version.
    public init(
        id: String, versionString: String, state: State, storeState: State? = nil, releaseType: String? = nil,
        earliestReleaseDate: Date? = nil, createdDate: Date? = nil, phasedRelease: PhasedRelease? = nil
    ) {
        self.id = id
        self.versionString = versionString
        self.version = Version(versionString)
        self.state = state
        self.storeState = storeState
        self.releaseType = releaseType
        self.earliestReleaseDate = earliestReleaseDate
        self.createdDate = createdDate
        self.phasedRelease = phasedRelease
    }

    /// Whether this is `version`: the text Apple sent is the version's, or reads as it (`8.0` is `8.0.0`).
    package func isVersion(_ version: Version) -> Bool {
        versionString == version.description || self.version == version
    }

    /// Whether the version is (or was, until removed) the one users can download.
    public var isLiveOrRemoved: Bool { state.isLive || isRemovedFromSale }

    /// Whether the app was removed from sale with this version (`appStoreState` says so).
    public var isRemovedFromSale: Bool { state.isRemovedFromSale || (storeState?.isRemovedFromSale ?? false) }
}

/// A version's phased release: the share of automatic updates that get it, by day.
public struct PhasedRelease: Sendable, Hashable {
    /// A phased release's state, as Apple names it; values Apple adds later are kept.
    public struct State: OpenStringValue {
        /// Apple's name (`ACTIVE`).
        public let rawValue: String

        /// Wraps a state's name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Not started (the version is not released yet).
        public static let inactive = Self(rawValue: "INACTIVE")
        /// Rolling out, day by day.
        public static let active = Self(rawValue: "ACTIVE")
        /// Paused by the developer (at most 30 days in all).
        public static let paused = Self(rawValue: "PAUSED")
        /// Every automatic update gets it.
        public static let complete = Self(rawValue: "COMPLETE")

        /// Whether the release is under way: active or paused.
        public var isInProgress: Bool { self == .active || self == .paused }
    }

    /// The share of automatic updates on each day, from day 1: Apple's fixed schedule.
    public static let schedule = [1, 2, 5, 10, 20, 50, 100]

    /// Where the phased release is.
    public let state: State
    /// The day of the release (1–7), if started.
    public let currentDayNumber: Int?
    /// Days paused in all.
    public let totalPauseDuration: Int?
    /// When it started (Apple sends a date-time: `2020-12-14T10:16:45Z`), if it did.
    public let startDate: Date?
    /// Apple's id of the phased release (`appStoreVersionPhasedReleases`), what a PATCH names.
    public let id: String?

    /// Makes a phased release.
    public init(
        state: State, currentDayNumber: Int?, totalPauseDuration: Int? = nil, startDate: Date? = nil, id: String? = nil
    ) {
        self.id = id
        self.state = state
        self.currentDayNumber = currentDayNumber
        self.totalPauseDuration = totalPauseDuration
        self.startDate = startDate
    }

    /// The share of automatic updates that get the version now, in percent.
    ///
    /// 100 when complete; 0 before it starts; by ``schedule`` for the current day while active or paused.
    public var percent: Int {
        if state == .complete { return 100 }
        guard let day = currentDayNumber, day >= 1 else { return 0 }
        return Self.schedule[min(day, Self.schedule.count) - 1]
    }

    /// Whether forcing everyone to update would defeat it: it is active or paused.
    public var isInProgress: Bool { state.isInProgress }

    /// Apple's limit on pausing: 30 days in all, after which the release cannot resume.
    public static let maximumPauseDays = 30
}
