import StoreReleaseCore

extension ReleaseHealthReport {
    /// One line a store read, for people.
    ///
    /// `Google Play 81 (8.0.10): 2.1% [1.9–2.3] of 21,000 user-days vs 0.6% for 80 at the same
    /// age: regressed`. A reason from outside (a store's error message) has its control
    /// characters written out (`\u{1B}`), so it cannot move the cursor or forge a line.
    public var text: String {
        stores.map { $0.line + "\n" }.joined()
    }

    /// The same lines as a Markdown list, the verdict in bold.
    ///
    /// A reason from outside is escaped: its `**`, links, images and HTML read as written.
    public var markdown: String {
        stores.map { "- " + $0.line(verdict: "**\($0.verdict.name)**", escape: OutsideText.markdown) + "\n" }
            .joined()
    }
}

extension StoreHealth {
    /// The store's line (see ``ReleaseHealthReport/text``).
    public var line: String { line(verdict: verdict.name, escape: OutsideText.terminal) }

    /// Why this verdict makes a forced update wait, or `nil` when it is `healthy`.
    ///
    /// The store, the verdict, the candidate's and the baseline's rates with their 95% intervals
    /// and the user-days under each: `Google Play 81 (8.0.10) is regressed: crash rate 2.10%
    /// [1.91–2.30] over 21,000 user-days vs 0.60% [0.50–0.71] over 21,039 user-days for 80 at the
    /// same age; …`.
    public var gateReason: String? {
        let detail: String
        switch verdict {
        case .healthy: return nil
        case .regressed: detail = ""
        case .insufficientData(_, let minimum): detail = " (fewer than \(Self.grouped(minimum)) \(unit))"
        case .unknown(let reason): detail = " (\(reason))"
        }
        return Self.sentence(
            store: store, verdict: verdict.name, detail: detail, candidate: candidate, baseline: baseline)
            + Self.forcingWaits
    }

    /// What a forced update's health reason ends with.
    static let forcingWaits = "; forcing waits until every store's health is healthy"

    /// The health sentence every output that names a verdict with its numbers shares (the force
    /// gate's reason, a halt's cause): the store, the candidate, the verdict and `detail`, the
    /// candidate's rates over its user-days (sessions on the App Store) against the baseline's.
    static func sentence(
        store: Store, verdict: String, detail: String, candidate: HealthWindow?, baseline: HealthWindow?
    ) -> String {
        let name = store.displayName
        let unit = unit(of: store)
        guard let candidate else { return "\(name)'s health is \(verdict)\(detail)" }
        var text = "\(name) \(candidate.label) is \(verdict)\(detail): crash rate "
        text += "\(candidate.crashRate.text(digits: 2)) over \(Self.grouped(candidate.users)) \(unit)"
        if let baseline {
            let age = baseline.ageDays < candidate.ageDays ? "over its \(baseline.ageDays) days" : "at the same age"
            text += " vs \(baseline.crashRate.text(digits: 2)) over \(Self.grouped(baseline.users)) \(unit) for "
            text += "\(baseline.label) \(age)"
            if let rate = candidate.anrRate, let other = baseline.anrRate {
                text += ", ANR rate \(rate.text(digits: 2)) vs \(other.text(digits: 2))"
            }
        } else {
            if let rate = candidate.anrRate { text += ", ANR rate \(rate.text(digits: 2))" }
            text += " (no earlier version to compare)"
        }
        return text
    }

    /// `Google Play` or `App Store`.
    var storeName: String { store.displayName }

    /// What a window's `users` count: Play's users a day (user-days), the App Store's sessions
    /// (App Store Connect's Analytics Reports count sessions, not users).
    var unit: String { Self.unit(of: store) }

    /// What a store's counts count: user-days on Google Play, sessions on the App Store.
    static func unit(of store: Store) -> String { store == .googlePlay ? "user-days" : "sessions" }

    /// The line with `name` for the verdict and `escape` applied to the reasons, which may carry
    /// text from outside.
    func line(verdict name: String, escape: (String) -> String) -> String {
        guard let candidate else {
            return "\(storeName): \(name) (\(escape(reasons.first ?? "not read")))"
        }
        var line = "\(storeName) \(candidate.label): \(candidate.crashRate.text()) of "
        line += "\(Self.grouped(candidate.users)) \(unit)"
        if let rate = candidate.anrRate { line += ", ANR \(rate.text())" }
        if let baseline {
            let age = baseline.ageDays < candidate.ageDays ? "over its \(baseline.ageDays) days" : "at the same age"
            line += " vs \(HealthRate.percent(baseline.crashRate.value))"
            if let rate = baseline.anrRate, candidate.anrRate != nil {
                line += ", ANR \(HealthRate.percent(rate.value))"
            }
            line += " for \(baseline.versionCode.map(String.init(describing:)) ?? baseline.version.description) \(age)"
        } else {
            line += " (no earlier version to compare)"
        }
        line += ": \(name)"
        switch verdict {
        case .insufficientData(_, let minimum): line += " (fewer than \(Self.grouped(minimum)) \(unit))"
        case .unknown(let reason): line += " (\(escape(reason)))"
        case .healthy, .regressed: break
        }
        return line
    }
}

extension HealthWindow {
    /// `81 (8.0.10)` with a `versionCode`, else `8.0.10`.
    public var label: String {
        versionCode.map { "\($0) (\(version))" } ?? version.description
    }
}
