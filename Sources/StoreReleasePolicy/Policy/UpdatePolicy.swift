import Foundation
import StoreReleaseCore
import StoreReleaseModels

/// The rules an app sets for what to do about a newer release.
///
/// Decoded from JSON with these keys; an absent key takes its default, an unknown key is an
/// error (a misspelt rule must not be ignored silently):
///
/// | key | default | meaning |
/// |---|---|---|
/// | `forceUpdateOn` | `"none"` | `"major"`, `"minor"` or `"patch"`: an update whose first changed component is at least that level is immediate |
/// | `minimumSupportedVersion` | none | an installed version below it must update (immediate) |
/// | `releaseDelayHours` | 24 | no prompt until the release is that old: the lookup can run ahead of the CDN |
/// | `remindAfterHours` | 24 | after "later", no prompt for that long; or `{"major": H, "minor": H, "patch": H}` per change (an absent one 24; Play, which names no change, takes the shortest) |
/// | `promptOn` | none | `"major"`, `"minor"` or `"patch"`: a smaller change never prompts (`changeTooSmall`); absent, every change does |
/// | `onlyForced` | false | only immediate updates prompt (`notForced`) |
/// | `immediatePriority` | 4 | a Play priority at least this is immediate (Google's example) |
/// | `flexibleStalenessDays` | 0 | Play: no flexible prompt before the update is that stale (unknown counts as 0) |
/// | `immediateStalenessDays` | none | Play: an update at least that stale is immediate |
public struct UpdatePolicy: Sendable, Hashable {
    /// An update changing at least this component is immediate; `nil` forces none.
    public var forceUpdateOn: VersionChange?
    /// An installed version below it must update.
    public var minimumSupportedVersion: Version?
    /// No prompt until the release is this many hours old.
    public var releaseDelayHours: Double
    /// After "later", no prompt for this many hours.
    ///
    /// For every change, unless ``remindAfterHoursByChange`` names it.
    public var remindAfterHours: Double
    /// After "later" about a major, minor or patch change, no prompt for this many hours.
    public var remindAfterHoursByChange: [VersionChange: Double]
    /// A change smaller than this never prompts; `nil`: every change does.
    public var promptOn: VersionChange?
    /// Only immediate updates prompt.
    public var onlyForced: Bool
    /// Play: a priority at least this, with IMMEDIATE allowed, is immediate.
    public var immediatePriority: Int
    /// Play: no flexible prompt before the update is this many days stale.
    public var flexibleStalenessDays: Int
    /// Play: an update at least this many days stale is immediate; `nil` never.
    public var immediateStalenessDays: Int?

    /// Makes a policy; the defaults are the table's.
    public init(
        forceUpdateOn: VersionChange? = nil, minimumSupportedVersion: Version? = nil, releaseDelayHours: Double = 24,
        remindAfterHours: Double = 24, immediatePriority: Int = 4, flexibleStalenessDays: Int = 0,
        immediateStalenessDays: Int? = nil, remindAfterHoursByChange: [VersionChange: Double] = [:],
        promptOn: VersionChange? = nil, onlyForced: Bool = false
    ) {
        self.remindAfterHoursByChange = remindAfterHoursByChange
        self.promptOn = promptOn
        self.onlyForced = onlyForced
        self.forceUpdateOn = forceUpdateOn
        self.minimumSupportedVersion = minimumSupportedVersion
        self.releaseDelayHours = releaseDelayHours
        self.remindAfterHours = remindAfterHours
        self.immediatePriority = immediatePriority
        self.flexibleStalenessDays = flexibleStalenessDays
        self.immediateStalenessDays = immediateStalenessDays
    }

    /// The changes `remindAfterHours` and `promptOn` may name.
    public static let namedChanges: [VersionChange] = [.major, .minor, .patch]

    /// The hours "later" lasts for an update of `change`.
    ///
    /// A change below patch counts as patch; an unknown one takes ``remindAfterHours``.
    public func remindHours(for change: VersionChange?) -> Double {
        guard let change else { return remindAfterHours }
        return remindAfterHoursByChange[max(change, .patch)] ?? remindAfterHours
    }
}

