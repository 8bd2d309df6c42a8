/// Google Play's `UpdateAvailability`: whether an update is available.
public struct UpdateAvailability: PlayConstant {
    public let rawValue: Int
    public let name: String

    private init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static let unknown = UpdateAvailability(0, "UNKNOWN")
    public static let updateNotAvailable = UpdateAvailability(1, "UPDATE_NOT_AVAILABLE")
    public static let updateAvailable = UpdateAvailability(2, "UPDATE_AVAILABLE")
    /// An update the app started is in progress: resume an immediate flow on every entry point.
    public static let developerTriggeredUpdateInProgress = UpdateAvailability(
        3, "DEVELOPER_TRIGGERED_UPDATE_IN_PROGRESS")

    public static let allValues: [UpdateAvailability] = [
        .unknown, .updateNotAvailable, .updateAvailable, .developerTriggeredUpdateInProgress,
    ]
    public static let typeName = "UpdateAvailability"
}
