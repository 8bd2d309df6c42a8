import StoreReleaseCore
import StoreReleaseModels

extension PlayRecoveryAction {
    /// The action for people, one line, after "recovery" or "Play App Recovery:".
    ///
    /// "prompting users of 79 to update (all users, action 900): 400 of 1,000 devices recovered
    /// (40%)"; a draft says nobody is prompted until it is deployed.
    var sentence: String {
        let codes = versionCodes.map(\.description).joined(separator: ", ")
        let whom = (regions.map { "in " + $0.joined(separator: ", ") } ?? "all users") + ", action \(appRecoveryID)"
        switch status {
        case .active:
            return "prompting users of \(codes) to update (\(whom))\(progress)"
        case .draft:
            return "drafted for \(codes) (\(whom)): nobody is prompted until it is deployed"
        case .canceled:
            return "canceled for \(codes) (\(whom))\(progress)"
        default:
            return "\(status) for \(codes) (\(whom))"
        }
    }

    /// `: 400 of 1,000 devices recovered (40%)`, or nothing when Play gives no counts.
    private var progress: String {
        guard let recoveredDevices, let totalDevices, totalDevices > 0 else { return "" }
        let share = CrossStoreReport.percent(Double(recoveredDevices) / Double(totalDevices)) ?? ""
        return ": \(StoreHealth.grouped(recoveredDevices)) of \(StoreHealth.grouped(totalDevices)) devices "
            + "recovered (\(share))"
    }
}
