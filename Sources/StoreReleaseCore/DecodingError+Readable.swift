/// Decoding errors as one line a person can act on.
extension DecodingError {
    /// Where and what: `results[0].version: version is not a version: "1.4 (18)": …`.
    public var readableDescription: String {
        func path(_ context: Context) -> String {
            var text = ""
            for key in context.codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch self {
        case .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let at = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing key \(key.stringValue)\(at)"
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type), \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null"
        @unknown default:
            return String(describing: self)
        }
    }
}
