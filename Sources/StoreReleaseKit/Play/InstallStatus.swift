/// Google Play's `InstallStatus`: where an update's download and install are.
public struct InstallStatus: PlayConstant {
    public let rawValue: Int
    public let name: String

    private init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static let unknown = InstallStatus(0, "UNKNOWN")
    public static let pending = InstallStatus(1, "PENDING")
    public static let downloading = InstallStatus(2, "DOWNLOADING")
    public static let installing = InstallStatus(3, "INSTALLING")
    public static let installed = InstallStatus(4, "INSTALLED")
    public static let failed = InstallStatus(5, "FAILED")
    public static let canceled = InstallStatus(6, "CANCELED")
    /// Legacy (Play Core 1.x); no longer on Google's reference page, but old devices report it.
    public static let requiresUIIntent = InstallStatus(10, "REQUIRES_UI_INTENT")
    /// Downloaded, waiting for `completeUpdate()`.
    public static let downloaded = InstallStatus(11, "DOWNLOADED")

    public static let allValues: [InstallStatus] = [
        .unknown, .pending, .downloading, .installing, .installed, .failed, .canceled, .requiresUIIntent, .downloaded,
    ]
    public static let typeName = "InstallStatus"
}
