/// Reading a value that JSON writes as text, the parser's typed error kept as the decoding error's words.
extension SingleValueDecodingContainer {
    /// The value's text: a JSON string as written, a JSON integer as its digits.
    ///
    /// For values a store writes either way (Play's constants: `11` or `"DOWNLOADED"`).
    package func decodeTextOrInteger() throws -> String {
        if let number = try? decode(Int.self) { return String(number) }
        return try decode(String.self)
    }

    /// `parse(text)`, its error thrown as `DecodingError.dataCorrupted` at this value with the
    /// error's description.
    package func parsing<Value, Failure: Error & CustomStringConvertible>(
        _ text: String, _ parse: (String) throws(Failure) -> Value
    ) throws -> Value {
        do throws(Failure) {
            return try parse(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: self, debugDescription: error.description)
        }
    }
}
