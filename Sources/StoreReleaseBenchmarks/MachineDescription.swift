import Foundation

/// What the numbers were measured on: the processor, its cores, memory and the system, as the
/// report's first lines.
enum MachineDescription {
    static var current: String {
        let info = ProcessInfo.processInfo
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown processor"
        let memory = Double(info.physicalMemory) / 1_073_741_824
        return "machine: \(cpu), \(info.activeProcessorCount) cores, \(Int(memory.rounded())) GiB; "
            + "\(info.operatingSystemVersionString)"
    }
}
