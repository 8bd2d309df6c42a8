/// Google Play's `UpdateAvailability`: whether an update is available.
public struct UpdateAvailability: PlayConstant {
    /// Play's integer value.
    public let rawValue: Int
    /// Play's constant name.
    public let name: String

    private init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    /// Play could not tell whether an update is available (0).
    public static let unknown = UpdateAvailability(0, "UNKNOWN")
    /// The installed version is the newest (1).
    public static let updateNotAvailable = UpdateAvailability(1, "UPDATE_NOT_AVAILABLE")
    /// A newer version is available for this device (2).
    public static let updateAvailable = UpdateAvailability(2, "UPDATE_AVAILABLE")
    /// An update the app started is in progress: resume an immediate flow on every entry point.
    public static let developerTriggeredUpdateInProgress = UpdateAvailability(
        3, "DEVELOPER_TRIGGERED_UPDATE_IN_PROGRESS")

    /// Every constant, in Play's order.
    public static let allValues: [UpdateAvailability] = [
        .unknown, .updateNotAvailable, .updateAvailable, .developerTriggeredUpdateInProgress,
    ]
    /// The type's name in Play's API.
    public static let typeName = "UpdateAvailability"
}
