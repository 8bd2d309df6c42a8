import StoreReleaseCore

/// What one script line did: the JSON line `storerelease simulate` prints.
public struct UpdateFlowStep: Sendable, Hashable, Codable, EveryKeyEncodable {
    /// The line's number in the script, from 1.
    public let line: Int
    /// The event as written (verb and arguments).
    public let event: String
    /// Whether the flow accepted it; a refused event leaves the state unchanged.
    public let accepted: Bool
    /// `nil`, a camelCase code, or Play's error name (`ERROR_DOWNLOAD_NOT_PRESENT`).
    public let error: String?
    /// The install statuses listeners were told at this step, in order.
    public let announced: [InstallStatus]
    /// Play's availability after the event.
    public let updateAvailability: UpdateAvailability
    /// The install status after the event.
    public let installStatus: InstallStatus
    /// The install error code in force, as an integer.
    public let installErrorCode: Int
    /// The `versionCode` on offer after the event; 0 when none.
    public let availableVersionCode: Int
    /// Bytes downloaded so far.
    public let bytesDownloaded: Int64
    /// The download's size in bytes; 0 when unknown.
    public let totalBytesToDownload: Int64
    /// `flexible`, `immediate`, or `nil` when no flow is under way.
    public let updateTypeInProgress: AppUpdateType?
    /// The update types the record allows after the event (none while a flow is under way).
    public let allowedUpdateTypes: [AppUpdateType]

    init(line: Int, event: String, outcome: Result<[UpdateFlowAction], UpdateFlowError>, machine: UpdateFlowMachine) {
        self.line = line
        self.event = event
        switch outcome {
        case .success(let actions):
            accepted = true
            error = nil
            announced = actions.compactMap { action in
                if case .announce(let status) = action { return status }
                return nil
            }
        case .failure(let failure):
            accepted = false
            error = failure.code
            announced = []
        }
        let info = machine.appUpdateInfo
        updateAvailability = info.updateAvailability
        installStatus = info.installStatus
        installErrorCode = info.installErrorCode.rawValue
        availableVersionCode = info.availableVersionCode
        bytesDownloaded = info.bytesDownloaded
        totalBytesToDownload = info.totalBytesToDownload
        updateTypeInProgress = machine.typeInProgress
        allowedUpdateTypes = info.allowedUpdateTypes
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case line, event, accepted, error, announced, updateAvailability, installStatus, installErrorCode
        case availableVersionCode, bytesDownloaded, totalBytesToDownload, updateTypeInProgress, allowedUpdateTypes
    }
}
