import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension CrossStoreReport {
    /// The report as a table for people.
    public var text: String {
        var lines = [agree ? "The stores agree." : "The stores do not agree.", ""]
        lines.append("App Store")
        // A sweep of every storefront reads as counts, then the exceptions, not 175 rows.
        let many = storefronts.count > Self.listedStorefronts
        for storefront in storefronts where !many || laggingStorefronts.contains(storefront.country) {
            let parts = [
                storefront.country, storefront.version.description, storefront.releaseDate ?? "",
                laggingStorefronts.contains(storefront.country) ? "(behind)" : "",
            ]
            lines.append("  " + parts.filter { !$0.isEmpty }.joined(separator: "  "))
        }
        if let summary = countrySummary { lines.append("  " + summary) }
        if let status = appStoreConnect {
            lines += status.text.split(separator: "\n").map(String.init)
        }
        lines.append("Google Play (\(playTrack))")
        lines.append("  live     \(playLiveLabel)")
        if let countries = playCountries { lines.append("  serves   \(countries.reach)") }
        if let rollout = playRollout {
            lines.append("  rollout  \(Self.label(rollout.version, rollout.name, rollout.versionCode))\(rolloutReach)")
        }
        for halted in playHalted {
            let share = Self.percent(halted.userFraction).map { " at \($0) of users" } ?? ""
            lines.append("  halted   \(Self.label(halted.version, nil, halted.versionCode))\(share)")
        }
        for action in playRecoveryActions ?? [] { lines.append("  recovery \(action.sentence)") }
        if let health {
            lines.append("Health")
            lines += health.stores.map { "  " + $0.line }
        }
        if let ahead, let aheadBy {
            lines.append("\(ahead == .appStore ? "The App Store" : "Google Play") is ahead (\(aheadBy)).")
        }
        lines.append(
            forceLine
                + (forceUpdate.safe ? "safe now." : "not yet: " + forceUpdate.reasons.joined(separator: "; ") + "."))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Up to this many storefronts are listed one a line; more are counted.
    static let listedStorefronts = 12

    /// The countries counted by class, or `nil` when there is nothing to count.
    ///
    /// "Storefronts: 170 live, 2 behind (jp, kr), 1 missing (fr), 8 not sold"; shown for a sweep
    /// (more than twelve storefronts, or any missing, not sold or unexpected).
    public var countrySummary: String? {
        let unusual = countries.contains {
            $0.appStore == .missing || $0.appStore == .notSold || $0.appStore == .unexpected
        }
        guard storefronts.count > Self.listedStorefronts || unusual else { return nil }
        var parts: [String] = []
        for kind in CountryStatus.AppStore.allCases {
            let members = countries.filter { $0.appStore == kind }.map(\.country)
            guard !members.isEmpty else { continue }
            let named = kind == .live || kind == .notSold ? "" : " (\(Self.list(members)))"
            parts.append("\(members.count) \(Self.label(kind))\(named)")
        }
        var line = "Storefronts: " + parts.joined(separator: ", ")
        if whereSoldUnknown, countries.contains(where: { $0.appStore == .missing }) {
            line += " (missing: no result there, sold or not; App Store Connect would tell which are not sold)"
        }
        let play = countries.filter { $0.googlePlay != .unknown }
        if !play.isEmpty {
            let available = play.filter { $0.googlePlay == .available }.map(\.country)
            line += "; Google Play available in \(available.count) of them (\(Self.list(available)))"
        }
        return line
    }

    static func label(_ kind: CountryStatus.AppStore) -> String {
        switch kind {
        case .live: "live"
        case .behind: "behind"
        case .missing: "missing"
        case .notSold: "not sold"
        case .unexpected: "unexpected (a result where App Store Connect says it is not sold)"
        }
    }

    /// Codes, the first twenty of them and how many more.
    static func list(_ codes: [String]) -> String {
        codes.count <= 20
            ? codes.joined(separator: ", ") : codes.prefix(20).joined(separator: ", ") + " and \(codes.count - 20) more"
    }

    /// The report as GitHub-flavoured Markdown, for a CI job summary.
    ///
    /// A heading, a table of the storefronts and Play's releases, and the force-update verdict
    /// with its reasons.
    public var markdown: String {
        var lines = ["### " + (agree ? "The stores agree" : "The stores do not agree"), ""]
        lines.append("| Store | Where | Version | versionCode | Status |")
        lines.append("|---|---|---|---|---|")
        let many = storefronts.count > Self.listedStorefronts
        for storefront in storefronts where !many || laggingStorefronts.contains(storefront.country) {
            let behind = laggingStorefronts.contains(storefront.country) ? "behind" : "live"
            let date = storefront.releaseDate.map { ", released \($0)" } ?? ""
            lines.append(
                Self.row(["App Store", storefront.country, storefront.version.description, "", behind + date]))
        }
        if let status = appStoreConnect {
            if let live = status.live {
                let phase = live.phasedRelease.map {
                    ", phased release \($0.state): \($0.percent)% of automatic updates"
                }
                lines.append(
                    Self.row(["App Store Connect", "live", live.version, "", live.state.rawValue + (phase ?? "")]))
            }
            if let pending = status.pending {
                lines.append(Self.row(["App Store Connect", "pending", pending.version, "", pending.state.rawValue]))
            }
        }
        if playVersionCode != nil {
            lines.append(
                Self.row([
                    "Google Play", playTrack, playVersion?.description ?? "unknown", Self.code(playVersionCode),
                    "completed",
                ]))
        }
        if let rollout = playRollout {
            let status = "in progress" + rolloutReach
            lines.append(
                Self.row([
                    "Google Play", playTrack, rollout.version?.description ?? "unknown", Self.code(rollout.versionCode),
                    status,
                ]))
        }
        for halted in playHalted {
            let share = Self.percent(halted.userFraction).map { " at \($0) of users" } ?? ""
            lines.append(
                Self.row([
                    "Google Play", playTrack, halted.version?.description ?? "unknown", Self.code(halted.versionCode),
                    "halted" + share,
                ]))
        }
        if storefronts.isEmpty && playVersionCode == nil && playRollout == nil && playHalted.isEmpty {
            lines.append(Self.row(["", "", "nothing live", "", ""]))
        }
        lines.append("")
        if let summary = countrySummary { lines += [Self.escaped(summary), ""] }
        if let countries = playCountries {
            lines += [Self.escaped("Google Play (\(countries.track)) serves \(countries.reach)."), ""]
        }
        if !playReleaseNameWithoutVersion.isEmpty {
            let codes = playReleaseNameWithoutVersion.map { "`\($0)`" }.joined(separator: ", ")
            lines += ["Play releases whose names carry no version (versionCode): \(codes).", ""]
        }
        if let actions = playRecoveryActions, !actions.isEmpty {
            lines += actions.map { "- Play App Recovery: " + Self.escaped($0.sentence) } + [""]
        }
        if let health {
            lines += ["Health:", ""] + health.markdown.split(separator: "\n").map(String.init) + [""]
        }
        lines.append("**\(forceLine)\(forceUpdate.safe ? "safe now." : "not yet.")**")
        lines += forceUpdate.reasons.map { "- " + Self.escaped($0) }
        return lines.joined(separator: "\n") + "\n"
    }

    private var playLiveLabel: String {
        guard playVersionCode != nil || playReleaseName != nil else { return "none" }
        return Self.label(playVersion, playReleaseName, playVersionCode)
    }

    /// ` to 20% of users in us, ca only, priority 3`.
    private var rolloutReach: String {
        guard let rollout = playRollout else { return "" }
        var text = Self.percent(rollout.userFraction).map { " to \($0) of users" } ?? ""
        if let countries = rollout.countries {
            text +=
                " in \(countries.map { $0.lowercased() }.joined(separator: ", "))"
                + (rollout.includeRestOfWorld ? " and the rest of the world" : " only")
        }
        return text + (rollout.inAppUpdatePriority.map { ", priority \($0)" } ?? "")
    }

    private var forceLine: String {
        forceUpdate.version.map { "Forcing \($0): " } ?? "Forcing: "
    }

    /// `8.0.2 (versionCode 80)`; a name without a version is shown as written, marked so.
    private static func label(_ version: Version?, _ name: String?, _ versionCode: Int?) -> String {
        let code = versionCode.map { " (versionCode \($0))" } ?? ""
        if let version { return version.description + code }
        if let name { return "\(name.debugDescription), no version in the name" + code }
        return "no version" + code
    }

    private static func code(_ versionCode: Int?) -> String {
        versionCode.map(String.init) ?? ""
    }

    private static func row(_ cells: [String]) -> String {
        "| " + cells.map(escaped).joined(separator: " | ") + " |"
    }

    /// Text safe in a Markdown table cell or list item: `|`, `*`, `_`, backticks and brackets escaped.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "|*_`[]<>\\".contains(character) { out.append("\\") }
            out.append(character == "\n" ? " " : character)
        }
        return out
    }
}
