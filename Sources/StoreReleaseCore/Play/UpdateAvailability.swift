/// Google Play's `UpdateAvailability`: whether an update is available.
public struct UpdateAvailability: PlayConstant {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// Play could not tell whether an update is available (0).
    public static let unknown = UpdateAvailability(value: .init(0, "UNKNOWN"))
    /// The installed version is the newest (1).
    public static let updateNotAvailable = UpdateAvailability(value: .init(1, "UPDATE_NOT_AVAILABLE"))
    /// A newer version is available for this device (2).
    public static let updateAvailable = UpdateAvailability(value: .init(2, "UPDATE_AVAILABLE"))
    /// An update the app started is in progress: resume an immediate flow on every entry point.
    public static let developerTriggeredUpdateInProgress = UpdateAvailability(
        value: .init(
            3, "DEVELOPER_TRIGGERED_UPDATE_IN_PROGRESS"))

    /// Every constant, in Play's order.
    public static let allValues: [UpdateAvailability] = [
        .unknown, .updateNotAvailable, .updateAvailable, .developerTriggeredUpdateInProgress,
    ]
}
