import StoreReleaseCore
import StoreReleaseModels

extension ReleaseSnapshot {
    /// Each store's health as a snapshot records it: the verdict and the numbers behind it.
    ///
    /// Made from the reading's ``ReleaseHealthReport``; a store not judged is `nil`. Written as
    /// `health` only when health sources were read, so a snapshot without them is as before.
    public struct Health: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// The App Store's, when judged.
        public var appStore: StoreHealthRecord?
        /// Google Play's, when judged.
        public var googlePlay: StoreHealthRecord?

        /// The records of each store judged.
        public init(appStore: StoreHealthRecord? = nil, googlePlay: StoreHealthRecord? = nil) {
            (self.appStore, self.googlePlay) = (appStore, googlePlay)
        }

        /// The records of a health report.
        public init(_ report: ReleaseHealthReport) {
            appStore = report.appStore.map { StoreHealthRecord($0, judged: report.version) }
            googlePlay = report.googlePlay.map { StoreHealthRecord($0, judged: report.version) }
        }

        /// The record of `store`, when it was judged.
        public func record(of store: Store) -> StoreHealthRecord? {
            store == .appStore ? appStore : googlePlay
        }

        /// The stores judged, App Store first, each with its record.
        public var stores: [(Store, StoreHealthRecord)] {
            [(Store.appStore, appStore), (Store.googlePlay, googlePlay)].compactMap { store, record in
                record.map { (store, $0) }
            }
        }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case appStore, googlePlay
        }
    }

    /// One store's health in a snapshot or a history line: which version, the verdict, the rates.
    ///
    /// A history line (``ReleaseHistoryRound/health``) keeps the version, the verdict, the rates
    /// and the window counts: its records have no ``source``, ``versionCode``, ``users`` or
    /// ``reasons``; a snapshot's state file keeps all but the window counts.
    public struct StoreHealthRecord: Sendable, Hashable, Codable, EveryKeyEncodable {
        /// Where the numbers came from; `nil` in a history line's record.
        public var source: HealthSource?
        /// The version judged; `nil` when there was none to judge.
        public var version: Version?
        /// Its `versionCode`, when the numbers name one.
        public var versionCode: VersionCode?
        /// The verdict's name.
        public var verdict: HealthVerdict.Kind
        /// The candidate's user-days, when read.
        public var users: Int?
        /// The candidate's crash rate and its interval, when read.
        public var crashRate: HealthRate?
        /// The candidate's ANR rate and its interval, when the source has one.
        public var anrRate: HealthRate?
        /// What the verdict rests on, as ``StoreHealth/reasons`` says it; empty in a history line's record.
        public var reasons: [String]
        /// The candidate's window counts, when read (a history line keeps them for `replay`).
        public var candidate: HealthCounts?
        /// The baseline's window counts at the same age, when there is one.
        public var baseline: HealthCounts?

        /// A record of these values; a history line's gives its version, verdict, rates and counts.
        public init(
            source: HealthSource? = nil, version: Version?, versionCode: VersionCode? = nil,
            verdict: HealthVerdict.Kind, users: Int? = nil, crashRate: HealthRate?, anrRate: HealthRate?,
            reasons: [String] = [], candidate: HealthCounts? = nil, baseline: HealthCounts? = nil
        ) {
            self.source = source
            self.version = version
            self.versionCode = versionCode
            self.verdict = verdict
            self.users = users
            self.crashRate = crashRate
            self.anrRate = anrRate
            self.reasons = reasons
            self.candidate = candidate
            self.baseline = baseline
        }

        /// The record of a store's health; `judged` names the version when the source could not be read.
        public init(_ health: StoreHealth, judged: Version?) {
            let candidate = health.candidate
            self.init(
                source: health.source, version: candidate?.version ?? judged, versionCode: candidate?.versionCode,
                verdict: health.verdict.kind, users: candidate?.users, crashRate: candidate?.crashRate,
                anrRate: candidate?.anrRate, reasons: health.reasons, candidate: candidate.map(HealthCounts.init),
                baseline: health.baseline.map(HealthCounts.init))
        }

        /// What a history line keeps of the record: its version, verdict, rates and window counts.
        var keptInHistory: StoreHealthRecord {
            StoreHealthRecord(
                version: version, verdict: verdict, crashRate: crashRate, anrRate: anrRate, candidate: candidate,
                baseline: baseline)
        }

        /// Why this record makes a forced update wait, or `nil` when it is `healthy`.
        func gateReason(store: Store) -> String? {
            guard verdict != .healthy else { return nil }
            return summary(store: store) + StoreHealth.forcingWaits
        }

        /// The verdict with its numbers, as ``StoreHealth/gateReason`` says it when the record kept
        /// its windows' counts: "Google Play 81 (8.0.10) is regressed: crash rate 2.10% […] over
        /// 21,000 user-days vs 0.60% […] over 21,039 user-days for 80 at the same age".
        func summary(store: Store) -> String {
            if let candidate {
                let detail = verdict == .unknown ? reasons.last.map { " (\($0))" } ?? "" : ""
                return StoreHealth.sentence(
                    store: store, verdict: verdict.rawValue, detail: detail, candidate: HealthWindow(candidate),
                    baseline: baseline.map(HealthWindow.init))
            }
            let name = store.displayName
            let label = version.map { version in versionCode.map { " \($0) (\(version))" } ?? " \(version)" } ?? ""
            var text = "\(name)\(label) is \(verdict.rawValue)"
            if let crashRate, let users {
                text +=
                    ": crash rate \(crashRate.text(digits: 2)) over \(StoreHealth.grouped(users)) "
                    + StoreHealth.unit(of: store)
            } else if let reason = reasons.last {
                text += " (\(reason))"
            }
            return text
        }

        package enum CodingKeys: String, CodingKey, CaseIterable {
            case source, version, versionCode, verdict, users, crashRate, anrRate, reasons
        }

        /// Decodes a record, refusing a count below zero or a rate outside 0–1.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            source = try c.decode(HealthSource.self, forKey: .source)
            version = try c.decodeIfPresent(String.self, forKey: .version).map { text in
                try ReleaseSnapshot.version(text, at: [CodingKeys.version], in: c)
            }
            versionCode = try c.decodeIfPresent(VersionCode.self, forKey: .versionCode)
            verdict = try c.decode(HealthVerdict.Kind.self, forKey: .verdict)
            users = try c.decodeIfPresent(Int.self, forKey: .users)
            crashRate = try c.decodeIfPresent(HealthRate.self, forKey: .crashRate)
            anrRate = try c.decodeIfPresent(HealthRate.self, forKey: .anrRate)
            reasons = try c.decode([String].self, forKey: .reasons)
            if let users, users < 0 {
                throw DecodingError.dataCorruptedError(
                    forKey: .users, in: c, debugDescription: "users \(users) is below zero")
            }
            for (key, rate) in [(CodingKeys.crashRate, crashRate), (.anrRate, anrRate)] {
                guard let rate else { continue }
                guard [rate.lower, rate.value, rate.upper].allSatisfy({ (0...1).contains($0) }) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: c, debugDescription: "\(key.stringValue) has a fraction outside 0–1")
                }
            }
        }
    }
}
