import Foundation

// Shared by every fuzz target (Scripts/fuzz.sh compiles it into each): a property that fails
// stops the fuzzer with a crash, which libFuzzer saves as a reproducer.

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("property violated: \(message())") }
}

/// Decodes `T`, returning `nil` for a `DecodingError` (after checking it describes itself) and
/// stopping the fuzzer on any other error: bad JSON must fail only as a decoding error.
func decodeOrNil<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
    do {
        return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
        check(!error.readableDescription.isEmpty, "a decoding error describes itself")
        return nil
    } catch {
        fatalError("decoding \(type) threw something other than a DecodingError: \(error)")
    }
}
