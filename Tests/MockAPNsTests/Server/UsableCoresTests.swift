import NIOCore
import Testing
@testable import MockAPNs

@Suite("Event loops per usable core")
struct UsableCoresTests {
    static func status(_ allowed: String) -> String {
        "Name:\tmock-apns\nCpus_allowed:\t\(allowed)\nCpus_allowed_list:\t0\n"
    }

    @Test("counts the CPUs in /proc/self/status's affinity mask", arguments: [
        ("1", 1), ("3", 2), ("f", 4), ("ff", 8), ("00000001,00000000", 1), ("ffffffff,ffffffff", 64),
    ])
    func mask(allowed: String, count: Int) {
        #expect(UsableCores.allowedByAffinity(status: Self.status(allowed)) == count)
    }

    @Test("gives up on an unreadable or missing mask, so the machine's core count is used")
    func unreadable() {
        #expect(UsableCores.allowedByAffinity(status: nil) == nil)
        #expect(UsableCores.allowedByAffinity(status: "Name:\tx\n") == nil)
        #expect(UsableCores.allowedByAffinity(status: Self.status("zz")) == nil)
        #expect(UsableCores.allowedByAffinity(status: Self.status("0")) == nil)
    }

    @Test("never runs more loops than the machine has cores, nor fewer than one")
    func bounds() {
        #expect(UsableCores.count >= 1)
        #expect(UsableCores.count <= System.coreCount)
    }
}
