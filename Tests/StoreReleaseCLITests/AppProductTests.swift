import Foundation
import StoreReleaseTestSupport
import Testing

/// The app's product (`StoreReleaseApp`) links in an app on every platform the package declares:
/// nothing in it uses `Foundation.Process`, which Foundation does not have on iOS, tvOS, watchOS
/// or visionOS. `Tests/AppProbe` is a program that uses only this product, as an app does.
@Suite struct AppProductTests {
    /// The symbols the built files define or refer to that name `Foundation.Process` (the type
    /// metadata accessor, `Foundation.Process.__allocating_init()`…, and on Darwin the
    /// Objective-C class `NSTask` behind it; not `ProcessInfo`) or one of `also`: `nm -A` (each
    /// line names its file), demangled by the toolchain's `swift-demangle`, picked by `grep` (a
    /// debug build of a Swift regex over the tens of thousands of lines took 20 seconds).
    func symbols(_ files: [URL], also: [String] = []) throws -> [String] {
        let names = ([#"Foundation\.Process\b"#, #"_NSTask\b"#] + also).joined(separator: "|")
        let script =
            #"set -o pipefail; pattern="$1"; shift; nm -A "$@" | swift-demangle | { grep -E "$pattern" || true; }"#
        let listed = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/bash"), ["-c", script, "symbols", names] + files.map(\.path))
        #expect(listed.status == 0, "nm | swift-demangle: \(listed.stderr)")
        return listed.stdout.split(separator: "\n").map(String.init)
    }

    /// The lines that name Foundation's `Process` (or `NSTask`), of those ``symbols(_:also:)``
    /// picked: a name that goes on (`Foundation.ProcessInfo`) is another type.
    func process(in symbols: [String]) -> [String] {
        func names(_ type: String, in line: String) -> Bool {
            line.components(separatedBy: type).dropFirst().contains { rest in
                !(rest.unicodeScalars.first.map { CharacterSet.alphanumerics.contains($0) || $0 == "_" } ?? false)
            }
        }
        return symbols.filter { names("Foundation.Process", in: $0) || names("_NSTask", in: $0) }
    }

    @Test func aProgramOfTheAppProductRefersToNoProcessAndNoOpenSSL() throws {
        let probe = BuiltProducts.directory.appendingPathComponent("AppProbe")
        let probeSymbols = try symbols([probe], also: [#"AppStoreLookupClient\.lookup\("#, #"UpdatePolicy\.decide\("#])
        // It is a real program of the product: the lookup client and the policy are in it.
        #expect(probeSymbols.contains { $0.contains("StoreReleaseClients.AppStoreLookupClient.lookup(") })
        #expect(probeSymbols.contains { $0.contains("StoreReleasePolicy.UpdatePolicy.decide(") })
        let process = process(in: probeSymbols)
        #expect(process.isEmpty, "a program of StoreReleaseApp refers to Process: \(process)")
        // Nor does it name the program the App Store Connect signer runs.
        let openssl = Data("openssl".utf8)
        #expect(try Data(contentsOf: probe).range(of: openssl) == nil, "a program of StoreReleaseApp names openssl")
        // The control: the command-line tool, whose signer runs openssl, does both.
        let tool = BuiltProducts.directory.appendingPathComponent("storerelease")
        #expect(!self.process(in: try symbols([tool])).isEmpty, "nm finds Process where it is used")
        #expect(try Data(contentsOf: tool).range(of: openssl) != nil)
    }

    /// Every object file the probe links (its own and the product's modules'), as SwiftPM lists
    /// them for the linker: none refers to `Process`, even where the linker would strip it.
    @Test func noModuleOfTheAppProductRefersToProcess() throws {
        let list = BuiltProducts.directory.appendingPathComponent("AppProbe.product/Objects.LinkFileList")
        let objects = try String(contentsOf: list, encoding: .utf8).split(separator: "\n")
            .map { URL(fileURLWithPath: $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))) }
        let modules = Set(objects.map { $0.deletingLastPathComponent().lastPathComponent })
        #expect(
            modules.isSuperset(of: ["StoreReleaseClients.build", "StoreReleasePolicy.build", "StoreReleaseApp.build"]),
            "the probe links the product's modules: \(modules.sorted())")
        let found = process(in: try symbols(objects))
        #expect(found.isEmpty, "the app's product refers to Process:\n\(found.joined(separator: "\n"))")
        // The control: the release tooling, where the App Store Connect signer lives, does.
        let tooling = try FileManager.default.contentsOfDirectory(
            at: BuiltProducts.directory.appendingPathComponent("StoreReleaseTooling.build"),
            includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "o" }
        #expect(!process(in: try symbols(tooling)).isEmpty)
    }

    @Test func theProbeRunsAnUpdateCheck() throws {
        let server = try LoopbackServer.shared.get()
        let result = try BuiltProducts.run("AppProbe", [server.baseURL("ok").absoluteString])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                App Store: 8.0.1 → 8.0.2: flexible
                Update available: 微信 8.0.2 is available.
                Google Play: 80 → 81: flexible

                """)
    }
}
