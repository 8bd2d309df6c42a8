import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// What the app remembers between launches about its update prompts.
///
/// The version the user skipped, when they last chose "later", how often they were asked, and
/// the last version whose "what's new" was shown.
///
/// Update prompts repeat until acted on; "what's new" shows once per significant version (seed
/// 003, whose first-three-characters test never shows it for `1.10.0` after `1.1.0`).
public struct PromptHistory: Sendable, Hashable {
    /// The version the user chose to skip; no prompt for it (unless the update is immediate).
    public var skippedVersion: Version?
    /// When the user last chose "later".
    public var lastPrompted: Date?
    /// The version "later" was said to; a newer store version ends the reminder.
    public var remindedVersion: Version?
    /// How many times an update prompt was shown.
    public var promptCount: Int
    /// The installed version whose "what's new" was last shown.
    public var whatsNewShownFor: Version?

    /// An empty history: never prompted, nothing skipped, "what's new" never shown.
    public init(
        skippedVersion: Version? = nil, lastPrompted: Date? = nil, promptCount: Int = 0,
        whatsNewShownFor: Version? = nil, remindedVersion: Version? = nil
    ) {
        self.remindedVersion = remindedVersion
        self.skippedVersion = skippedVersion
        self.lastPrompted = lastPrompted
        self.promptCount = promptCount
        self.whatsNewShownFor = whatsNewShownFor
    }

    /// The user chose "skip this version".
    public mutating func skip(_ version: Version) {
        skippedVersion = version
    }

    /// A prompt was shown and the user chose "later".
    ///
    /// Given the `version` it was about, a newer store version ends the reminder.
    public mutating func promptedAndDeferred(at date: Date, about version: Version? = nil) {
        lastPrompted = date
        remindedVersion = version
        promptCount += 1
    }

    /// Whether to show "what's new" for the installed version.
    ///
    /// It shows on the first launch after an update whose first changed component is at least
    /// `significance` (default: minor). A fresh install (no record) shows it too.
    public func shouldShowWhatsNew(installed: Version, significance: VersionChange = .minor) -> Bool {
        guard let shown = whatsNewShownFor else { return true }
        guard installed > shown, let change = installed.change(from: shown) else { return false }
        return change >= significance
    }

    /// "What's new" was shown for this version.
    public mutating func whatsNewShown(for version: Version) {
        whatsNewShownFor = version
    }

    /// The decision context this history gives, at `now`.
    public func context(now: Date = Date(), osVersion: Version? = nil) -> UpdateContext {
        UpdateContext(
            osVersion: osVersion, now: now, skippedVersion: skippedVersion, lastPrompted: lastPrompted,
            remindedVersion: remindedVersion)
    }
}

extension PromptHistory: Codable {
    /// The value of the `format` key that marks a file as a prompt history.
    ///
    /// A file that is someone else's is recognised as such and left alone.
    public static let format = "storerelease.promptHistory.v1"

    enum CodingKeys: String, CodingKey {
        case format, skippedVersion, lastPrompted, remindedVersion, promptCount, whatsNewShownFor
    }

    /// Decodes a history; the `format` key must be ``format``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let format = try c.decode(String.self, forKey: .format)
        guard format == Self.format else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: c, debugDescription: "format \(format.debugDescription) is not \(Self.format)")
        }
        skippedVersion = try c.decodeIfPresent(Version.self, forKey: .skippedVersion)
        lastPrompted = try c.decodeIfPresent(Date.self, forKey: .lastPrompted)
        remindedVersion = try c.decodeIfPresent(Version.self, forKey: .remindedVersion)
        promptCount = try c.decodeIfPresent(Int.self, forKey: .promptCount) ?? 0
        whatsNewShownFor = try c.decodeIfPresent(Version.self, forKey: .whatsNewShownFor)
    }

    /// Encodes the history with its ``format`` marker.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.format, forKey: .format)
        try c.encodeIfPresent(skippedVersion, forKey: .skippedVersion)
        try c.encodeIfPresent(lastPrompted, forKey: .lastPrompted)
        try c.encodeIfPresent(remindedVersion, forKey: .remindedVersion)
        try c.encode(promptCount, forKey: .promptCount)
        try c.encodeIfPresent(whatsNewShownFor, forKey: .whatsNewShownFor)
    }
}
