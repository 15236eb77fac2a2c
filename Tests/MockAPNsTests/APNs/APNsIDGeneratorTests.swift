import Testing
@testable import MockAPNs

@Suite("Generated apns-id and apns-unique-id")
struct APNsIDGeneratorTests {
    @Test("ids are random version-4 UUIDs, written in either case, the same text every time they are read")
    func generated() {
        var ids = APNsIDGenerator()
        var seen = Set<String>()
        for _ in 0..<1000 {
            let uuid = ids.uuid()
            let upper = uuid.text(uppercase: true)
            let lower = uuid.text(uppercase: false)
            #expect(APNsValidator.isCanonicalUUID(upper))
            #expect(upper == upper.uppercased() && lower == upper.lowercased())
            #expect(Array(upper.utf8)[14] == UInt8(ascii: "4"), "version 4")
            #expect("89AB".utf8.contains(Array(upper.utf8)[19]), "RFC 4122 variant")
            var written = [UInt8](repeating: 0, count: GeneratedUUID.textLength)
            written.withUnsafeMutableBufferPointer { uuid.write(uppercase: true, into: $0.baseAddress!) }
            #expect(String(decoding: written, as: UTF8.self) == upper)
            seen.insert(upper)
        }
        #expect(seen.count == 1000)
    }

    @Test("a response with a generated id reads, compares and hashes as one with the same id as text")
    func responseText() {
        let uuid = GeneratedUUID(high: 0x0123_4567_89AB_4DEF, low: 0x8123_4567_89AB_CDEF)
        let generated = APNsResponse.success(id: .generated(uuid, uppercase: true), uniqueID: .generated(uuid, uppercase: false))
        #expect(generated.apnsID == "01234567-89AB-4DEF-8123-456789ABCDEF")
        #expect(generated.apnsUniqueID == "01234567-89ab-4def-8123-456789abcdef")
        let text = APNsResponse.success(apnsID: generated.apnsID, apnsUniqueID: generated.apnsUniqueID)
        #expect(generated == text)
        #expect(Set([generated, text]).count == 1)
        var changed = generated
        changed.apnsID = "another"
        #expect(changed.apnsID == "another" && generated.apnsID != "another")
    }
}
