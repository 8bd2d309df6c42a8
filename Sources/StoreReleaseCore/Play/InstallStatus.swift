/// Google Play's `InstallStatus`: where an update's download and install are.
public struct InstallStatus: PlayConstant {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// No update is in progress, or its state is unknown (0).
    public static let unknown = InstallStatus(value: .init(0, "UNKNOWN"))
    /// The user accepted; the download has not started yet (1).
    public static let pending = InstallStatus(value: .init(1, "PENDING"))
    /// The update is downloading (2).
    public static let downloading = InstallStatus(value: .init(2, "DOWNLOADING"))
    /// The downloaded update is installing (3).
    public static let installing = InstallStatus(value: .init(3, "INSTALLING"))
    /// The update was installed (4); transient: listeners see it, `appUpdateInfo` never does.
    public static let installed = InstallStatus(value: .init(4, "INSTALLED"))
    /// The download or install failed (5); transient, like ``installed``.
    public static let failed = InstallStatus(value: .init(5, "FAILED"))
    /// The user cancelled the download (6); transient, like ``installed``.
    public static let canceled = InstallStatus(value: .init(6, "CANCELED"))
    /// Legacy (Play Core 1.x); no longer on Google's reference page, but old devices report it.
    public static let requiresUIIntent = InstallStatus(value: .init(10, "REQUIRES_UI_INTENT"))
    /// Downloaded, waiting for `completeUpdate()`.
    public static let downloaded = InstallStatus(value: .init(11, "DOWNLOADED"))

    /// Every constant, in Play's order.
    public static let allValues: [InstallStatus] = [
        .unknown, .pending, .downloading, .installing, .installed, .failed, .canceled, .requiresUIIntent, .downloaded,
    ]
}
