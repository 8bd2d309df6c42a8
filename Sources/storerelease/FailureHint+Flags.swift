import StoreReleaseKit

extension FailureHint {
    /// The hint as the tool words it: the flags that give what is missing.
    var flagWords: String {
        switch self {
        case .storefront(let country): "--country \(country)"
        case .playTracks: "storerelease tracks --package … lists the tracks it has"
        case .planWithoutApplying: "run the command without --apply"
        case .applyConfirmed: "run with --apply --confirm to apply"
        }
    }
}
