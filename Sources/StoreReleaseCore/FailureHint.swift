/// What to give or do to get past a failure, named as a value: a message's closing hint.
///
/// The library never names the command-line tool's flags: a message that says what to try ends
/// with a hint, worded by ``words``. The library's words (``libraryWords``) name values and API;
/// the command-line tool words the same hint as its flags by setting ``wording`` for its whole
/// run. A message is made where the failure is met, deep in the library (a step's stored error,
/// an error wrapped in another), so the wording travels with the task, not through every error
/// that wraps another. Not public API.
package enum FailureHint: Sendable, Hashable {
    /// Another storefront to ask, `cn` say: an app sold in some countries only is found only there.
    case storefront(String)
    /// The list of the tracks a Play app has.
    case playTracks
    /// The same plan made again from a fresh read, nothing applied.
    case planWithoutApplying
    /// The plan applied, every app acted on confirmed.
    case applyConfirmed
    /// A state of its own for each app watched.
    case stateOfItsOwn
    /// The package named beside a Play track read from a file, which does not say whose it is.
    case packageBesideStoredTrack(String)
    /// A watch that reads each store's health (and so records its windows' counts).
    case watchWithHealth
    /// What a timeline picture is drawn from (its footnote): a watch's history.
    case drawnFromHistory

    /// How the running task words hints; `nil`, the library's words.
    @TaskLocal package static var wording: (@Sendable (FailureHint) -> String)?

    /// The hint in the words of whoever runs the task.
    package var words: String { Self.wording?(self) ?? libraryWords }

    /// The hint in the library's words: values and API, no flags.
    package var libraryWords: String {
        switch self {
        case .storefront(let country): "storefront \(country)"
        case .playTracks: "PlayDeveloperAPIClient.tracks(packageName:) lists the tracks it has"
        case .planWithoutApplying: "plan again without applying"
        case .applyConfirmed: "apply it, every app acted on confirmed"
        case .stateOfItsOwn: "give each app a state of its own"
        case .packageBesideStoredTrack(let package):
            "a stored Play track does not say whose it is: name the package \(package) beside it"
        case .watchWithHealth: "a watch with health sources (HealthSources) records them"
        case .drawnFromHistory: "Drawn from a watch's history (ReleaseHistoryFile)."
        }
    }
}
