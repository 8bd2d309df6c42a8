import StoreReleaseCore
import StoreReleaseModels

/// One store's health for a version.
///
/// The candidate's window, the baseline's at the same age, the verdict and the reasons for it
/// in words.
public struct StoreHealth: Sendable, Hashable {
    /// The store judged.
    public let store: Store
    /// Where the numbers came from.
    public let source: HealthSource
    /// The candidate's window: all its days with users. `nil` only when the source could not be read.
    public let candidate: HealthWindow?
    /// The baseline's first days, as many as the candidate's; `nil` when there is none.
    public let baseline: HealthWindow?
    /// What the rule says: see ``HealthVerdict``.
    public let verdict: HealthVerdict
    /// What the verdict rests on, one sentence each: the rates, their intervals, the user-days.
    public let reasons: [String]

    /// The health of a store whose source could not be read: `unknown`, the reason naming it.
    public static func unreadable(store: Store, source: HealthSource, reason: String) -> StoreHealth {
        StoreHealth(
            store: store, source: source, candidate: nil, baseline: nil, verdict: .unknown(reason: reason),
            reasons: [reason])
    }

    /// Judges `version` on `store` from `days` by ``HealthRule``.
    ///
    /// The candidate's age *k* is its number of days with users; the baseline (`baseline`, else
    /// the highest version below `version` with users; on Google Play the version of the highest
    /// `versionCode` below the candidate's) is read over its own days 1…*k*. On Google
    /// Play a `version` (or `baseline`) of digits that is a `versionCode` of the days names that
    /// code's version. Days after `through` are not counted. One row a day per version: a row
    /// repeated exactly (same date, version, `versionCode` and counts) counts once. Every rate the
    /// store reports (``HealthMetric/reported(by:)``: Google Play's ANR rate too) must be read on
    /// every day of the candidate's window for `healthy`. `notes` (what the source left out)
    /// come first in the reasons.
    ///
    /// - Returns: The verdict; `unknown` when a `baseline` was named and has no day with users,
    ///   when two rows of one day disagree (the day named), or when a rate the store reports is
    ///   not read (named) and the days before, every rate read, show no regression (when they
    ///   do, `regressed`, judged through the last day every rate is read).
    public static func judge(
        _ version: VersionOrCode, baseline: VersionOrCode? = nil, store: Store, source: HealthSource,
        days: [HealthDay], criteria: HealthCriteria, through: HealthDate? = nil, notes: [String] = []
    ) -> StoreHealth {
        let counted = through.map { last in days.filter { $0.date <= last } } ?? days
        let (days, conflicts) = HealthDuplicates.fold(counted)
        if let reason = HealthDuplicates.reason(conflicts, in: source) {
            return StoreHealth(
                store: store, source: source, candidate: nil, baseline: nil, verdict: .unknown(reason: reason),
                reasons: notes + [reason])
        }
        let metrics = HealthMetric.reported(by: store)
        let candidateVersion = resolve(version, store: store, in: days)
        let age = HealthWindow.age(of: candidateVersion, in: days)
        let candidate = HealthWindow(version: candidateVersion, days: days, age: age)
        var reasons = notes
        if age == 0 { reasons.append("\(candidateVersion) has no day with users in the \(source.noun)") }
        let baselineVersion: Version?
        if let named = baseline {
            let resolved = resolve(named, store: store, in: days)
            guard HealthWindow.age(of: resolved, in: days) > 0 else {
                let reason = "the baseline \(resolved) has no day with users in the \(source.noun)"
                return StoreHealth(
                    store: store, source: source, candidate: candidate, baseline: nil,
                    verdict: .unknown(reason: reason), reasons: reasons + [reason])
            }
            baselineVersion = resolved
        } else {
            baselineVersion = previous(candidateVersion, store: store, in: days)
        }
        let window = baselineVersion.map { HealthWindow(version: $0, days: days, age: age) }
        let verdict = HealthRule.verdict(candidate: candidate, baseline: window, criteria: criteria, metrics: metrics)
        reasons += explanation(
            of: verdict, candidate: candidate, baseline: window, metrics: metrics,
            halts: criteria.sequential ? criteria.haltEvidence : nil)
        // A rate not read on the latest days is not a passed one, but the days before, where every
        // rate is read, may already show a regression: that verdict is not held back by the lag.
        if case .unknown = verdict, let firstDay = candidate.firstDay,
            let unread = candidate.daysWithoutANR.first, firstDay < unread
        {
            let earlier = judge(
                version, baseline: baseline, store: store, source: source, days: counted, criteria: criteria,
                through: unread.adding(days: -1))
            if case .regressed = earlier.verdict, let judged = earlier.candidate {
                let read =
                    "judged through \(unread.adding(days: -1)), the last day every rate of \(judged.label) is read"
                return StoreHealth(
                    store: store, source: source, candidate: judged, baseline: earlier.baseline,
                    verdict: earlier.verdict, reasons: reasons + [read] + earlier.reasons)
            }
        }
        return StoreHealth(
            store: store, source: source, candidate: candidate, baseline: window, verdict: verdict, reasons: reasons)
    }

