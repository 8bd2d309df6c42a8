import Foundation
import StoreReleaseModels

extension ReleaseEvent {
    /// One of the watch's own acts a run could not deliver, kept as it was written.
    ///
    /// A snapshot event is told again by the next run (its state file was not advanced, so the
    /// same change is counted again); an act (`halted`, `rolloutAdvanced`, `rolloutHeld`) is not
    /// in any snapshot. So when a delivery fails, the acts it carried are kept in the state file
    /// (``WatchMemory/owedEvents``) and the next run of the watch delivers them
    /// (``Change/owed(_:)``) before its own: their JSON as it was written (`id`, `type` and `at`
    /// included), their sentence for Slack. Under cron, where every run is one round, a halt made
    /// while the webhook is down is still told.
    public struct Owed: Sendable, Hashable {
        /// The event as it was written: an object with its `id`, `type` and `store`.
        public let json: JSONValue
        /// Its sentence, as Slack gets it.
        public let sentence: String

        /// The event's JSON and its sentence.
        public init(_ event: ReleaseEvent) throws {
            json = try JSONValue(encoding: event)
            sentence = event.sentence
        }

        /// The event's `id`.
        public var id: String { json["id"]?.string ?? "" }
        /// The event's `type`.
        public var type: String { json["type"]?.string ?? "" }
        /// The store the event happened in.
        public var store: Source { json["store"]?.string.flatMap(Source.init(rawValue:)) ?? .googlePlay }
    }

    /// Whether the event is one of the watch's acts, which no later snapshot tells again.
    public var isAct: Bool {
        switch change {
        case .halted, .rolloutAdvanced, .rolloutHeld, .owed: true
        case .storefrontUpdated, .storefrontAdded, .storefrontRemoved, .playReleaseAdded, .playReleaseRemoved,
            .playStatusChanged, .playRolloutChanged, .playReviewChanged, .ascStateChanged, .phasedReleaseChanged,
            .forceUpdateSafe, .healthChanged, .playRecoveryChanged:
            false
        }
    }
}

extension ReleaseEvent.Owed: Codable {
    enum CodingKeys: String, CodingKey {
        case event, sentence
    }

    /// Decodes a kept event: an object with a string `id`, `type` and a `store` events name.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        json = try c.decode(JSONValue.self, forKey: .event)
        sentence = try c.decode(String.self, forKey: .sentence)
        guard json["id"]?.string != nil, json["type"]?.string != nil,
            json["store"]?.string.flatMap(ReleaseEvent.Source.init(rawValue:)) != nil
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .event, in: c,
                debugDescription:
                    "an owed event needs a string id and type and a store (appStore, googlePlay, appStoreConnect)")
        }
    }

    /// Encodes `{"event": the event's JSON, "sentence": its sentence}`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(json, forKey: .event)
        try c.encode(sentence, forKey: .sentence)
    }
}
