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
        guard let first = StrictJSON.firstByte(of: data) else { return "the input is empty, not JSON" }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            let html = first == UInt8(ascii: "<") ? " (it looks like HTML, not JSON)" : ""
            return "not JSON: \(detail)\(html)"
        }
        return error.readableDescription
    }

    /// Runs `decode` on an input's `data`; a failure becomes a bad-input error that starts with
    /// `source` (`decide: --policy stdin`) and, for a decoding error, says what the input should
    /// have been (`not a Play track`) and ``describe(_:in:)``.
    static func decoding<T>(_ source: String, as what: String? = nil, in data: Data, _ decode: () throws -> T)
        throws(CLIError) -> T
    {
        do {
            return try decode()
        } catch let error as DecodingError {
            throw .badInput("\(source): \(what.map { "\($0): " } ?? "")\(describe(error, in: data))")
        } catch {
            throw .badInput("\(source): \(error)")
        }
    }
}
