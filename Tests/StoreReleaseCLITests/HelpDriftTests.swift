import Foundation
import Testing

/// What `--help` says matches what the command does: the usage line names the flags the command
/// takes, and a command's discussion describes its own writes, not another's.
@Suite struct HelpDriftTests {
    /// The USAGE line of a command's help.
    static func usage(_ command: String) throws -> String {
        let help = try BuiltProducts.storerelease(command, "--help").stdout
        return try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }.map(String.init))
    }

    @Test func watchsUsageNamesItsHealthAndHaltFlags() throws {
        let usage = try Self.usage("watch")
        for flag in ["--health-file FILE", "--health", "--halt-on regressed", "--confirm APP[,APP]", "--quiet"] {
            #expect(usage.contains(flag), "watch's usage lacks \(flag): \(usage)")
        }
    }

    @Test func recallsHelpDescribesTheWritesRecallSends() throws {
        let recall = try BuiltProducts.storerelease("recall", "--help").stdout
        #expect(!recall.contains("phased-release PATCH"), "recall sends no phased-release PATCH")
        #expect(recall.contains("App Recovery action created, then deployed"), "\(recall)")
        let halt = try BuiltProducts.storerelease("halt", "--help").stdout
        #expect(halt.contains("phased-release PATCH"), "halt's does")
    }

    @Test func paritysUsageTakesAStoredTrackWithItsPackage() throws {
        #expect(try Self.usage("parity").contains("--play-track FILE [--package PKG]"))
        #expect(try Self.usage("snapshot").contains("--play-track FILE [--package PKG]"))
    }
}