    /// The version before `version` with users: on Google Play the one of the highest
    /// `versionCode` below the candidate's (a `versionCode` no serving release names is named by
    /// its digits, which do not order against version names), elsewhere the highest version below.
    private static func previous(_ version: Version, store: Store, in days: [HealthDay]) -> Version? {
        let used = days.filter { $0.users > 0 }
        let codes = used.filter { $0.version == version }.compactMap(\.versionCode)
        if store == .googlePlay, let lowest = codes.min() {
            let below = used.filter { ($0.versionCode.map { $0 < lowest } ?? false) }
            if let day = below.max(by: { ($0.versionCode?.rawValue ?? 0) < ($1.versionCode?.rawValue ?? 0) }) {
                return day.version
            }
        }
        return Set(used.filter { $0.version < version }.map(\.version)).max()
    }

    /// The version `named` names on `store`: on Google Play, a `versionCode` of `days` names
    /// that code's version (``VersionOrCode/resolved(byCode:)``); elsewhere the name.
    private static func resolve(_ named: VersionOrCode, store: Store, in days: [HealthDay]) -> Version {
        guard store == .googlePlay else { return named.name }
        return named.resolved { code in days.first { $0.versionCode == code }?.version }
    }

    /// The sentences behind a verdict; `halts`: judged by ``SequentialHealthRule``, halting at that
    /// evidence, which is said.
    private static func explanation(
        of verdict: HealthVerdict, candidate: HealthWindow, baseline: HealthWindow?, metrics: [HealthMetric],
        halts: Double?
    ) -> [String] {
        var reasons: [String] = []
        let days = "\(candidate.ageDays) day\(candidate.ageDays == 1 ? "" : "s")"
        if let baseline, baseline.ageDays < candidate.ageDays {
            reasons.append(
                "the baseline \(baseline.version) has only \(baseline.ageDays) of \(candidate.ageDays) days with users")
        }
        if baseline == nil {
            reasons.append("no earlier version with users to compare \(candidate.version) with: judged by the ceilings")
        }
        for metric in metrics where candidate.ageDays > 0 {
            if candidate.rate(metric) == nil, verdict.kind != .unknown {
                reasons.append(HealthRule.unread(metric, of: candidate))
            } else if let baseline, candidate.rate(metric) != nil, baseline.rate(metric) == nil {
                reasons.append(
                    "the \(metric) of the baseline \(baseline.label) is not read on every day of its window: "
                        + "\(candidate.label)'s is judged by the ceiling alone")
            }
        }
        switch verdict {
        case .regressed(let regressions):
            for regression in regressions {
                switch regression {
                case .aboveBaseline(let metric, let rate, let other):
                    reasons.append(
                        "\(metric) \(rate.text(digits: 2)) over \(candidate.version)'s first \(days) "
                            + "(\(grouped(candidate.users)) user-days) is above \(baseline?.version.description ?? "the baseline")'s "
                            + "\(other.text(digits: 2)) at the same age (\(grouped(baseline?.users ?? 0)) user-days)"
                            + (halts.map { evidence(metric, candidate: candidate, baseline: baseline, halts: $0) } ?? "")
                    )
                case .aboveCeiling(let metric, let rate, let ceiling):
                    reasons.append(
                        "\(metric) \(rate.text(digits: 2)) over \(candidate.version)'s first \(days) "
                            + "(\(grouped(candidate.users)) user-days) is above the ceiling "
                            + HealthRate.percent(ceiling, digits: 2)
                            + (halts.map { evidence(metric, candidate: candidate, ceiling: ceiling, halts: $0) } ?? ""))
                }
            }
        case .insufficientData(let userDays, let minimum) where userDays >= minimum:
            for metric in HealthMetric.allCases {
                guard let baseline, let rate = candidate.rate(metric), let other = baseline.rate(metric) else {
                    continue
                }
                let said = evidence(
                    metric, candidate: candidate, baseline: baseline, halts: halts ?? SequentialHealthRule.haltEvidence)
                guard !said.isEmpty else { continue }
                reasons.append(
                    "\(metric) \(rate.text(digits: 2)) over \(candidate.version)'s first \(days) "
                        + "(\(grouped(userDays)) user-days) leans above \(baseline.version)'s \(other.text(digits: 2)) "
                        + "at the same age\(said): held until more data decide")
            }
        case .insufficientData(let userDays, let minimum):
            reasons.append(
                "\(grouped(userDays)) user-days over \(candidate.version)'s first \(days), fewer than the "
                    + "\(grouped(minimum)) a verdict needs; crash rate \(candidate.crashRate.text(digits: 2))")
        case .healthy:
            reasons.append(
                "crash rate \(candidate.crashRate.text(digits: 2)) over \(grouped(candidate.users)) user-days"
                    + (baseline.map { " vs \($0.crashRate.text(digits: 2)) for \($0.version) at the same age" } ?? "")
                    + ": no rate above the baseline's interval or the ceiling")
        case .unknown(let reason):
            reasons.append(reason)
        }
        return reasons
    }

