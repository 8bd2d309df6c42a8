import Foundation

/// The package's built executables and source tree, for tests that run them as a user would.
enum BuiltProducts {
    /// The library's modules, each a folder of `Sources`: the umbrella re-exports the others.
    static let libraryModules = [
        "StoreReleaseCore", "StoreReleaseFlow", "StoreReleaseModels", "StoreReleasePolicy", "StoreReleaseClients",
        "StoreReleaseTooling", "StoreReleaseApp", "StoreReleaseKit",
    ]

    /// The folder `swift build` put the products in: the one holding the test bundle.
    static let directory: URL = {
        #if os(macOS)
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }()

    /// The package's root folder (this file is `Tests/StoreReleaseCLITests/BuiltProducts.swift`).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What a finished process left behind.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        /// Whether it exited (rather than being killed by a signal, as a crash is).
        let exited: Bool
    }

    /// Runs a built executable with arguments and standard input, collecting its output through
    /// files in a fresh temporary folder (no pipe can fill up and stall it).
    static func run(_ name: String, _ arguments: [String], stdin: String = "") throws -> Result {
        try run(executable: directory.appendingPathComponent(name), arguments, stdin: stdin)
    }

    /// Runs any executable the same way, with extra environment variables.
    static func run(
        executable: URL, _ arguments: [String], stdin: String = "", environment: [String: String] = [:]
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("storerelease-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("stdin")
        let output = folder.appendingPathComponent("stdout")
        let errors = folder.appendingPathComponent("stderr")
        try Data(stdin.utf8).write(to: input)
        try Data().write(to: output)
        try Data().write(to: errors)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: output), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errors), as: UTF8.self),
            exited: process.terminationReason == .exit)
    }

    /// Runs `storerelease`.
    static func storerelease(_ arguments: String..., stdin: String = "") throws -> Result {
        try run("storerelease", arguments, stdin: stdin)
    }

    /// Whether the binary at `url` names `libcurl.so.4`, the library a release build loads on
    /// its first HTTP request (CLazyCurl) instead of linking it.
    static func loadsCurlByName(_ url: URL) throws -> Bool {
        try Data(contentsOf: url).range(of: Data("libcurl.so.4".utf8)) != nil
    }
}
