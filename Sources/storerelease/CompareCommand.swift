import StoreReleaseKit

extension Command {
    /// `storerelease compare A B [--scheme appstore|semver]`: prints `<`, `=` or `>`.
    static let compare = Command(
        name: "compare",
        synopsis: "compare A B [--scheme appstore|semver]",
        summary: "Compares version A with version B and prints exactly one of <, = or >.",
        discussion: """
            The result is A relative to B: '<' when A is older. Components compare as numbers
            (8.0.2 < 8.0.10), trailing zeros do not count (1.2 = 1.2.0), and in SemVer a
            pre-release sorts below its release (1.0.0-rc.1 < 1.0.0).
            Exit status: 0 when both versions parse; 2 when either does not, with a message
            naming it and what is wrong.
            """,
        options: [CommonOptions.scheme],
        examples: [
            "storerelease compare 8.0.2 8.0.10             # <",
            "storerelease compare 1.2 1.2.0                # =",
            "storerelease compare 1.0.0 1.0.0-rc.1 --scheme semver   # >",
        ],
        runNow: { arguments throws(CLIError) in
            let (a, b) = try versions(arguments.positionals, scheme: arguments.value(CommonOptions.scheme) ?? .appStore)
            StandardStreams.print(a < b ? "<\n" : (a == b ? "=\n" : ">\n"))
            return 0
        }
    )

    /// A and B, the two versions `compare` is given.
    private static func versions(_ texts: [String], scheme: VersionScheme) throws(CLIError) -> (Version, Version) {
        guard texts.count == 2 else {
            throw .usage("compare: needs two versions, A and B; got \(texts.count) (see storerelease compare --help)")
        }
        return (try parse(texts[0], as: "A", scheme: scheme), try parse(texts[1], as: "B", scheme: scheme))
    }

    private static func parse(_ text: String, as name: String, scheme: VersionScheme) throws(CLIError) -> Version {
        do {
            return try Version(parsing: text, scheme: scheme)
        } catch {
            throw .badInput("compare: version \(name) \(error)")
        }
    }
}
