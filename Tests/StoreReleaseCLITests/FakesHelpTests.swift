import Foundation
import Testing

/// `python3 Scripts/fakes.py --help` tells a person every scenario the fakes play and what it
/// does, so an offline run can pick one (the fakes' headers were the only place that said).
@Suite struct FakesHelpTests {
    /// The scenario names the fakes' code answers to: `scenario == "x"`, `scenario in ("x", "y")`
    /// and the App Store Connect worlds.
    static func scenariosInTheCode() throws -> Set<String> {
        let support = BuiltProducts.packageRoot.appendingPathComponent("Tests/Support")
        var names: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: support.path) where file.hasSuffix(".py") {
            let code = try String(contentsOf: support.appendingPathComponent(file), encoding: .utf8)
            for pattern in [
                #"scenario\s*[!=]=\s*"([\w-]+)""#, #"scenario\s+(?:not\s+)?in\s*[(\[{]([^)\]}]*)[)\]}]"#,
                #"WORLD_SCENARIOS\s*=\s*\{([^}]*)\}"#,
            ] {
                let expression = try NSRegularExpression(pattern: pattern)
                for match in expression.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                    guard let range = Range(match.range(at: 1), in: code) else { continue }
                    let quoted = try NSRegularExpression(pattern: #""([\w-]+)""#)
                    let group = String(code[range])
                    let words = quoted.matches(in: group, range: NSRange(group.startIndex..., in: group)).compactMap {
                        Range($0.range(at: 1), in: group).map { String(group[$0]) }
                    }
                    names.formUnion(words.isEmpty ? [group] : words)
                }
            }
        }
        return names
    }

    @Test func theHelpListsEveryScenarioOfEveryFake() throws {
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cd \"\(BuiltProducts.packageRoot.path)\" && python3 Scripts/fakes.py --help"],
            environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.stderr)")
        let help = result.stdout
        let scenarios = try Self.scenariosInTheCode()
        #expect(
            scenarios.count >= 60 && scenarios.isSuperset(of: ["ok", "sweep", "sold40", "complete"]),
            "\(scenarios.sorted())")
        for scenario in scenarios.sorted() {
            let said = try NSRegularExpression(
                pattern: "(?<![\\w-])\(NSRegularExpression.escapedPattern(for: scenario))(?![\\w-])")
            #expect(
                said.firstMatch(in: help, range: NSRange(help.startIndex..., in: help)) != nil,
                "fakes.py --help does not name the scenario \(scenario)")
        }
        for fake in ["lookup_server.py", "play_api.py", "play_reporting.py", "asc_api.py", "asc_analytics.py"] {
            #expect(help.contains("(Tests/Support/\(fake))"), "the help has \(fake)'s scenarios")
        }
        #expect(help.contains("Scenario timeline-<name> on every API, one of: "), "and the bundled timelines")
    }
}
