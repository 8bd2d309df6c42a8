import Foundation
import StoreReleaseKit

/// A full sweep, every storefront × 200 ids, spread over 1, 3 and 9 runners, each keeping the
/// limit on its own, against a fake of the lookup API that enforces a per-client limit as Apple
/// does (a bare 403 past it). Apple's 20 lookups a minute is scaled down (20 per `period`), so a
/// run takes seconds; the real time is projected from the same arithmetic.
enum SweepBenchmarks {
    /// The lookup API, per client: one result per id asked, and a bare 403 past `limit` requests
    /// in any `period` (what Apple does to one address past ~20 a minute).
    final class LimitedTransport: HTTPTransport, @unchecked Sendable {
        let limit: Int
        let period: Duration
        let answer: ScaleBenchmarks.CannedTransport
        private let lock = NSLock()
        private var sent: [ContinuousClock.Instant] = []
        private(set) var throttled = 0

        init(limit: Int, period: Duration, template: String) {
            self.limit = limit
            self.period = period
            answer = ScaleBenchmarks.CannedTransport(template: template)
        }

        func send(_ request: HTTPRequest, timeout: Duration, maximumBodySize: Int) async throws(HTTPTransportError)
            -> HTTPResponse
        {
            let now = ContinuousClock.now
            let allowed = lock.withLock {
                sent.removeAll { now - $0 >= period }
                guard sent.count < limit else {
                    throttled += 1
                    return false
                }
                sent.append(now)
                return true
            }
            guard allowed else { return HTTPResponse(status: 403, headers: [:], body: Data()) }
            return try await answer.send(request, timeout: timeout, maximumBodySize: maximumBodySize)
        }
    }

    /// One sweep over `runners` runners side by side: the seconds it took and the throttled requests.
    static func sweep(runners: Int, period: Duration, template: String) async throws -> (
        seconds: Double, throttled: Int
    ) {
        let storefronts = AppStoreStorefront.all.map(\.country)
        let ids = Array(1...AppStoreLookupRequest.maximumIDsPerRequest)
        // The fake's window is a quarter shorter than the client's: a runner that keeps the limit
        // is not throttled by scheduling jitter (nine runners on two cores), one that sends twice
        // as fast is.
        let transports = (0..<runners).map { _ in
            LimitedTransport(limit: 20, period: period * 0.75, template: template)
        }
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for runner in 1...runners {
                    let transport = transports[runner - 1]
                    group.addTask {
                        let client = try AppStoreLookupClient(
                            configuration: .init(baseURL: AppStoreLookupRequest.defaultBaseURL, retry: .none),
                            transport: transport,
                            rateLimiter: RateLimiter(requests: 20, per: period))
                        for country in StorefrontSelection.shard(storefronts, part: runner, of: runners) {
                            // A throttled request is counted by the transport, and the row says so.
                            blackHole(try? await client.releases(ids: ids, country: country))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        return (elapsed.nanoseconds / 1e9, transports.map(\.throttled).reduce(0, +))
    }

    /// Apple's real time for one runner's part: 20 requests go at once, then 20 a minute.
    static func projectedMinutes(runners: Int) -> Int {
        let part = (AppStoreStorefront.all.count + runners - 1) / runners
        return (part - 1) / 20
    }

    /// ``projectedMinutes(runners:)`` as the note says it: "about 8 min", or "under a minute"
    /// when a runner's first 20 requests are all it sends.
    static func projectedTime(runners: Int) -> String {
        let minutes = projectedMinutes(runners: runners)
        return minutes == 0 ? "under a minute" : "about \(minutes) min"
    }

    static func run(period: Duration, repetitions: Int) async throws -> [Row] {
        var seconds: [Int: [Double]] = [1: [], 3: [], 9: []]
        var throttled = 0
        // A small result (the keys a release needs), so the run measures the limit's schedule,
        // not decoding; the decoding cost has rows of its own.
        let template = #"{"trackId":TRACK_ID,"bundleId":"com.example.app","trackName":"App","version":"8.0.10"}"#
        for round in 0..<repetitions {
            // Interleaved, the order turning each round.
            for runners in round.isMultiple(of: 2) ? [1, 3, 9] : [9, 3, 1] {
                let result = try await sweep(runners: runners, period: period, template: template)
                seconds[runners, default: []].append(result.seconds)
                throttled += result.throttled
            }
        }
        let scale = Double(60) / period.seconds
        return [1, 3, 9].map { runners in
            Row(
                name:
                    "sweep, \(AppStoreStorefront.all.count) storefronts x 200 ids, \(runners) runner\(runners == 1 ? "" : "s")",
                samples: Samples(values: seconds[runners] ?? []), unit: "s",
                baseline: runners == 1 ? nil : Samples(values: seconds[1] ?? []),
                note:
                    "Apple's 20/min scaled \(Int(scale))x; at the real limit \(projectedTime(runners: runners))"
                    + (throttled == 0 ? ", never throttled" : ", \(throttled) requests throttled"))
        }
    }
}
