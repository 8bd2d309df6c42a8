import Foundation

// Shared by every fuzz target (Scripts/fuzz.sh compiles it into each): a property that fails
// stops the fuzzer with a crash, which libFuzzer saves as a reproducer.

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("property violated: \(message())") }
}

/// What `decode` returns, or `nil` for a `DecodingError` (after checking it describes itself);
/// any other error stops the fuzzer: bad JSON must fail only as a decoding error.
func decodeOrNil<T>(_ decode: () throws -> T) -> T? {
    do {
        return try decode()
    } catch let error as DecodingError {
        check(!error.readableDescription.isEmpty, "a decoding error describes itself")
        return nil
    } catch {
        fatalError("decoding \(T.self) threw something other than a DecodingError: \(error)")
    }
}

/// Decodes `T` from JSON, or `nil` for a `DecodingError`, as ``decodeOrNil(_:)``.
func decodeOrNil<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
    decodeOrNil { try JSONDecoder().decode(type, from: data) }
}

/// Encodes `value` and decodes it back, which must give the same value.
func checkRoundTrip<T: Codable & Equatable>(_ value: T, _ what: String) {
    do {
        let again = try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
        check(again == value, "\(what) round-trips through JSON")
    } catch {
        fatalError("\(what) does not round-trip through JSON: \(error)")
    }
}
