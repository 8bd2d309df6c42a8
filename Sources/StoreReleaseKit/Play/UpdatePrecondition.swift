/// Google Play's `UpdatePrecondition` (app-update 2.x): why an update type is not allowed.
public struct UpdatePrecondition: PlayConstant {
    public let rawValue: Int
    public let name: String

    private init(_ rawValue: Int, _ name: String) {
        self.rawValue = rawValue
        self.name = name
    }

    public static let unknown = UpdatePrecondition(0, "UNKNOWN")
    public static let cannotDisplay = UpdatePrecondition(1, "CANNOT_DISPLAY")
    public static let needStoreToProceed = UpdatePrecondition(2, "NEED_STORE_TO_PROCEED")
    public static let insufficientStorage = UpdatePrecondition(3, "INSUFFICIENT_STORAGE")
    public static let deviceStatus = UpdatePrecondition(4, "DEVICE_STATUS")
    public static let appVersionFresh = UpdatePrecondition(5, "APP_VERSION_FRESH")

    public static let allValues: [UpdatePrecondition] = [
        .unknown, .cannotDisplay, .needStoreToProceed, .insufficientStorage, .deviceStatus, .appVersionFresh,
    ]
    public static let typeName = "UpdatePrecondition"
}
