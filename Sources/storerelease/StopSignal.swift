import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM, turned into a flag the watch reads between rounds and the cancellation of
/// the task running the rounds, which ends a sleep, a store read or a delivery at once.
///
/// `@unchecked`: the signal sources are only kept alive, written once by ``install()`` before
/// any other use; the flag is atomic and the task to cancel behind a mutex.
final class StopSignal: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    private let cancel = Mutex<(@Sendable () -> Void)?>(nil)
    private var sources: [any DispatchSourceSignal] = []

    /// Whether a signal came.
    var isSet: Bool { flag.load(ordering: .acquiring) }

    /// Catches both signals from now on.
    func install() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                if !flag.exchange(true, ordering: .acquiringAndReleasing) {
                    StandardStreams.printError(
                        "watch: stopping; a delivery in flight is cut short, its events kept for the next watch\n"
                    )
                    cancel.withLock { $0 }?()
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Cancels `task` when a signal comes, or now if one already came.
    func cancels<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) {
        cancel.withLock { $0 = { task.cancel() } }
        if isSet { task.cancel() }
    }
}
