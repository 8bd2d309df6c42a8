import Foundation
import StoreReleaseTestSupport
import Testing

/// README's CI line for a job summary, run as a GitHub Actions `run:` step runs it (`bash -e`)
/// against the fakes: stores that do not agree (exit 1) leave the step green with the report in
/// the summary; a bad flag (exit 2) still fails it.
@Suite struct ReadmeCILineTests {
    /// The README's line that writes the report to the job summary.
    static func line() throws -> String {
        let readme = try String(
            contentsOf: BuiltProducts.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return try #require(
            readme.split(separator: "\n").first {
                $0.hasPrefix("storerelease parity") && $0.contains("GITHUB_STEP_SUMMARY")
            }
            .map(String.init))
    }

    /// Runs `line` as a step: `bash -e`, the summary a file, the built tool on PATH.
    func step(_ line: String) throws -> (status: Int32, summary: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ci-line-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = folder.appendingPathComponent("summary.md")
        try Data().write(to: summary)
        let script = folder.appendingPathComponent("step.sh")
        try Data((line + "\n").utf8).write(to: script)
        let result = try BuiltProducts.run(
            executable: URL(fileURLWithPath: "/bin/bash"), ["-e", script.path],
            environment: [
                "PATH": BuiltProducts.directory.path + ":/usr/bin:/bin", "GITHUB_STEP_SUMMARY": summary.path,
                "STORERELEASE_PLAY_TOKEN": "ci-line",
            ])
        return (result.status, try String(contentsOf: summary, encoding: .utf8))
    }

    @Test func storesThatDoNotAgreeLeaveTheStepGreenAndABadFlagFailsIt() throws {
        let server = try LoopbackServer.shared.get()
        // The fakes: WeChat only in cn (us and jp have no result), Play's rollout app.
        let line = try Self.line()
            .replacingOccurrences(of: "--package com.tencent.mm", with: "--package com.example.rollout")
            .replacingOccurrences(
                of: "storerelease parity",
                with:
                    "storerelease parity --base-url \(server.baseURL("ok")) --play-base-url \(server.baseURL("ok"))")
        #expect(line.hasSuffix("|| [ $? -eq 1 ]"), "\(line)")
        let apart = try step(line)
        #expect(apart.status == 0, "exit 1, the stores do not agree: the step passes")
        #expect(apart.summary.hasPrefix("### The stores do not agree"), "\(apart.summary)")
        let bad = try step(line.replacingOccurrences(of: "--format markdown", with: "--format yaml"))
        #expect(bad.status != 0, "exit 2, a bad flag: the step fails")
    }
}
