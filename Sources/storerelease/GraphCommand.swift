import StoreReleaseKit

extension Command {
    /// `storerelease graph [--store googlePlay|appStore] [--format mermaid|dot|table] [--flow flexible|immediate]`.
    static let graph = Command(
        name: "graph",
        synopsis: "graph [--store googlePlay|appStore] [--format mermaid|dot|table] [--flow flexible|immediate]",
        summary: "Draws the update flow's state machine: every reachable state and transition.",
        discussion: """
            Explores the machine itself from a fresh start, with one sample of each event of the
            store (the verbs of 'storerelease simulate'), and prints every state reached and every
            transition, labelled with the event and the install statuses listeners hear. Events
            that change nothing drawn (priority, staleness, getAppUpdateInfo, refused events) are
            left out. Mermaid (default) is a stateDiagram-v2 that GitHub draws, every transition
            an edge; DOT is Graphviz's language ('| dot -Tsvg' draws it), drawn to be read: the
            flexible and immediate flows as clusters around their happy path, the ways back to an
            idle state folded into one edge a cluster; with --flow, DOT draws that flow alone
            (the idle states above its cluster), a picture narrow enough for the docs' column.
            Table is every transition as a Markdown table, the complete list to read beside the
            picture.
            Exit status: 0 printed; 2 bad flags.
            """,
        options: [GraphCommand.store, GraphCommand.format, GraphCommand.flow],
        examples: [
            "storerelease graph  # stateDiagram-v2, confirmation dialog",
            "storerelease graph --store appStore --format dot  # digraph appStore",
            "storerelease graph --format dot --flow immediate  # digraph googlePlay_immediate",
        ],
        run: { arguments throws(CLIError) in
            try arguments.requireOnlyFlags()
            let graph = UpdateFlowGraph(store: try arguments.value(GraphCommand.store) ?? .googlePlay)
            let format = try arguments.value(GraphCommand.format) ?? .mermaid
            let flow = try arguments.value(GraphCommand.flow)
            if flow != nil && format != .dot {
                throw .usage(
                    "\(arguments.command): \(GraphCommand.flow) draws one flow in DOT: add \(GraphCommand.format) dot")
            }
            switch format {
            case .mermaid: StandardStreams.print(graph.mermaid)
            case .dot: StandardStreams.print(flow.map(graph.dot(flow:)) ?? graph.dot)
            case .table: StandardStreams.print(graph.table)
            }
            return 0
        }
    )
}

enum GraphCommand {
    static let store = Option<Store>("--store", "Whose flow (default googlePlay).")
    static let format: Option<GraphFormat> = CommonOptions.format(
        "Mermaid (default), Graphviz DOT, or a Markdown table.")
    static let flow = Option<AppUpdateType>(
        "--flow", "flexible|immediate", "With --format dot, that flow alone: the docs' pictures.")
}
