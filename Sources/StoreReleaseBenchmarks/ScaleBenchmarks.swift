import Foundation
import StoreReleaseKit

/// How many app × storefront checks a minute a backend gets: what Apple's limit allows with
/// batching, and what the client itself can do, measured with an in-memory transport that
/// answers 200 apps at once (so the network is not what is measured).
enum ScaleBenchmarks {
    /// Answers every lookup with one result per id asked, from the WeChat payload.
    struct CannedTransport: HTTPTransport {
        /// One result as JSON text, its `trackId` written as `TRACK_ID`.
        let template: String

        func send(_ request: HTTPRequest, timeout: Duration, maximumBodySize: Int) async throws(HTTPTransportError)
            -> HTTPResponse
        {
            let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            let ids = query.first { $0.name == "id" }?.value?.split(separator: ",") ?? []
            let results = ids.map { template.replacingOccurrences(of: "TRACK_ID", with: String($0)) }
            let body = "{\"resultCount\":\(results.count),\"results\":[\(results.joined(separator: ","))]}"
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
    }

    /// The WeChat payload's result as a template, its `trackId` written as `TRACK_ID`.
    static func template() throws -> String {
        let payload = try Data(contentsOf: LookupBenchmarks.payloadPath)
        var object = (try JSONSerialization.jsonObject(with: payload) as? [String: Any])?["results"] as? [[String: Any]]
        object?[0]["trackId"] = "TRACK_ID"
        let result = try JSONSerialization.data(withJSONObject: object?.first ?? [:])
        return String(decoding: result, as: UTF8.self).replacingOccurrences(of: "\"TRACK_ID\"", with: "TRACK_ID")
    }

    static func run(batches: Int) async throws -> [Row] {
        let client = try AppStoreLookupClient(
            transport: CannedTransport(template: try template()), rateLimiter: RateLimiter(requests: Int.max / 2))
        let ids = Array(1...(batches * AppStoreLookupRequest.maximumIDsPerRequest))
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            let releases = try await client.lookup(ids: ids, country: .unitedStates)
            blackHole(releases)
        }
        let seconds = elapsed.nanoseconds / 1e9
        let requestsPerMinute = Double(batches) / seconds * 60
        let allowed = 20.0 * Double(AppStoreLookupRequest.maximumIDsPerRequest)
        let achieved = min(requestsPerMinute, 20) * Double(AppStoreLookupRequest.maximumIDsPerRequest)
        return [
            Row(
                name: "Apple's limit, batched (20 req/min x 200)", samples: Samples(values: [allowed]),
                unit: "checks/min", note: "one storefront per request; unbatched: 20 checks/min"),
            Row(
                name: "client capacity, 200-id lookups", samples: Samples(values: [requestsPerMinute]),
                unit: "req/min", note: "decode + match 200 results, in-memory transport (one run)"),
            Row(
                name: "achieved under the default limit", samples: Samples(values: [achieved]), unit: "checks/min",
                baseline: Samples(values: [20]), note: "vs one id a request", higherIsBetter: true),
        ]
    }
}
