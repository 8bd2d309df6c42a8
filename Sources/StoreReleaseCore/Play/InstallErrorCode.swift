/// Google Play's `InstallErrorCode`: why an update could not be checked, downloaded or installed.
public struct InstallErrorCode: PlayConstant, Error {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// No error: the request succeeded or the update is still in progress (0).
    public static let noError = InstallErrorCode(value: .init(0, "NO_ERROR"))
    /// Deprecated in app-update 2.x; Play Core 1.x treated it as no error.
    public static let noErrorPartiallyAllowed = InstallErrorCode(value: .init(1, "NO_ERROR_PARTIALLY_ALLOWED"))
    /// An unknown error (-2); the fake reports it when availability is `UNKNOWN`.
    public static let errorUnknown = InstallErrorCode(value: .init(-2, "ERROR_UNKNOWN"))
    /// The API is not available: the app was not installed by Google Play.
    public static let errorAPINotAvailable = InstallErrorCode(value: .init(-3, "ERROR_API_NOT_AVAILABLE"))
    /// The request the app sent is malformed (-4).
    public static let errorInvalidRequest = InstallErrorCode(value: .init(-4, "ERROR_INVALID_REQUEST"))
    /// The install is unavailable to this user or device (-5).
    public static let errorInstallUnavailable = InstallErrorCode(value: .init(-5, "ERROR_INSTALL_UNAVAILABLE"))
    /// Not allowed in the device's state (low battery, low disk, not signed in to Play).
    public static let errorInstallNotAllowed = InstallErrorCode(value: .init(-6, "ERROR_INSTALL_NOT_ALLOWED"))
    /// `completeUpdate()` with nothing downloaded.
    public static let errorDownloadNotPresent = InstallErrorCode(value: .init(-7, "ERROR_DOWNLOAD_NOT_PRESENT"))
    /// `completeUpdate()` while installing.
    public static let errorInstallInProgress = InstallErrorCode(value: .init(-8, "ERROR_INSTALL_IN_PROGRESS"))
    /// The Play Store app is not installed or not the official one (-9).
    public static let errorPlayStoreNotFound = InstallErrorCode(value: .init(-9, "ERROR_PLAY_STORE_NOT_FOUND"))
    /// The Play account does not own the app: install it from Play once.
    public static let errorAppNotOwned = InstallErrorCode(value: .init(-10, "ERROR_APP_NOT_OWNED"))
    /// An internal error happened in the Play Store (-100).
    public static let errorInternalError = InstallErrorCode(value: .init(-100, "ERROR_INTERNAL_ERROR"))

    /// Every constant, in Play's order.
    public static let allValues: [InstallErrorCode] = [
        .noError, .noErrorPartiallyAllowed, .errorUnknown, .errorAPINotAvailable, .errorInvalidRequest,
        .errorInstallUnavailable, .errorInstallNotAllowed, .errorDownloadNotPresent, .errorInstallInProgress,
        .errorPlayStoreNotFound, .errorAppNotOwned, .errorInternalError,
    ]
}
