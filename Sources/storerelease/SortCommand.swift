import StoreReleaseKit

extension Command {
    /// `storerelease sort [--scheme …] [--reverse]`: versions on stdin, sorted on stdout.
    static let sort = Command(
        name: "sort",
        synopsis: "sort [--scheme appstore|semver] [--reverse] < versions.txt",
        summary: "Reads versions one a line on stdin and prints them sorted, oldest first.",
        discussion: """
            Each line is printed exactly as it was read, with its own line ending ('\\n' or
            '\\r\\n'); a last line without one gets '\\n'. The sort is stable: versions that are
            equal (1.2 and 1.2.0) keep their input order, with or without --reverse.
            Every line must be a version: an empty or malformed line, or one longer than 64 KiB,
            stops the sort with exit status 2 and a message naming its line number; nothing is
            printed then. A UTF-8 byte-order mark at the start of the input is skipped.
            """,
        options: [
            CommonOptions.scheme.spec,
            SortCommand.reverse.spec,
        ],
        examples: [
            "printf '8.0.10\\n8.0.2\\n1.2\\n' | storerelease sort      # 1.2, 8.0.2, 8.0.10",
            "storerelease sort --reverse < Docs/Examples/versions.txt",
        ],
        run: { arguments throws(CLIError) in
            let scheme = try arguments.value(CommonOptions.scheme) ?? .appStore
            guard arguments.positionals.isEmpty else {
                throw .usage(
                    "sort: reads versions from standard input and takes no arguments; got "
                        + arguments.positionals.map(\.debugDescription).joined(separator: " "))
            }
            let limit = 64 << 10
            let input: [UInt8]
            switch try StandardStreams.readLines(maximumLineLength: limit) {
            case .success(let bytes): input = bytes
            case .failure(let tooLong):
                throw .badInput(
                    "sort: line \(tooLong.line) is longer than 64 KiB (\(limit) bytes), the limit for a line")
            }
            do {
                let output = try VersionLines.sorted(
                    input, scheme: scheme, descending: arguments.has(SortCommand.reverse))
                output.withUnsafeBytes { _ = StandardStreams.write($0, to: 1) }
                return 0
            } catch {
                throw .badInput("sort: \(error)")
            }
        }
    )
}

enum SortCommand {
    static let reverse = Switch("--reverse", "Print the newest first.")
}
