/// Google Play's `InstallState`: what an install-state listener is told.
public struct InstallState: Sendable, Hashable, Codable {
    public var installStatus: InstallStatus
    /// `NO_ERROR` while in progress or on success.
    public var installErrorCode: InstallErrorCode
    /// Meaningful only while `DOWNLOADING`.
    public var bytesDownloaded: Int64
    public var totalBytesToDownload: Int64
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
