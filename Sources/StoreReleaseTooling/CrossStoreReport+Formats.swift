import StoreReleaseClients
import StoreReleaseCore
import StoreReleaseModels

extension CrossStoreReport {
    /// The report as a table for people.
    public var text: String {
        var lines = [agree ? "The stores agree." : "The stores do not agree.", ""]
        lines.append("App Store")
        for storefront in storefronts {
            let parts = [
                storefront.country, storefront.version, storefront.releaseDate ?? "",
                laggingStorefronts.contains(storefront.country) ? "(behind)" : "",
            ]
            lines.append("  " + parts.filter { !$0.isEmpty }.joined(separator: "  "))
        }
        if let status = appStoreConnect {
            lines += status.text.split(separator: "\n").map(String.init)
        }
        lines.append("Google Play (\(playTrack))")
        lines.append("  live     \(playLiveLabel)")
        if let rollout = playRollout {
            lines.append("  rollout  \(Self.label(rollout.version, rollout.name, rollout.versionCode))\(rolloutReach)")
        }
        for halted in playHalted {
            let share = Self.percent(halted.userFraction).map { " at \($0) of users" } ?? ""
            lines.append("  halted   \(Self.label(halted.version, nil, halted.versionCode))\(share)")
        }
        if let ahead, let aheadBy {
            lines.append("\(ahead == "appStore" ? "The App Store" : "Google Play") is ahead (\(aheadBy)).")
        }
        lines.append(
            forceLine
                + (forceUpdate.safe ? "safe now." : "not yet: " + forceUpdate.reasons.joined(separator: "; ") + "."))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as GitHub-flavoured Markdown, for a CI job summary.
    ///
    /// A heading, a table of the storefronts and Play's releases, and the force-update verdict
    /// with its reasons.
    public var markdown: String {
        var lines = ["### " + (agree ? "The stores agree" : "The stores do not agree"), ""]
        lines.append("| Store | Where | Version | versionCode | Status |")
        lines.append("|---|---|---|---|---|")
        for storefront in storefronts {
            let behind = laggingStorefronts.contains(storefront.country) ? "behind" : "live"
            let date = storefront.releaseDate.map { ", released \($0)" } ?? ""
            lines.append(Self.row(["App Store", storefront.country, storefront.version, "", behind + date]))
        }
        if let status = appStoreConnect {
            if let live = status.live {
                let phase = live.phasedRelease.map {
                    ", phased release \($0.state): \($0.percent)% of automatic updates"
                }
                lines.append(Self.row(["App Store Connect", "live", live.version, "", live.state + (phase ?? "")]))
            }
            if let pending = status.pending {
                lines.append(Self.row(["App Store Connect", "pending", pending.version, "", pending.state]))
            }
        }
        if playVersionCode != nil {
            lines.append(
                Self.row(["Google Play", playTrack, playVersion ?? "unknown", Self.code(playVersionCode), "completed"]))
        }
        if let rollout = playRollout {
            let status = "in progress" + rolloutReach
            lines.append(
                Self.row([
                    "Google Play", playTrack, rollout.version ?? "unknown", Self.code(rollout.versionCode), status,
                ]))
        }
        for halted in playHalted {
            let share = Self.percent(halted.userFraction).map { " at \($0) of users" } ?? ""
            lines.append(
                Self.row([
                    "Google Play", playTrack, halted.version ?? "unknown", Self.code(halted.versionCode),
                    "halted" + share,
                ]))
        }
        if storefronts.isEmpty && playVersionCode == nil && playRollout == nil && playHalted.isEmpty {
            lines.append(Self.row(["", "", "nothing live", "", ""]))
        }
        lines.append("")
        if !playReleaseNameWithoutVersion.isEmpty {
            let codes = playReleaseNameWithoutVersion.map { "`\($0)`" }.joined(separator: ", ")
            lines += ["Play releases whose names carry no version (versionCode): \(codes).", ""]
        }
        lines.append("**\(forceLine)\(forceUpdate.safe ? "safe now." : "not yet.")**")
        lines += forceUpdate.reasons.map { "- " + Self.escaped($0) }
        return lines.joined(separator: "\n") + "\n"
    }

    private var playLiveLabel: String {
        guard playVersionCode != nil || playReleaseName != nil else { return "none" }
        return Self.label(playVersion, playReleaseName, playVersionCode)
    }

    /// ` to 20% of users in US, CA only, priority 3`.
    private var rolloutReach: String {
        guard let rollout = playRollout else { return "" }
        var text = Self.percent(rollout.userFraction).map { " to \($0) of users" } ?? ""
        if let countries = rollout.countries {
            text +=
                " in \(countries.joined(separator: ", "))"
                + (rollout.includeRestOfWorld ? " and the rest of the world" : " only")
        }
        return text + (rollout.inAppUpdatePriority.map { ", priority \($0)" } ?? "")
    }

    private var forceLine: String {
        forceUpdate.version.map { "Forcing \($0): " } ?? "Forcing: "
    }

    /// `8.0.2 (versionCode 80)`; a name without a version is shown as written, marked so.
    private static func label(_ version: String?, _ name: String?, _ versionCode: Int?) -> String {
        let code = versionCode.map { " (versionCode \($0))" } ?? ""
        if let version { return version + code }
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
