import Foundation
import Testing

/// The two core products (`StoreReleaseCore`, `StoreReleaseFlow`) link no networking: an app or
/// a test that wants only versions or the simulator does not load FoundationNetworking, curl or
/// a TLS library.
@Suite struct CoreProductTests {
    /// The networking libraries, as `ldd` names them.
    static let networking = [
        "libFoundationNetworking", "libcurl", "libssl", "libcrypto", "libgnutls", "libssh2", "libnghttp2",
    ]

    /// The shared libraries a built binary loads, from `ldd`.
    func linkedLibraries(_ name: String) throws -> [String] {
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["ldd", BuiltProducts.directory.appendingPathComponent(name).path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        }
    }

    @Test func aProgramOfTheCoreProductsLinksNoNetworking() throws {
        let probe = try linkedLibraries("CoreProbe")
        #expect(probe.contains { $0.hasPrefix("libFoundation") }, "the probe is a real Foundation program: \(probe)")
        let loaded = probe.filter { library in Self.networking.contains { library.hasPrefix($0) } }
        #expect(loaded.isEmpty, "the core products pull in \(loaded)")
        // The control: the command-line tool, which talks to the stores, does load them.
        let tool = try linkedLibraries("storerelease")
        if tool.contains(where: { $0.hasPrefix("libFoundation") }) {
            // A debug build links Foundation, and so curl, as shared libraries.
            #expect(
                tool.contains { $0.hasPrefix("libFoundationNetworking") } && tool.contains { $0.hasPrefix("libcurl") })
        } else {
            // A release build on Linux is one file (Foundation linked in) and loads curl on its
            // first request (CLazyCurl), by the name the binary holds.
            let binary = BuiltProducts.directory.appendingPathComponent("storerelease")
            #expect(try BuiltProducts.loadsCurlByName(binary), "the tool would not load curl: \(tool)")
        }
    }

    @Test func theFlowImportsTheCoreAndNothingElse() throws {
        let flow = BuiltProducts.packageRoot.appendingPathComponent("Sources/StoreReleaseFlow")
        let files = try FileManager.default.contentsOfDirectory(at: flow, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
        #expect(files.count >= 10, "the flow's sources were found in \(flow.path)")
        for file in files {
            let imports = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { $0.hasPrefix("import ") || $0.contains(" import ") }
            #expect(imports == ["import StoreReleaseCore"], "\(file.lastPathComponent) imports \(imports)")
        }
    }

    @Test func theProbeRuns() throws {
        let result = try BuiltProducts.run("CoreProbe", [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "8.0.10 is newer than 8.0.2: true\nPlay offers version code 81: UPDATE_AVAILABLE\n")
    }
}
