import Foundation
import Testing

@testable import MockAPNs

@Suite("APNsClientCertificate")
struct APNsClientCertificateTests {
    /// The topics extension value of `certs/client-multitopic.pem`, in Apple's layout.
    private static let multitopicExtension: [UInt8] = hex(
        "30640C0F636F6D2E6578616D706C652E61707030050C036170700C14636F6D2E6578616D706C652E6170702E766F697030060C04"
            + "766F69700C1C636F6D2E6578616D706C652E6170702E636F6D706C69636174696F6E300E0C0C636F6D706C69636174696F6E"
    )

    private static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    /// The message of the error reading `der` as a topics extension throws, or `nil` when it reads.
    private static func topicsError(_ der: [UInt8]) -> String? {
        do {
            _ = try APNsClientCertificate.topics(fromExtensionValue: der)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("reads a sandbox certificate: bundle id from UID, one topic, sandbox only")
    func sandbox() throws {
        let certificate = try APNsClientCertificate(pem: AuthTestFiles.certificateFile("client-sandbox.pem"))
        #expect(certificate.uid == "com.example.app")
        #expect(certificate.bundleID == "com.example.app")
        #expect(certificate.commonName == "Apple Development IOS Push Services: com.example.app")
        #expect(certificate.topics == ["com.example.app"])
        #expect(!certificate.hasTopicsExtension)
        #expect(certificate.environments == [.sandbox])
    }

    @Test("reads a production certificate: bundle id from UID, one topic, production only")
    func production() throws {
        let certificate = try APNsClientCertificate(pem: AuthTestFiles.certificateFile("client-production.pem"))
        #expect(certificate.uid == "com.example.app")
        #expect(certificate.commonName == "Apple Push Services: com.example.app")
        #expect(certificate.topics == ["com.example.app"])
        #expect(!certificate.hasTopicsExtension)
        #expect(certificate.environments == [.production])
    }

    @Test("reads a multi-topic certificate: every topic of the extension, both environments")
    func multitopic() throws {
        let certificate = try APNsClientCertificate(pem: AuthTestFiles.certificateFile("client-multitopic.pem"))
        #expect(certificate.uid == "com.example.app")
        #expect(certificate.topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(certificate.hasTopicsExtension)
        #expect(certificate.environments == [.sandbox, .production])
    }

    @Test("reads notAfter as seconds since 1970, after today for the test certificates")
    func notAfter() throws {
        let certificate = try APNsClientCertificate(pem: AuthTestFiles.certificateFile("client-sandbox.pem"))
        let notAfter = try #require(certificate.notAfter)
        #expect(notAfter > Int64(Date().timeIntervalSince1970))
        #expect(notAfter < Int64(Date().timeIntervalSince1970) + 21 * 366 * 86_400)
    }

    @Test("a certificate without Apple's extensions has no environments and no topics without a UID")
    func plainCertificate() throws {
        let certificate = try APNsClientCertificate(pem: AuthTestFiles.certificateFile("server.pem"))
        #expect(certificate.uid == nil)
        #expect(certificate.commonName == "localhost")
        #expect(certificate.topics.isEmpty)
        #expect(!certificate.hasTopicsExtension)
        #expect(certificate.environments.isEmpty)
    }

    @Test("refuses a PEM without a certificate")
    func notACertificate() throws {
        for pem in ["", "garbage", try AuthTestFiles.certificateFile("client-sandbox.key")] {
            #expect(throws: APNsClientCertificateError.self) { try APNsClientCertificate(pem: pem) }
        }
    }

    @Test("reads the topics of Apple's layout, skipping the nested kind SEQUENCEs")
    func topicsLayout() throws {
        let topics = try APNsClientCertificate.topics(fromExtensionValue: Self.multitopicExtension)
        #expect(topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(try APNsClientCertificate.topics(fromExtensionValue: [0x30, 0x00]) == [])
    }

    @Test("reads a long-form length")
    func longFormLength() throws {
        let topic = [UInt8](repeating: UInt8(ascii: "a"), count: 300)
        let string: [UInt8] = [0x0C, 0x82, 0x01, 0x2C] + topic
        let der: [UInt8] = [0x30, 0x82, 0x01, 0x30] + string
        #expect(try APNsClientCertificate.topics(fromExtensionValue: der) == [String(repeating: "a", count: 300)])
    }

    @Test("refuses every truncation of the topics extension")
    func truncations() {
        for length in 0..<Self.multitopicExtension.count {
            let message = Self.topicsError(Array(Self.multitopicExtension.prefix(length)))
            #expect(message?.hasPrefix("topics extension 1.2.840.113635.100.6.3.6 is malformed") == true)
        }
    }

    @Test(
        "refuses malformed topics DER with a message",
        arguments: [
            ([0x05, 0x00], "expected a SEQUENCE"),
            ([0x30, 0x00, 0x00], "bytes after the SEQUENCE"),
            ([0x30, 0x80, 0x0C, 0x01, 0x61, 0x00, 0x00], "unsupported length form 0x80"),
            ([0x30, 0x85, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00], "unsupported length form 0x85"),
            ([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], "runs past the end"),
            ([0x30, 0x03, 0x0C, 0x05, 0x61], "runs past the end"),
            ([0x30, 0x03, 0x0C, 0x01, 0xFF], "not valid UTF-8"),
            ([0x1F, 0x01, 0x00], "multi-byte tag"),
        ] as [([UInt8], String)]
    )
    func malformed(der: [UInt8], expected: String) {
        #expect(Self.topicsError(der)?.contains(expected) == true)
    }

    @Test("never crashes on random or mutated topics DER")
    func fuzz() {
        for _ in 0..<5_000 {
            let length = Int.random(in: 0...40)
            _ = Self.topicsError((0..<length).map { _ in UInt8.random(in: 0...255) })
            var mutated = Self.multitopicExtension
            mutated[Int.random(in: mutated.indices)] = UInt8.random(in: 0...255)
            _ = Self.topicsError(mutated)
        }
    }

    @Test("converts calendar dates to days since 1970 like Foundation does in UTC")
    func civilDays() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for (year, month, day) in [
            (1970, 1, 1), (1969, 12, 31), (2000, 2, 29), (2024, 3, 1), (2046, 11, 16), (2100, 12, 31),
        ] {
            let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
            let expected = Int64(date.timeIntervalSince1970) / 86_400
            let days = APNsClientCertificate.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
            #expect(days == expected)
        }
    }
}
