/// Google Play's `InstallState`: what an install-state listener is told.
public struct InstallState: Sendable, Hashable, Codable {
    /// Where the download and install are.
    public var installStatus: InstallStatus
    /// `NO_ERROR` while in progress or on success.
    public var installErrorCode: InstallErrorCode
    /// Meaningful only while `DOWNLOADING`.
    public var bytesDownloaded: Int64
    /// The download's size in bytes; 0 when unknown.
    public var totalBytesToDownload: Int64
    /// The app's package name.
    public var packageName: String

    /// Makes a state.
    public init(
        installStatus: InstallStatus, installErrorCode: InstallErrorCode = .noError, bytesDownloaded: Int64 = 0,
        totalBytesToDownload: Int64 = 0, packageName: String
    ) {
        self.installStatus = installStatus
        self.installErrorCode = installErrorCode
        self.bytesDownloaded = bytesDownloaded
        self.totalBytesToDownload = totalBytesToDownload
        self.packageName = packageName
    }
}
