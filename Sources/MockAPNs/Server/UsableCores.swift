import Foundation
import NIOCore

/// How many event loops the server runs by default: one per core this process may run on.
///
/// SwiftNIO's `System.coreCount` counts the machine's cores (and cgroup limits), not the process's CPU affinity.
/// Under `taskset -c 0` on a 2-core machine it says 2, and two event loops then take turns on one core, paying
/// for context switches and smaller read batches. On Linux the affinity mask is read from `/proc/self/status`
/// (`Cpus_allowed`); `sched_getaffinity` is not exported by Swift's Glibc module.
enum UsableCores {
    static var count: Int {
        let machine = System.coreCount
        #if os(Linux)
        if let allowed = allowedByAffinity() { return max(1, min(machine, allowed)) }
        #endif
        return machine
    }

    /// The number of CPUs in the process's affinity mask, or nil when it cannot be read.
    static func allowedByAffinity(status: String? = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8))
        -> Int?
    {
        guard let status else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            // A tab, then a hexadecimal mask in comma-separated 32-bit groups, e.g. "ffffffff,00000003".
            var count = 0
            for character in line.dropFirst("Cpus_allowed:".count) where character != "," && !character.isWhitespace {
                guard let nibble = character.hexDigitValue else { return nil }
                count += nibble.nonzeroBitCount
            }
            return count > 0 ? count : nil
        }
        return nil
    }
}
