import Foundation
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

    /// Explores a store's flow.
    public init(store: Store) {
        self.store = store
        let start = UpdateFlowMachine(store: store)
        var seen: Set<UpdateFlowMachine> = [start]
        var queue = [start]
        var states = [Self.node(start)]
        var edges: [Edge] = []
        var edgeSet: Set<Edge> = []
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
                if seen.insert(next).inserted { queue.append(next) }
            }
        }
        self.states = states
        self.edges = edges
    }

    /// The graph as a Mermaid `stateDiagram-v2`.
    public var mermaid: String {
        var lines = ["stateDiagram-v2", "    [*] --> \(Self.identifier(states.first ?? ""))"]
        lines += states.map { "    \(Self.identifier($0)): \($0)" }
        lines += edges.map { "    \(Self.identifier($0.from)) --> \(Self.identifier($0.to)): \($0.label)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph in Graphviz's DOT language.
    public var dot: String {
        var lines = ["digraph \(store.name) {", "    rankdir=LR;", "    node [shape=box, style=rounded];"]
        lines.append("    start [shape=point];")
        lines.append("    start -> \(Self.quoted(states.first ?? ""));")
        lines += edges.map { "    \(Self.quoted($0.from)) -> \(Self.quoted($0.to)) [label=\(Self.quoted($0.label))];" }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
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

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
