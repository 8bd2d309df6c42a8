import Foundation

/// Long tokens for the redaction tests, and the check that no piece of one shows.
public enum LongSecret {
    /// A token of `length` random base64url characters after `prefix` (4 KiB in all by default):
    /// as long as a token that carries its claims gets.
    public static func make(length: Int = 4096, prefix: String = "ya29.") -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var generator = SystemRandomNumberGenerator()
        let body = (0..<max(0, length - prefix.count)).map { _ in
            alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))]
        }
        return prefix + String(body)
    }

    /// The first run of `run` characters of `secret` (12: the redactor's rule) that `text`
    /// contains, or `nil` when none does.
    public static func firstPiece(of secret: String, in text: String, run: Int = 12) -> String? {
        let characters = Array(secret)
        guard characters.count >= run else { return text.contains(secret) ? secret : nil }
        for start in 0...(characters.count - run) {
            let piece = String(characters[start..<(start + run)])
            if text.contains(piece) { return piece }
        }
        return nil
    }
}
