import Foundation
import StoreReleaseKit

/// What is wrong with a JSON input file, as one line for an error message.
enum JSONProblem {
    /// The decoding error's path and problem; when the text is not JSON at all, where it stops
    /// being JSON (Foundation's decoder only says "not valid JSON"), and whether it is empty or
    /// looks like HTML (an error page saved instead of a response).
    static func describe(_ error: DecodingError, in data: Data) -> String {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty else {
            return error.readableDescription
        }
        let whitespace: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        guard let first = data.first(where: { !whitespace.contains($0) }) else { return "the input is empty, not JSON" }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            let html = first == UInt8(ascii: "<") ? " (it looks like HTML, not JSON)" : ""
            return "not JSON: \(detail)\(html)"
        }
        return error.readableDescription
    }
}
