import StoreReleaseKit

/// A library error as the tool reports it: what it exits with, said here once for every command.
protocol ReportedError: Error, CustomStringConvertible {
    /// Whether it is bad usage or bad input (exit 2), or the work failed (exit 1).
    var exit: CLIError.Exit { get }
    /// The words after the message's prefix: the error's sentence unless it says otherwise.
    var reported: String { get }
}

extension ReportedError {
    var reported: String { description }
}

extension CLIError {
    /// Which of ``CLIError``'s cases a failure is.
    enum Exit: Sendable {
        case usage, badInput, failure
    }

    /// The failure `message`, exiting as `exit` says.
    init(_ exit: Exit, _ message: String) {
        switch exit {
        case .usage: self = .usage(message)
        case .badInput: self = .badInput(message)
        case .failure: self = .failure(message)
        }
    }

    /// The one mapping of a library error: `prefix: error` (`parity: …`, `timeline: FILE: …`),
    /// exiting as the error says.
    init(_ error: some ReportedError, _ prefix: String) {
        self.init(error.exit, "\(prefix): \(error.reported)")
    }
}

/// A request the client refused to make (a bad name, a bad base URL) is bad usage; everything
/// else, the work failing.
extension HTTPClientError: ReportedError {
    var exit: CLIError.Exit { code == .invalidRequest ? .usage : .failure }
}

/// A store that could not be read: each client's bad requests exit 2, stored lookups without an
/// App Store id too, everything else 1.
extension ReleaseSourceError: ReportedError {
    var exit: CLIError.Exit {
        switch self {
        case .appStore(let error), .play(let error), .appStoreConnect(let error), .health(let error): error.exit
        case .noAppStoreID, .availabilityNeeded: .badInput
        case .manifest: .failure
        }
    }
}

/// What exits 2 is said as every command says it; a failure with the store's name
/// (`wait: the App Store: …`); a timeout, an app no storefront has and a cancel exit 1.
extension ReleaseWaiterError: ReportedError {
    var exit: CLIError.Exit {
        if case .source(let error) = self { error.exit } else { .failure }
    }

    var reported: String {
        if case .source(let error) = self, error.exit != .failure { error.reported } else { description }
    }
}

/// A manifest that is not one is bad input; a store's refused request bad usage, as a read's.
extension ReleaseActorError: ReportedError {
    var exit: CLIError.Exit {
        switch self {
        case .manifest: .badInput
        case .read(_, let failure): failure.exit
        case .notGiven: .failure
        }
    }
}

/// A file that is not a history (or is empty, of two apps, not a file) is bad input; a read that
/// failed, the work failing.
extension ReleaseHistoryFileError: ReportedError {
    var exit: CLIError.Exit {
        switch self {
        case .io: .failure
        case .notAHistory, .empty, .otherApp, .notAFile: .badInput
        }
    }
}

/// A state file that is not this app's snapshot, not a file, or held by another watcher is bad
/// input; a read or write that failed, the work failing.
extension WatchStateFileError: ReportedError {
    var exit: CLIError.Exit {
        switch self {
        case .notASnapshot, .otherApp, .notAFile, .locked: .badInput
        case .io: .failure
        }
    }
}

/// A version the history never saw is the work failing; a span no clock gives, bad input.
extension ReleaseTimelineError: ReportedError {
    var exit: CLIError.Exit {
        switch self {
        case .versionNotSeen: .failure
        case .spanTooLong: .badInput
        }
    }
}

/// A history the gate cannot be run over again (no counts) is bad input.
extension RolloutReplayError: ReportedError {
    var exit: CLIError.Exit { .badInput }
}
