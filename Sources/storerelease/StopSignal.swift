import Dispatch
import StoreReleaseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM, turned into a request to stop the watch (``WatchStop``): between rounds
/// it ends at once; the round in progress finishes if it can within the stop's grace, else it is
/// cut short, its events kept for the next watch.
///
/// `@unchecked`: the signal sources are only kept alive, written once by ``install()`` before
/// any other use; the stop is itself safe from any thread.
final class StopSignal: @unchecked Sendable {
    /// What a signal requests.
    let stop: WatchStop
    private var sources: [any DispatchSourceSignal] = []

    /// A signal that will request `stop`.
    init(_ stop: WatchStop) {
        self.stop = stop
    }

    /// Catches both signals from now on.
    func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [stop] in
                guard !stop.isRequested else { return }
                StandardStreams.printError(
                    "watch: stopping; a round in progress has \(ExchangeFailure.seconds(stop.grace)) to finish, "
                        + "else it is cut short and its events kept for the next watch\n")
                stop.request()
            }
            source.resume()
            sources.append(source)
        }
    }
}
