import StoreReleaseCore

/// The update flow drawn from the machine itself.
///
/// Every state a flow reaches from a fresh start and every transition between them, labelled
/// with the event and the statuses listeners hear.
///
/// The machine is explored breadth-first with one sample of each event of the store (fixed
/// arguments: versionCode 2, 100 bytes, install error -6…). States are drawn as the app sees
/// them (no update, the dialog, pending, downloading…); events that change nothing drawn
/// (priority, staleness, `getAppUpdateInfo`, refused events) are left out.
///
/// ``dot`` draws it for people: the flexible and the immediate flow as two clusters, the happy
/// path through each as the spine, and every way back to an idle state folded into one labelled
/// edge per cluster. ``table`` lists every transition, folded or not, to read beside it.
///
/// ```swift
/// let graph = UpdateFlowGraph(store: .googlePlay)
/// print(graph.mermaid)  // a stateDiagram-v2 GitHub draws
/// ```
public struct UpdateFlowGraph: Sendable, Hashable {
    /// One transition.
    public struct Edge: Sendable, Hashable {
        /// The state before.
        public let from: String
        /// The state after.
        public let to: String
        /// `userAcceptsUpdate / PENDING`: the event and what listeners hear.
        public let label: String
    }

    /// The store whose flow this is.
    public let store: Store
    /// The states, in the order the exploration reached them; the first is the start.
    public let states: [String]
    /// The transitions, in the order the exploration found them.
    public let edges: [Edge]
    /// The flow each non-idle state belongs to (the dialog and everything after it).
    let flowOfState: [String: AppUpdateType]

    /// Explores a store's flow.
    public init(store: Store) {
        self.store = store
        let start = UpdateFlowMachine(store: store)
        var seen: Set<UpdateFlowMachine> = [start]
        var queue = [start]
        var states = [Self.node(start)]
        var edges: [Edge] = []
        var edgeSet: Set<Edge> = []
        var flowOfState: [String: AppUpdateType] = [:]
        while !queue.isEmpty {
            let machine = queue.removeFirst()
            for (event, text) in Self.samples(store) {
                var next = machine
                guard let actions = try? next.handle(event) else { continue }
                let heard = actions.compactMap { action -> String? in
                    if case .announce(let status) = action { return status.name }
                    return nil
                }
                let from = Self.node(machine)
                let to = Self.node(next)
                if from != to || !heard.isEmpty {
                    let edge = Edge(
                        from: from, to: to, label: heard.isEmpty ? text : "\(text) / \(heard.joined(separator: ", "))")
                    if edgeSet.insert(edge).inserted { edges.append(edge) }
                    if !states.contains(to) { states.append(to) }
                }
                if let type = Self.flow(next) { flowOfState[to] = type }
                if seen.insert(next).inserted { queue.append(next) }
            }
        }
        self.states = states
        self.edges = edges
        self.flowOfState = flowOfState
    }

