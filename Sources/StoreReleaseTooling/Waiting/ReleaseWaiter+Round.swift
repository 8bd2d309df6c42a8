import StoreReleaseCore
import StoreReleaseModels

extension ReleaseWaiter {
    /// What one round found.
    public struct Round: Sendable, Hashable, CustomStringConvertible {
        /// The round's number, from 1.
        public let number: Int
        /// What is awaited (`9.0`, `versionCode 85`).
        public let wanted: String
        /// What counts as done.
        public let until: Until
        /// The storefronts that serve it, in the order asked.
        public let liveStorefronts: [StorefrontCountry]
        /// The storefronts that do not yet.
        public let missingStorefronts: [StorefrontCountry]
        /// The Play track waited for, if one is.
        public let playTrack: String?
        /// What the Play track shows, once it has answered.
        public let play: PlayProgress?
        /// Whether App Store Connect is waited for.
        public let waitsForAppStoreConnect: Bool
        /// What App Store Connect shows, once it has answered.
        public let appStoreConnect: ConnectProgress?

        /// Whether everything waited for is as far as ``until`` asks.
        public var isDone: Bool { missing.isEmpty }

        /// What is not there yet: storefront codes, `Google Play (production)`, `App Store Connect`.
        public var missing: [String] {
            missingStorefronts.map(\.code) + (playMissing ? playTrack.map { ["Google Play (\($0))"] } ?? [] : [])
                + (connectMissing ? ["App Store Connect"] : [])
        }

        /// `round 2: 8.0.10 live in us; rolling out on Google Play (production): 20% in us, ca; waiting for cn`.
        public var description: String {
            "round \(number): \(wanted) \(clauses.joined(separator: "; "))"
                + (missing.isEmpty ? "" : "; waiting for \(missing.joined(separator: ", "))")
        }

        /// What is true of each store: `8.0.10 is live in us, cn; rolling out on Google Play (production): 20% in us, ca`.
        public var summary: String {
            "\(wanted) is \(clauses.joined(separator: "; "))"
        }

        /// What is still short of ``until``, each store in words (for the timeout).
        public var shortfalls: [String] {
            (missingStorefronts.isEmpty
                ? [] : ["not live in \(missingStorefronts.map(\.code).joined(separator: ", "))"])
                + (playMissing ? [playSentence].compactMap { $0 } : [])
                + (connectMissing ? [connectSentence] : [])
        }

        private var playMissing: Bool { playTrack != nil && play?.isDone(until) != true }

        private var connectMissing: Bool { waitsForAppStoreConnect && appStoreConnect?.isDone(until) != true }

        private var playSentence: String? {
            playTrack.map { track in play?.sentence(track: track) ?? "Google Play (\(track)) has not answered yet" }
        }

        private var connectSentence: String {
            appStoreConnect?.sentence ?? "App Store Connect has not answered yet"
        }

        private var clauses: [String] {
            let storefronts =
                liveStorefronts.isEmpty && missingStorefronts.isEmpty
                ? []
                : ["live in \(liveStorefronts.isEmpty ? "none" : liveStorefronts.map(\.code).joined(separator: ", "))"]
            return storefronts + [playSentence].compactMap { $0 } + (waitsForAppStoreConnect ? [connectSentence] : [])
        }
    }
}
