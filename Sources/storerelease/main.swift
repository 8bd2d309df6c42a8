#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// A command that awaits nothing runs before Swift concurrency starts its threads.
if let status = Tool.mainNow(CommandLine.arguments) { exit(status) }
exit(await Tool.main(CommandLine.arguments))
