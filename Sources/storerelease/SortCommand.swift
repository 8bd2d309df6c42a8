import StoreReleaseKit

extension Command {
    /// `storerelease sort [--scheme …] [--reverse] [--memory MiB]`: versions on stdin, sorted on stdout.
    static let sort = Command(
        name: "sort",
        synopsis: "sort [--scheme appstore|semver] [--reverse] [--memory MiB] < versions.txt",
        summary: "Reads versions one a line on stdin and prints them sorted, oldest first.",
        discussion: """
            Each line is printed exactly as it was read, with its own line ending ('\\n' or
            '\\r\\n'); a last line without one gets '\\n'. The sort is stable: versions that are
            equal (1.2 and 1.2.0) keep their input order, with or without --reverse.
            Every line must be a version: an empty or malformed line, or one longer than 64 KiB,
            stops the sort with exit status 2 and a message naming its line number; nothing is
            printed then. A UTF-8 byte-order mark at the start of the input is skipped.
            Input of any size: the sort holds at most --memory MiB (the lines read, their sort
            keys and their sorted copy); past that, it sorts the input a part at a time into a
            temporary file in TMPDIR (/tmp when unset) that has no name, so nothing is left
            behind however the sort ends, and merges the parts, with the same output. A TMPDIR
            that cannot be written, or a disk that fills, is exit status 1 naming the directory,
            before anything is printed.
            """,
        options: [
            CommonOptions.scheme,
            SortCommand.reverse,
            SortCommand.memory,
        ],
        examples: [
            "printf '8.0.10\\n8.0.2\\n1.2\\n' | storerelease sort      # 1.2, 8.0.2, 8.0.10",
            "storerelease sort --reverse < Docs/Examples/versions.txt",
            "storerelease sort --memory 64 < Docs/Examples/versions.txt",
        ],
        runNow: { arguments throws(CLIError) in
            let scheme = try arguments.value(CommonOptions.scheme) ?? .appStore
            let descending = arguments.has(SortCommand.reverse)
            guard arguments.positionals.isEmpty else {
                throw .usage(
                    "sort: reads versions from standard input and takes no arguments; got "
                        + arguments.positionals.map(\.debugDescription).joined(separator: " "))
            }
            let memory = try arguments.value(SortCommand.memory)?.bytes ?? 1024 << 20
            let limit = 64 << 10
            var input = InputLineParts(maximumLineLength: limit, budget: memory)
            func nextPart() throws(CLIError) -> [UInt8]? {
                switch try input.next() {
                case .success(let bytes): return bytes
                case .failure(let tooLong):
                    throw .badInput(
                        "sort: line \(tooLong.line) is longer than 64 KiB (\(limit) bytes), the limit for a line")
                }
            }
            guard var part = try nextPart() else { return 0 }
            if input.ended {
                do {
                    _ = try part.withUnsafeBufferPointer { (part) throws(VersionLinesError) in
                        try VersionLines.sorted(part, scheme: scheme, descending: descending) {
                            StandardStreams.write($0, to: 1)
                        }
                    }
                    return 0
                } catch {
                    throw .badInput("sort: \(error)")
                }
            }
            func problem(_ error: VersionRunSortError) -> CLIError {
                switch error {
                case .line(let line): .badInput("sort: \(line)")
                case .store(let store): .failure("sort: \(store)")
                }
            }
            var sort = VersionRunSort(
                store: TemporaryRunFile(directory: TemporaryRunFile.defaultDirectory), scheme: scheme,
                descending: descending)
            while true {
                do throws(VersionRunSortError) { try sort.add(part) } catch { throw problem(error) }
                part = []  // Not held while the next part is read.
                guard let next = try nextPart() else { break }
                part = next
            }
            // The runs' reads share a part of the budget; nothing is printed before every run is kept.
            let readSize = max(16 << 10, min(1 << 20, memory / (4 * max(sort.runs, 1))))
            let complete: Bool
            do throws(VersionRunSortError) {
                complete = try sort.merge(readSize: readSize) { StandardStreams.write($0, to: 1) }
            } catch {
                throw problem(error)
            }
            guard complete else { throw .failure("sort: cannot write standard output; the output is incomplete") }
            return 0
        }
    )
}

enum SortCommand {
    static let reverse = Switch("--reverse", "Print the newest first.")
    static let memory = Option<Mebibytes>(
        "--memory", "MiB", "The most the sort holds: the lines read, their keys and their sorted copy (default 1024).")
}
