import StoreReleaseKit

extension FailureHint {
    /// The hint as the tool words it: the flags that give what is missing.
    var flagWords: String {
        switch self {
        case .storefront(let country): "--country \(country)"
        case .playTracks: "storerelease tracks --package … lists the tracks it has"
        case .planWithoutApplying: "run the command without --apply"
        case .applyConfirmed: "run with --apply --confirm to apply"
        case .stateOfItsOwn: "give each app its own --state"
        case .packageBesideStoredTrack(let package):
            "a --play-track file does not say whose it is: give --package \(package) beside it"
        case .watchWithHealth: "a watch with --health-file or --health records them"
        case .drawnFromHistory: "Drawn by storerelease timeline from a watch --history."
        }
    }
}