    /// ` (evidence 5,210 to 1 of a higher rate, 4,000 halts)`: the sequential rule's likelihood
    /// ratio against the baseline, when at least ``SequentialHealthRule/leaningEvidence``; else empty.
    private static func evidence(
        _ metric: HealthMetric, candidate: HealthWindow, baseline: HealthWindow?, halts: Double
    ) -> String {
        guard let baseline, let events = candidate.events(metric), let other = baseline.events(metric) else {
            return ""
        }
        let ratio = SequentialHealthRule.evidenceAboveBaseline(
            candidate: events, of: candidate.users, baseline: other, of: baseline.users)
        guard ratio >= SequentialHealthRule.leaningEvidence else { return "" }
        return " (evidence \(odds(ratio)) to 1 of a higher rate, \(odds(halts)) halts)"
    }

    /// ` (evidence 5,210 to 1 of a rate above it, 4,000 halts)`: against the ceiling.
    private static func evidence(_ metric: HealthMetric, candidate: HealthWindow, ceiling: Double, halts: Double)
        -> String
    {
        guard let events = candidate.events(metric) else { return "" }
        let ratio = SequentialHealthRule.evidenceAboveCeiling(candidate: events, of: candidate.users, ceiling: ceiling)
        return " (evidence \(odds(ratio)) to 1 of a rate above it, \(odds(halts)) halts)"
    }

    /// `5,210`, or `more than 10^12`: a likelihood ratio, rounded.
    static func odds(_ ratio: Double) -> String {
        ratio < 1e12 ? grouped(Int(ratio.rounded())) : "more than 10^12"
    }

    /// `21,000`.
    package static func grouped(_ count: Int) -> String {
        let digits = String(count)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case source, candidate, baseline, verdict, reasons
    }
}

extension StoreHealth: EveryKeyEncodable {}

extension HealthSource {
    /// `health file`, for sentences.
    var noun: String {
        switch self {
        case .playDeveloperReporting: "Play Developer Reporting API"
        case .appStoreConnectAnalytics: "App Store Connect Analytics Reports"
        case .healthFile: "health file"
        }
    }
}
