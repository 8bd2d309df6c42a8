/// The result codes of an update flow's activity, as Play documents them.
///
/// `RESULT_OK` (-1): the user accepted (for an immediate update it may never arrive);
/// `RESULT_CANCELED` (0): the user declined or cancelled; `RESULT_IN_APP_UPDATE_FAILED` (1):
/// another error. Play reserves -1 and 0 for Android's `Activity` results.
public struct ActivityResult: PlayConstant {
    /// Play's integer value and constant name.
    public let value: PlayConstantValue

    /// The user accepted the update (`Activity.RESULT_OK`, -1).
    public static let resultOK = ActivityResult(value: .init(-1, "RESULT_OK"))
    /// The user declined or cancelled the update (`Activity.RESULT_CANCELED`, 0).
    public static let resultCanceled = ActivityResult(value: .init(0, "RESULT_CANCELED"))
    /// The flow failed for another reason (1).
    public static let resultInAppUpdateFailed = ActivityResult(value: .init(1, "RESULT_IN_APP_UPDATE_FAILED"))

    /// Every constant, in Play's order.
    public static let allValues: [ActivityResult] = [.resultOK, .resultCanceled, .resultInAppUpdateFailed]
}
