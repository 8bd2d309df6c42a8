/// Google Play's `UpdatePrecondition` (app-update 2.x): why an update type is not allowed.
public struct UpdatePrecondition: PlayConstant {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// A precondition Play did not name (0).
    public static let unknown = UpdatePrecondition(value: .init(0, "UNKNOWN"))
    /// The update dialog cannot be shown now, say with the app in the background (1).
    public static let cannotDisplay = UpdatePrecondition(value: .init(1, "CANNOT_DISPLAY"))
    /// The app can be updated only from within the Play Store (2).
    public static let needStoreToProceed = UpdatePrecondition(value: .init(2, "NEED_STORE_TO_PROCEED"))
    /// The device lacks the space to download the update (3).
    public static let insufficientStorage = UpdatePrecondition(value: .init(3, "INSUFFICIENT_STORAGE"))
    /// The device's state does not allow an update, say a battery too low (4).
    public static let deviceStatus = UpdatePrecondition(value: .init(4, "DEVICE_STATUS"))
    /// The app was already updated recently (5).
    public static let appVersionFresh = UpdatePrecondition(value: .init(5, "APP_VERSION_FRESH"))

    /// Every constant, in Play's order.
    public static let allValues: [UpdatePrecondition] = [
        .unknown, .cannotDisplay, .needStoreToProceed, .insufficientStorage, .deviceStatus, .appVersionFresh,
    ]
}