extension UpdatePolicy: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case forceUpdateOn, minimumSupportedVersion, releaseDelayHours, remindAfterHours, immediatePriority
        case flexibleStalenessDays, immediateStalenessDays, promptOn, onlyForced
    }

    /// Decodes the policy JSON; see the type's table.
    public init(from decoder: any Decoder) throws {
        try AnyKey.rejectUnknownKeys(in: decoder, known: CodingKeys.allCases.map(\.rawValue), of: "a policy")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func invalid(_ key: CodingKeys, _ message: String) -> DecodingError {
            DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: message)
        }
        switch try c.decodeIfPresent(String.self, forKey: .forceUpdateOn) ?? "none" {
        case "none": forceUpdateOn = nil
        case let name:
            guard let level = VersionChange(rawValue: name) else {
                throw invalid(
                    .forceUpdateOn, "forceUpdateOn \(name.debugDescription) is not none, major, minor or patch")
            }
            forceUpdateOn = level
        }
        minimumSupportedVersion = try c.decodeVersionIfPresent(forKey: .minimumSupportedVersion)
        releaseDelayHours = try c.decodeIfPresent(Double.self, forKey: .releaseDelayHours) ?? 24
        remindAfterHoursByChange = [:]
        if let byChange = try? c.decodeIfPresent([String: Double].self, forKey: .remindAfterHours) {
            for (name, hours) in byChange {
                guard let change = VersionChange(rawValue: name), Self.namedChanges.contains(change) else {
                    throw invalid(.remindAfterHours, "remindAfterHours.\(name) is not major, minor or patch")
                }
                guard hours.isFinite, hours >= 0 else {
                    throw invalid(
                        .remindAfterHours, "remindAfterHours.\(name) \(hours) is not a number of hours (0 or more)")
                }
                remindAfterHoursByChange[change] = hours
            }
            for change in Self.namedChanges where remindAfterHoursByChange[change] == nil {
                remindAfterHoursByChange[change] = 24
            }
            remindAfterHours = remindAfterHoursByChange.values.min() ?? 24
        } else {
            remindAfterHours = try c.decodeIfPresent(Double.self, forKey: .remindAfterHours) ?? 24
        }
        promptOn = nil
        if let name = try c.decodeIfPresent(String.self, forKey: .promptOn) {
            guard let change = VersionChange(rawValue: name), Self.namedChanges.contains(change) else {
                throw invalid(.promptOn, "promptOn \(name.debugDescription) is not major, minor or patch")
            }
            promptOn = change
        }
        onlyForced = try c.decodeIfPresent(Bool.self, forKey: .onlyForced) ?? false
        immediatePriority = try c.decodeIfPresent(Int.self, forKey: .immediatePriority) ?? 4
        flexibleStalenessDays = try c.decodeIfPresent(Int.self, forKey: .flexibleStalenessDays) ?? 0
        immediateStalenessDays = try c.decodeIfPresent(Int.self, forKey: .immediateStalenessDays)
        for (key, hours) in [(CodingKeys.releaseDelayHours, releaseDelayHours), (.remindAfterHours, remindAfterHours)]
        where !(hours.isFinite && hours >= 0) {
            throw invalid(key, "\(key.rawValue) \(hours) is not a number of hours (0 or more)")
        }
        guard (0...6).contains(immediatePriority) else {
            throw invalid(.immediatePriority, "immediatePriority \(immediatePriority) is outside 0...6 (6: never)")
        }
        for (key, days) in [
            (CodingKeys.flexibleStalenessDays, flexibleStalenessDays),
            (.immediateStalenessDays, immediateStalenessDays ?? 0),
        ]
        where days < 0 {
            throw invalid(key, "\(key.rawValue) \(days) is negative")
        }
    }

    /// Encodes every key, `null` for the absent ones.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(forceUpdateOn?.rawValue ?? "none", forKey: .forceUpdateOn)
        try c.encode(minimumSupportedVersion, forKey: .minimumSupportedVersion)
        try c.encode(releaseDelayHours, forKey: .releaseDelayHours)
        if remindAfterHoursByChange.isEmpty {
            try c.encode(remindAfterHours, forKey: .remindAfterHours)
        } else {
            try c.encode(
                Dictionary(uniqueKeysWithValues: remindAfterHoursByChange.map { ($0.key.rawValue, $0.value) }),
                forKey: .remindAfterHours)
        }
        try c.encode(immediatePriority, forKey: .immediatePriority)
        try c.encode(flexibleStalenessDays, forKey: .flexibleStalenessDays)
        try c.encode(immediateStalenessDays, forKey: .immediateStalenessDays)
        try c.encode(promptOn?.rawValue, forKey: .promptOn)
        try c.encode(onlyForced, forKey: .onlyForced)
    }
}
