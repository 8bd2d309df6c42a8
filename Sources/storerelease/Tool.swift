import StoreReleaseKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `storerelease` tool: finds the subcommand and runs it.
enum Tool {
    /// Every subcommand, in the order the overview lists them.
    static let commands: [Command] = [
        .compare, .sort, .lookup, .decide, .simulate, .parity, .wait, .tracks, .status, .manifest, .graph,
        .storefronts, .availability, .snapshot, .diff, .watch, .timeline, .lag, .health, .halt, .resume, .complete,
        .recall, .advance, .replay,
    ]

    static let version = "0.1.0"

    static var overview: String {
        let width = commands.map(\.name.count).max() ?? 0
        let list = commands.map { "  " + $0.name.padding(to: width) + "  " + $0.summary }
        return """
            storerelease \(version): is there a newer release of this app in the App Store or on \
            Google Play, and what should happen about it?

            USAGE: storerelease <command> [arguments] [options]

            COMMANDS:
            \(list.joined(separator: "\n"))

            Run 'storerelease <command> --help' for a command's arguments, options and examples.
            Exit status: 0 success, 1 the work failed, 2 bad usage or bad input.

            """
    }

    /// Runs the tool and returns its exit status.
    ///
    /// The library's hints (what to give to get past a failure) are worded as the tool's flags.
    static func main(_ arguments: [String]) async -> Int32 {
        signal(SIGPIPE, SIG_IGN)  // a closed pipe ends output quietly instead of killing us.
        let flagWords: @Sendable (FailureHint) -> String = { $0.flagWords }
        return await FailureHint.$wording.withValue(flagWords) {
            do throws(CLIError) {
                return try await run(arguments.dropFirst())
            } catch {
                return failed(error)
            }
        }
    }

    /// Runs a command that awaits nothing (``Command/runNow``) without starting Swift
    /// concurrency, and returns its exit status; `nil`, having done nothing, for any other.
    static func mainNow(_ arguments: [String]) -> Int32? {
        let arguments = arguments.dropFirst()
        guard let name = arguments.first, let command = commands.first(where: { $0.name == name }),
            let runNow = command.runNow
        else { return nil }
        signal(SIGPIPE, SIG_IGN)
        // Every signal reaches this thread, as it reaches the one Swift concurrency's main waits
        // in: a parent that spawned this process from a thread blocking SIGINT (a test runner's
        // does) must still be able to interrupt it.
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        do {
            guard let parsed = try parse(arguments.dropFirst(), for: command) else { return 0 }
            return try runNow(parsed)
        } catch {
            return failed(error)
        }
    }

    /// Says why the tool failed on stderr, on one line, and returns the exit status that goes with it.
    ///
    /// The message may carry a store's words (its error's message, a release's name): a line
    /// break in them is written out (`\u{A}`) as every control character is, so a store cannot
    /// start a line of its own (a forged `::error::` in a CI log).
    private static func failed(_ error: CLIError) -> Int32 {
        StandardStreams.printError("storerelease: \(OutsideText.terminal(error.message))\n")
        return error.exitCode
    }

    /// The command's arguments, or `nil` when they ask for its help, which is then printed.
    private static func parse(_ arguments: ArraySlice<String>, for command: Command) throws(CLIError)
        -> ParsedArguments?
    {
        let parsed = try ParsedArguments(arguments, options: command.options, command: command.name)
        guard !parsed.wantsHelp else {
            StandardStreams.print(command.help)
            return nil
        }
        return parsed
    }

    private static func run(_ arguments: ArraySlice<String>) async throws(CLIError) -> Int32 {
        guard let first = arguments.first else {
            StandardStreams.printError(overview)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            if let name = arguments.dropFirst().first {
                StandardStreams.print(try command(named: name).help)
            } else {
                StandardStreams.print(overview)
            }
            return 0
        case "--version":
            StandardStreams.print("storerelease \(version)\n")
            return 0
        default:
            let command = try command(named: first)
            guard let parsed = try parse(arguments.dropFirst(), for: command) else { return 0 }
            return try await command.run(parsed)
        }
    }

    private static func command(named name: String) throws(CLIError) -> Command {
        guard let command = commands.first(where: { $0.name == name }) else {
            let names = commands.map(\.name)
            if let close = NearMiss.closest(to: name, in: names) {
                throw .usage("unknown command \(name.debugDescription) (did you mean \(close)?)")
            }
            let list = names.joined(separator: ", ")
            throw .usage("unknown command \(name.debugDescription) (commands: \(list); see storerelease --help)")
        }
        return command
    }
}
