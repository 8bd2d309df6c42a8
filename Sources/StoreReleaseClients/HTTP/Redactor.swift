import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// Takes every secret a client holds out of text a server sent, before that text goes into an
/// error: the one place server text passes on its way to a message.
///
/// Every occurrence of a secret becomes `<redacted>`, and so does every run of at least
/// ``minimumRun`` bytes that also occurs somewhere in a secret: a token echoed whole, cut short,
/// split across a cut or only its first part, shows at most 11 of its characters. The text is
/// redacted first and cut after (``start(of:length:)``), so no cut can hide a secret from the
/// search.
///
/// Why 12: it is the shortest run at which a chance match with a random token stays out of
/// reach. A 12-character piece of a base64url token is one of 2⁷², and the largest body (4 MiB)
/// against the longest token (16 KiB) offers 2³⁶ pairs, so a server's own words are never taken
/// for a secret (with 8 a long body would be garbled about once in 4,000). What stays visible,
/// at most 11 characters beside a marker, is too little of a token of a hundred characters or
/// more to use it or to recognise it.
package struct Redactor: Sendable {
    /// The shortest run of a secret's bytes that is taken out (12; see above).
    package static let minimumRun = 12

    /// What takes a secret's place.
    package static let marker = "<redacted>"

    private let secrets: [[UInt8]]

    /// A redactor of these secrets (empty ones are ignored).
    package init(secrets: [String] = []) {
        self.secrets = secrets.map { Array($0.utf8) }.filter { !$0.isEmpty }
    }

    /// `text` with every secret and every run of ``minimumRun`` bytes of one replaced by `<redacted>`.
    package func callAsFunction(_ text: String) -> String {
        guard !secrets.isEmpty else { return text }
        return String(decoding: redacted(Array(text.utf8), stoppingAfter: nil), as: UTF8.self)
    }

    /// The first `length` bytes of `body` as text, redacted before the cut (a run that begins
    /// within them is taken out whole, however far it goes).
    package func start(of body: Data, length: Int) -> String {
        let bytes = [UInt8](body)
        let kept = secrets.isEmpty ? Array(bytes.prefix(length)) : redacted(bytes, stoppingAfter: length)
        return String(decoding: kept, as: UTF8.self)
    }

    /// Twelve bytes, the key a run is looked up by.
    private struct Window: Hashable {
        let high: UInt64
        let low: UInt32

        init(_ bytes: [UInt8], at start: Int) {
            var high: UInt64 = 0
            for index in start..<(start + 8) { high = high << 8 | UInt64(bytes[index]) }
            var low: UInt32 = 0
            for index in (start + 8)..<(start + Redactor.minimumRun) { low = low << 8 | UInt32(bytes[index]) }
            self.high = high
            self.low = low
        }
    }

    /// `bytes` redacted from the start, stopping once `limit` bytes are written and no run is
    /// open (all of it when `limit` is `nil`).
    ///
    /// A byte is taken out when a window of a secret covers it: a whole short secret, or any
    /// twelve bytes that occur in a long one. Overlapping windows join into one run.
    private func redacted(_ bytes: [UInt8], stoppingAfter limit: Int?) -> [UInt8] {
        let run = Self.minimumRun
        var windows = Set<Window>()
        var short: [[UInt8]] = []
        for secret in secrets {
            if secret.count < run {
                short.append(secret)
            } else {
                for start in 0...(secret.count - run) { windows.insert(Window(secret, at: start)) }
            }
        }
        var output: [UInt8] = []
        var coveredUntil = 0
        var inRun = false
        for index in bytes.indices {
            if index >= coveredUntil, let limit, output.count >= limit { break }
            if index + run <= bytes.count, windows.contains(Window(bytes, at: index)) {
                coveredUntil = max(coveredUntil, index + run)
            }
            for secret in short where index + secret.count <= bytes.count {
                if bytes[index..<(index + secret.count)].elementsEqual(secret) {
                    coveredUntil = max(coveredUntil, index + secret.count)
                }
            }
            if index < coveredUntil {
                if !inRun { output += Array(Self.marker.utf8) }
                inRun = true
            } else {
                inRun = false
                output.append(bytes[index])
            }
        }
        return output
    }
}

extension Redactor: CustomStringConvertible, CustomReflectable {
    /// `Redactor(2 secrets)`: never a secret.
    package var description: String { "Redactor(\(secrets.count) secrets)" }

    /// No children, so `dump` shows no secret, not even as bytes.
    package var customMirror: Mirror { Mirror(self, children: [:]) }
}