    /// The graph as a Mermaid `stateDiagram-v2`.
    public var mermaid: String {
        var lines = ["stateDiagram-v2", "    [*] --> \(Self.identifier(states.first ?? ""))"]
        lines += states.map { "    \(Self.identifier($0)): \($0)" }
        lines += edges.map { "    \(Self.identifier($0.from)) --> \(Self.identifier($0.to)): \($0.label)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz's DOT language, drawn to be read at a glance.
    ///
    /// The flexible and the immediate flow are clusters, one above the other (the documentation
    /// draws each in a picture of its own: ``dot(flow:)``); inside a cluster a state is named
    /// without its flow. The happy path (start, accept, download, complete,
    /// install) is drawn bold and kept straight; the edges from a cluster back to an idle state
    /// (reject, fail, cancel, leave the screen) are folded into one dashed way back per cluster,
    /// through a text naming the events; the events that keep a state (progress) are written
    /// in its box; the two directions between the idle states are one edge with an arrow on each
    /// line of its label. ``table`` lists every edge unfolded.
    public var dot: String {
        dot(name: store.name, flows: [.flexible, .immediate], idle: states.filter { flowOfState[$0] == nil })
    }

    /// One flow of the graph in Graphviz's DOT language, narrow enough for the docs' column.
    ///
    /// The idle states and `flow`'s cluster, drawn as ``dot`` draws them, with the idle state the
    /// flow starts from on the left above the cluster, so the happy path runs straight down and
    /// the way back to the other idle state up the right (under 544 px wide: text 10 pt, 13 px,
    /// is at least 11 px in the 449 px column of a 1024 px window). Together a store's two panels
    /// draw every edge ``dot`` draws, the one between the idle states with its lines in the
    /// panel's order.
    public func dot(flow: AppUpdateType) -> String {
        let idle = states.filter { flowOfState[$0] == nil }
        let entries = Set(edges.filter { flowOfState[$0.from] == nil && flowOfState[$0.to] == flow }.map(\.from))
        return dot(
            name: "\(store.name)_\(flow.jsonName)", flows: [flow],
            idle: idle.filter(entries.contains) + idle.filter { !entries.contains($0) })
    }

    /// The DOT of the idle states, drawn left to right in the order of `idle`, and the clusters
    /// of `flows`, one above the other.
    private func dot(name: String, flows: [AppUpdateType], idle: [String]) -> String {
        let edges = edges.filter { edge in
            [edge.from, edge.to].allSatisfy { state in flowOfState[state].map(flows.contains) ?? true }
        }
        var lines = [
            "digraph \(name) {", "    rankdir=TB;", "    compound=true;", "    newrank=true;", "    nodesep=0.1;",
            "    ranksep=0.4;",
            "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10, margin=\"0.06,0.03\", height=0.3];",
            "    edge [fontname=\"Helvetica\", fontsize=10];", "    start [shape=point];",
            "    start -> \(Self.quoted(states.first ?? ""));",
        ]
        // The events that keep a state, written in its box: "(verb,\nverb\n/ HEARD)".
        var kept: [String: [Edge]] = [:]
        for edge in edges where edge.from == edge.to { kept[edge.from, default: []].append(edge) }
        func box(_ state: String, in type: AppUpdateType?) -> String {
            let name = type.map { state.replacing(" (\($0.jsonName))", with: "") } ?? state
            guard let loops = kept[state] else { return name == state ? "" : " [label=\(Self.quoted(name))]" }
            var heard: [String] = []
            for loop in loops {
                let parts = Self.pieces(of: loop.label)
                if parts.count > 1, !heard.contains(parts[1]) { heard.append(parts[1]) }
            }
            let verbs = loops.map(Self.verb).joined(separator: ",\n")
            let note = "(" + verbs + (heard.isEmpty ? "" : "\n/ " + heard.joined(separator: ", ")) + ")"
            return " [label=\(Self.quoted(name + "\n" + note))]"
        }
        lines.append("    { rank=same; \(idle.map(Self.quoted).joined(separator: "; ")); }")
        lines += idle.compactMap { state in
            kept[state] == nil ? nil : "    \(Self.quoted(state))\(box(state, in: nil));"
        }
        var clusters: [[String]] = []
        for type in flows {
            let members = states.filter { flowOfState[$0] == type }
            guard !members.isEmpty else { continue }
            clusters.append(members)
            lines.append("    subgraph cluster_\(type.jsonName) {")
            lines.append(
                "        label=\"\(type.jsonName)\"; style=rounded; color=gray60; fontname=\"Helvetica\"; fontsize=10;")
            lines += members.map { "        \(Self.quoted($0))\(box($0, in: type));" }
            lines.append("    }")
        }
        // One folded edge per cluster: to the first idle state its ways back reach, naming the
        // others (a flow whose offer was withdrawn ends at "no update").
        var folds: [(type: AppUpdateType, anchor: String, targets: [String], verbs: [String])] = []
        var idleEdges: [(from: String, to: String, labels: [String])] = []
        for edge in edges where edge.from != edge.to {
            if let type = flowOfState[edge.from], flowOfState[edge.to] == nil, !Self.isHappy(edge) {
                let verb = Self.verb(edge)
                if let index = folds.firstIndex(where: { $0.type == type }) {
                    if !folds[index].targets.contains(edge.to) { folds[index].targets.append(edge.to) }
                    if !folds[index].verbs.contains(verb) { folds[index].verbs.append(verb) }
                } else {
                    let anchor = states.first { flowOfState[$0] == type } ?? edge.from
                    folds.append((type, anchor, [edge.to], [verb]))
                }
                continue
            }
            if flowOfState[edge.from] == nil && flowOfState[edge.to] == nil {
                // Between the idle states: one edge each way, every event on its label.
                if let index = idleEdges.firstIndex(where: { $0.from == edge.from && $0.to == edge.to }) {
                    idleEdges[index].labels.append(edge.label)
                } else {
                    idleEdges.append((edge.from, edge.to, [edge.label]))
                }
                continue
            }
            let style = Self.isHappy(edge) ? ", weight=10, penwidth=2" : ", weight=1, color=gray40"
            lines.append(
                "    \(Self.quoted(edge.from)) -> \(Self.quoted(edge.to)) [label=\(Self.quoted(Self.padded(Self.wrapped(edge.label))))\(style)];"
            )
        }
        // The idle states are drawn in the order `idle` lists them, left to right: an edge and
        // its way back are one edge, its label's lines marked → (left to right) and ← (back).
        var drawn: Set<Int> = []
        for index in idleEdges.indices where !drawn.contains(index) {
            var forth = idleEdges[index]
            let backIndex = idleEdges.indices.first { idleEdges[$0].from == forth.to && idleEdges[$0].to == forth.from }
            drawn.insert(index)
            guard let backIndex else {
                lines.append(
                    "    \(Self.quoted(forth.from)) -> \(Self.quoted(forth.to)) "
                        + "[label=\(Self.quoted(Self.padded(forth.labels.joined(separator: "\n")))), weight=1, color=gray40];"
                )
                continue
            }
            drawn.insert(backIndex)
            var back = idleEdges[backIndex]
            if (idle.firstIndex(of: forth.from) ?? 0) > (idle.firstIndex(of: forth.to) ?? 0) { swap(&forth, &back) }
            let label = forth.labels.map { $0 + " →" } + back.labels.map { "← " + $0 }
            lines.append(
                "    \(Self.quoted(forth.from)) -> \(Self.quoted(forth.to)) "
                    + "[label=\(Self.quoted(Self.padded(label.joined(separator: "\n")))), dir=both, weight=1, color=gray40];"
            )
        }
        // A fold's events are a text of their own on the dashed way back (a node, so that no
        // edge is drawn through it), between the idle state and the cluster.
        for fold in folds {
            var label = fold.verbs
            if fold.targets.count > 1 {
                label.append("(or to \(fold.targets.dropFirst().joined(separator: ", ")))")
            }
            let text = Self.quoted("ways back (\(fold.type.jsonName))")
            lines += [
                "    \(text) [shape=plaintext, label=\(Self.quoted(label.joined(separator: "\n"))), margin=0, height=0.2];",
                "    \(Self.quoted(fold.targets[0])) -> \(text) [dir=back, style=dashed, color=gray50, weight=0];",
                "    \(text) -> \(Self.quoted(fold.anchor)) [lhead=cluster_\(fold.type.jsonName), dir=none, style=dashed, "
                    + "color=gray50, weight=0];",
            ]
        }
        // The clusters one above the other: the last state of each above the first of the next.
        for (upper, lower) in zip(clusters, clusters.dropFirst()) {
            if let last = upper.last, let first = lower.first {
                lines.append("    \(Self.quoted(last)) -> \(Self.quoted(first)) [style=invis];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// An edge's label in lines narrow enough for the picture: what listeners hear on a line of
    /// its own, and an event with an argument broken after its name when the line is long.
    static func wrapped(_ label: String) -> String {
        pieces(of: label).enumerated().map { index, part in
            let line = index == 0 ? part : "/ " + part
            guard line.count > 18, index == 0, let space = line.firstIndex(of: " ") else { return line }
            return line[..<space] + "\n" + line[line.index(after: space)...]
        }
        .joined(separator: "\n")
    }

    /// An edge's label with a thin space (U+2009) either side of each line: Graphviz sets a label
    /// against its edge, and a bold edge's stroke would touch the text in a browser.
    static func padded(_ label: String) -> String {
        pieces(of: label, separatedBy: "\n").map { "\u{2009}\($0)\u{2009}" }.joined(separator: "\n")
    }

    /// Every transition as a Markdown table, the complete list the picture folds.
    ///
    /// One row a transition (from, event, to, what listeners hear), in the order the exploration
    /// found them.
    public var table: String {
        var lines = ["| from | event | to | listeners hear |", "|---|---|---|---|"]
        for edge in edges {
            let parts = Self.pieces(of: edge.label)
            let heard = parts.count > 1 ? parts[1] : ""
            lines.append("| \(edge.from) | `\(parts[0])` | \(edge.to) | \(heard) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The events of the happy path: the flow started, accepted, downloaded, completed, installed.
    static let happyVerbs: Set<String> = [
        "startUpdateFlow", "userAcceptsUpdate", "downloadStarts", "downloadCompletes", "completeUpdate",
        "installCompletes", "relaunch",
    ]

    /// Whether an edge is on the happy path: not a loop, not a way back to the offer, and on the
    /// App Store a relaunch only when it installs the update (from the store).
    static func isHappy(_ edge: Edge) -> Bool {
        let verb = verb(edge)
        guard happyVerbs.contains(verb), edge.from != edge.to, edge.to != "update available" else { return false }
        return verb != "relaunch" || edge.label.hasSuffix("/ INSTALLED")
    }

    /// The event's name, without its arguments or what listeners hear.
    static func verb(_ edge: Edge) -> String {
        String(edge.label.prefix { $0 != " " })
    }

    /// The flow a state belongs to, or `nil` for the idle states.
    static func flow(_ machine: UpdateFlowMachine) -> AppUpdateType? {
        switch machine {
        case .googlePlay(let flow):
            switch flow.state {
            case .idle: return nil
            case .prompting(let type), .pending(let type), .downloading(let type, _, _), .downloaded(let type),
                .installing(let type):
                return type
            }
        case .appStore(let flow):
            switch flow.state {
            case .idle: return nil
            case .prompting(let type), .storeOpened(let type): return type
            }
        }
    }

    /// A state as the app sees it.
    static func node(_ machine: UpdateFlowMachine) -> String {
        switch machine {
        case .googlePlay(let flow):
            switch flow.state {
            case .idle: return flow.offer.available ? "update available" : "no update"
            case .prompting(let type): return type == .flexible ? "confirmation dialog" : "immediate screen"
            case .pending(let type): return "pending (\(type.jsonName))"
            case .downloading(let type, _, _): return "downloading (\(type.jsonName))"
            case .downloaded(let type): return "downloaded (\(type.jsonName))"
            case .installing(let type): return "installing (\(type.jsonName))"
            }
        case .appStore(let flow):
            switch flow.state {
            case .idle: return flow.isUpdateAvailable ? "update available" : "up to date"
            case .prompting(let type): return "prompt (\(type.jsonName))"
            case .storeOpened(let type): return "store opened (\(type.jsonName))"
            }
        }
    }

    /// One sample of each event of the store that can change what is drawn, as a script
    /// writes it.
    static func sampleLines(_ store: Store) -> [String] {
        guard store != .appStore else {
            return [
                "setStoreVersion 2.0", "setInstalledVersion 1.0", "startUpdateFlow flexible",
                "startUpdateFlow immediate",
                "userAcceptsUpdate", "userRejectsUpdate", "relaunch 2.0", "relaunch 1.0",
            ]
        }
        return [
            "setUpdateAvailable 2", "setUpdateNotAvailable", "startUpdateFlow flexible", "startUpdateFlow immediate",
            "userAcceptsUpdate", "userRejectsUpdate", "downloadStarts", "setTotalBytesToDownload 100",
            "setBytesDownloaded 50", "downloadCompletes", "downloadFails", "userCancelsDownload", "completeUpdate",
            "installCompletes", "installFails", "setInstallErrorCode -6", "setInstallErrorCode 0",
        ]
    }

    /// The sample events, parsed by the script parser (the one vocabulary).
    static func samples(_ store: Store) -> [(UpdateFlowEvent, String)] {
        sampleLines(store).compactMap { line in
            let words = line.split(separator: " ").map(String.init)
            guard let verb = words.first,
                let event = try? UpdateFlowScriptParser.event(verb, Array(words.dropFirst()), store: store, line: 1)
            else { return nil }
            return (event, line)
        }
    }

    private static func identifier(_ label: String) -> String {
        String(label.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }

    /// A DOT string: backslashes and quotes escaped, a line break as `\n`.
    private static func quoted(_ text: String) -> String {
        let escaped = text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return "\"" + escaped.replacing("\n", with: "\\n") + "\""
    }

    /// The pieces of `label` between each `separator` (a verb and what it hears, or a label's lines),
    /// empty pieces kept.
    private static func pieces(of label: String, separatedBy separator: String = " / ") -> [String] {
        label.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }
}
