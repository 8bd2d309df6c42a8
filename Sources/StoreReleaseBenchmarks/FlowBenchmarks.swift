import Foundation
import StoreReleaseKit

/// Driving the update flow, against the flow an app writes by hand (an install status set by a
/// switch, no checks, no listeners), in the same run. One flexible update, start to finish:
/// available, prompt, accept, download with progress, complete, install.
enum FlowBenchmarks {
    /// The hand-written flow: what the seeds' apps keep, a status and a list of what was heard.
    enum HandWritten {
        enum Event { case available, prompt, accept, downloadStarts, progress, downloaded, complete, installed }

        static func run(_ events: [Event]) -> [Int] {
            var status = 0
            var heard: [Int] = []
            for event in events {
                switch event {
                case .available, .prompt, .progress: continue
                case .accept: status = 1
                case .downloadStarts: status = 2
                case .downloaded: status = 11
                case .complete: status = 3
                case .installed: status = 4
                }
                heard.append(status)
            }
            return heard
        }
    }

    /// The guide's flexible-update script: the same nine events.
    static let scriptPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/Examples/scripts/flexible-update.txt")

    static func run(flows: Int, repetitions: Int) throws -> [Row] {
        let events: [HandWritten.Event] = [
            .available, .prompt, .accept, .downloadStarts, .progress, .progress, .downloaded, .complete, .installed,
        ]
        let perEvent = Double(flows * events.count)
        let parsed = try UpdateFlowScript(parsing: String(contentsOf: scriptPath, encoding: .utf8))
        let samples = try Measure.rounds(
            repetitions: repetitions, per: perEvent,
            [
                { for _ in 0..<flows { blackHole(HandWritten.run(events)) } },
                {
                    for _ in 0..<flows {
                        var play = UpdateFlowSimulator()
                        try play.setUpdateAvailable(42)
                        try play.startUpdateFlow(.flexible)
                        try play.userAcceptsUpdate()
                        try play.downloadStarts()
                        try play.setTotalBytesToDownload(1000)
                        try play.setBytesDownloaded(400)
                        try play.downloadCompletes()
                        try play.completeUpdate()
                        try play.installCompletes()
                        blackHole(play)
                    }
                },
                { for _ in 0..<flows { blackHole(parsed.run()) } },
            ])
        return Row.againstFirst(
            samples, unit: "ns/op",
            [
                ("hand-written status switch, per event", "baseline: no checks, no listeners"),
                ("UpdateFlowSimulator, per event", "vs hand-written: checked, listeners told"),
                ("UpdateFlowScript.run(), per event", "vs hand-written: a full record per step"),
            ])
    }
}
