import Foundation
import StoreReleaseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Progress of long work on stderr, never on stdout: the storefronts a sweep has asked of all it
/// asks, and how long the lookup rate limit holds it back.
///
/// A line at the start, a line at once when the limit holds the work back 10 s or more, and one
/// at least every 10 s while the work goes on; on a terminal one line redrawn every second, with
/// a bar. `--quiet` makes none (``init(command:limiter:lookupsPerMinute:quiet:)`` returns `nil`).
final class ProgressLine: @unchecked Sendable {
    /// What the line says: the sweep's progress (when there is one) and the limit's wait.
    private struct State {
        var sweep: StorefrontSweepProgress?
        var lastLine: ContinuousClock.Instant?
        var finished = false
    }

    private let command: String
    private let limiter: RateLimiter?
    private let lookupsPerMinute: Int
    private let terminal: Bool
    /// How often a plain line is written (a terminal's line is redrawn every second).
    private let interval: Duration
    private let clock = ContinuousClock()
    private let lock = NSLock()
    private var state = State()
    private var ticker: Task<Void, Never>?

    /// A progress line for `command`, or `nil` when `quiet`.
    init?(command: String, limiter: RateLimiter?, lookupsPerMinute: Int, quiet: Bool, interval: Duration = .seconds(10))
    {
        guard !quiet else { return nil }
        self.command = command
        self.limiter = limiter
        self.lookupsPerMinute = lookupsPerMinute
        self.terminal = isatty(2) == 1
        self.interval = interval
    }

    /// The line of a command that reads `source`: the lookup limit's waits when it looks the app
    /// up now, `nil` for stored lookups, no App Store side, or `quiet`.
    static func waits(of source: AppStoreSource?, command: String, lookupsPerMinute: Int, quiet: Bool)
        -> ProgressLine?
    {
        guard case .live(_, _, let client)? = source else { return nil }
        return ProgressLine(
            command: command, limiter: client.rateLimiter, lookupsPerMinute: lookupsPerMinute, quiet: quiet)
    }

    /// Starts the line: it follows the limiter's waits and writes as the work goes on.
    func start() async {
        await limiter?.observeWaits { [weak self] wait in self?.limiterWaits(wait) }
        let period = terminal ? Duration.seconds(1) : interval
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: period)
                guard !Task.isCancelled, let self else { return }
                await self.tick()
            }
        }
    }

    /// The sweep's progress, as the library reports it (the first report writes the first line).
    func sweep(_ progress: StorefrontSweepProgress) {
        let first = lock.withLock {
            defer { state.sweep = progress }
            return state.sweep == nil
        }
        if first || terminal { write(text(progress, wait: .zero)) }
    }

    /// Ends the line: a terminal's is cleared, nothing more is written.
    func finish() {
        ticker?.cancel()
        let clear = lock.withLock {
            defer { state.finished = true }
            return terminal && state.lastLine != nil && !state.finished
        }
        if clear { StandardStreams.printError("\r\u{1B}[K") }
    }

    /// A request waits for its turn: a long wait is said at once.
    private func limiterWaits(_ wait: Duration) {
        guard wait >= .seconds(10) else { return }
        write(text(lock.withLock { state.sweep }, wait: wait))
    }

    private func tick() async {
        let wait = await limiter?.waitRemaining ?? .zero
        let sweep = lock.withLock { state.sweep }
        guard sweep != nil || wait > .zero else { return }
        write(text(sweep, wait: wait))
    }

    private func text(_ sweep: StorefrontSweepProgress?, wait: Duration) -> String {
        var parts: [String] = []
        if let sweep {
            let bar: String
            if terminal {
                let width = 20
                let filled = sweep.total > 0 ? width * sweep.done / sweep.total : width
                bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            } else {
                bar = ""
            }
            parts.append("\(bar)\(sweep.done) of \(sweep.total) storefronts looked up")
        }
        if wait > .zero {
            let seconds = Int(
                (Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).rounded(.up))
            parts.append("waiting \(seconds) s for the lookup limit (\(lookupsPerMinute) a minute)")
        }
        return "\(command): " + parts.joined(separator: "; ")
    }

    private func write(_ line: String) {
        let now = clock.now
        let written: Bool = lock.withLock {
            guard !state.finished else { return false }
            state.lastLine = now
            return true
        }
        guard written else { return }
        StandardStreams.printError(terminal ? "\r\u{1B}[K\(line)" : "\(line)\n")
    }
}
