// libFuzzer target for the App Store lookup payload decoder and StoreRelease.
//
// Built by Scripts/fuzz.sh with the library's sources, -sanitize=fuzzer,address. The input is
// a response body. Decoding may fail, always with a DecodingError; when it succeeds, every
// result must become a StoreRelease whose store URL is https on an Apple host, and whose JSON
// decodes back to the same release.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLookupPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    guard let response = decodeOrNil(AppStoreLookupResponse.self, from: body) else { return 0 }
    let country = StorefrontCountry.unitedStates
    for result in response.results {
        check((try? Version(parsing: result.version.description)) == result.version, "the version re-parses")
        let release = StoreRelease(result, country: country)
        check(release.version == result.version, "the release keeps the version")
        let url = release.storeURL
        check(url?.scheme == "https", "the store URL is https")
        check(
            url.flatMap(\.host).map { AppStoreLinks.appleHosts.contains($0.lowercased()) } == true, "on an Apple host")
        do {
            let json = try JSONEncoder().encode(release)
            let decoded = try JSONDecoder().decode(StoreRelease.self, from: json)
            check(decoded.version == release.version && decoded.appID == release.appID, "the JSON round-trips")
        } catch {
            fatalError("a decoded release does not round-trip through JSON: \(error)")
        }
    }
    return 0
}
