import COpenSSL

/// What a mutual-TLS client certificate says about APNs: the app it is for, the topics it may push to, and the
/// environments it is valid in.
///
/// "Subject UID = bundle id; extension `1.2.840.113635.100.6.3.6` lists extra topics; environment in `.3.1`
/// (development) / `.3.2` (production)" (apns-reference.md §6; doc/lib). Nothing here checks who issued the
/// certificate: the mock trusts any client certificate and judges only what it says.
public struct APNsClientCertificate: Sendable, Hashable {
    /// Apple's "development" environment marker extension; its value is not used, only its presence.
    static let sandboxExtensionOID = "1.2.840.113635.100.6.3.1"
    /// Apple's "production" environment marker extension.
    static let productionExtensionOID = "1.2.840.113635.100.6.3.2"
    /// Apple's topics extension: the bundle id and its `.voip` and `.complication` variants.
    static let topicsExtensionOID = "1.2.840.113635.100.6.3.6"

    /// The subject's common name, e.g. `Apple Push Services: com.example.app`.
    public var commonName: String?
    /// The subject's UID (OID 0.9.2342.19200300.100.1.1): the app's bundle id.
    public var uid: String?
    /// The topics the certificate may push to: those of the topics extension, or `[uid]` without one.
    public var topics: [String]
    /// Whether the certificate has Apple's topics extension (a "universal" certificate).
    public var hasTopicsExtension: Bool
    /// `.sandbox` with the `.6.3.1` extension, `.production` with `.6.3.2`; empty when it has neither.
    public var environments: Set<APNsEnvironment>
    /// The end of the validity period in seconds since 1970, when OpenSSL could read it.
    public var notAfter: Int64?

    /// Describes a certificate directly, as tests and configuration do.
    public init(
        commonName: String?,
        uid: String?,
        topics: [String],
        hasTopicsExtension: Bool,
        environments: Set<APNsEnvironment>,
        notAfter: Int64?
    ) {
        self.commonName = commonName
        self.uid = uid
        self.topics = topics
        self.hasTopicsExtension = hasTopicsExtension
        self.environments = environments
        self.notAfter = notAfter
    }

    /// Reads an OpenSSL `X509*`, such as `SSL_get0_peer_certificate` returns; the certificate is only read,
    /// not retained or freed.
    ///
    /// - Throws: `APNsClientCertificateError` when the topics extension is not the DER Apple writes.
    public init(x509: OpaquePointer) throws(APNsClientCertificateError) {
        ERR_clear_error()
        defer { ERR_clear_error() }
        let subject = X509_get_subject_name(x509)
        let commonName = subject.flatMap { Self.text(of: NID_commonName, in: $0) }
        let uid = subject.flatMap { Self.text(of: NID_userId, in: $0) }

        var environments: Set<APNsEnvironment> = []
        if Self.extensionValue(Self.sandboxExtensionOID, in: x509) != nil {
            environments.insert(.sandbox)
        }
        if Self.extensionValue(Self.productionExtensionOID, in: x509) != nil {
            environments.insert(.production)
        }

        let topics: [String]
        let topicsExtension = Self.extensionValue(Self.topicsExtensionOID, in: x509)
        if let topicsExtension {
            topics = try Self.topics(fromExtensionValue: topicsExtension)
        } else {
            topics = uid.map { [$0] } ?? []
        }

        self.init(
            commonName: commonName,
            uid: uid,
            topics: topics,
            hasTopicsExtension: topicsExtension != nil,
            environments: environments,
            notAfter: X509_get0_notAfter(x509).flatMap(Self.seconds(since:))
        )
    }

    /// Reads the first certificate of a PEM text (`-----BEGIN CERTIFICATE-----`).
    ///
    /// - Throws: `APNsClientCertificateError` when there is no readable certificate or its topics extension is
    ///   malformed.
    public init(pem: String) throws(APNsClientCertificateError) {
        ERR_clear_error()
        // A refusing pass-phrase callback: OpenSSL would otherwise prompt on the terminal.
        let certificate = OpenSSL.withMemoryBIO(over: pem) { bio in
            PEM_read_bio_X509(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        guard let certificate = certificate ?? nil else {
            let reason = OpenSSL.drainErrors()
            throw APNsClientCertificateError(
                "no readable CERTIFICATE in the PEM\(reason.isEmpty ? "" : " (OpenSSL: \(reason))")"
            )
        }
        defer { X509_free(certificate) }
        try self.init(x509: certificate)
    }

    /// The app's bundle id: the subject UID.
    public var bundleID: String? { uid }

    /// The topics in the DER value of the topics extension.
    ///
    /// Apple writes `SEQUENCE { UTF8String topic, SEQUENCE { UTF8String kind }, UTF8String topic, ... }`: every
    /// UTF8String directly inside the outer SEQUENCE is a topic, and the nested SEQUENCEs (the kinds) are skipped.
    static func topics(fromExtensionValue der: [UInt8]) throws(APNsClientCertificateError) -> [String] {
        do throws(DERReader.Malformed) {
            var outer = DERReader(der[...])
            let sequence = try outer.readElement()
            guard sequence.tag == DERReader.sequenceTag else {
                throw DERReader.Malformed(
                    message: "expected a SEQUENCE, found tag 0x\(String(sequence.tag, radix: 16))"
                )
            }
            guard outer.isAtEnd else {
                throw DERReader.Malformed(message: "bytes after the SEQUENCE")
            }
            var topics: [String] = []
            var inner = DERReader(sequence.value)
            while !inner.isAtEnd {
                let element = try inner.readElement()
                guard element.tag == DERReader.utf8StringTag else {
                    continue
                }
                guard let topic = String(validating: element.value, as: UTF8.self) else {
                    throw DERReader.Malformed(message: "a topic is not valid UTF-8")
                }
                topics.append(topic)
            }
            return topics
        } catch {
            throw APNsClientCertificateError("topics extension \(topicsExtensionOID) is malformed: \(error.message)")
        }
    }

    /// The UTF-8 text of the first subject entry with `nid`, or `nil`.
    private static func text(of nid: Int32, in name: OpaquePointer) -> String? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let data = X509_NAME_ENTRY_get_data(entry)
        else {
            return nil
        }
        var utf8: UnsafeMutablePointer<UInt8>? = nil
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else {
            ERR_clear_error()
            return nil
        }
        defer { COpenSSL_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    /// The DER bytes inside the extension with dotted `oid`, or `nil` when the certificate does not have it.
    private static func extensionValue(_ oid: String, in x509: OpaquePointer) -> [UInt8]? {
        // The second argument 1 makes OpenSSL read only the dotted form, never a name lookup.
        guard let object = OBJ_txt2obj(oid, 1) else {
            ERR_clear_error()
            return nil
        }
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(x509, object, -1)
        guard index >= 0, let found = X509_get_ext(x509, index), let data = X509_EXTENSION_get_data(found) else {
            return nil
        }
        let length = Int(ASN1_STRING_length(data))
        guard length > 0, let bytes = ASN1_STRING_get0_data(data) else {
            return []
        }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// Seconds since 1970 of an `ASN1_TIME`, or `nil` if OpenSSL cannot read it.
    private static func seconds(since time: UnsafePointer<ASN1_TIME>) -> Int64? {
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            ERR_clear_error()
            return nil
        }
        let days = daysSince1970(
            year: Int64(parts.tm_year) + 1900,
            month: Int64(parts.tm_mon) + 1,
            day: Int64(parts.tm_mday)
        )
        return days * 86_400 + Int64(parts.tm_hour) * 3_600 + Int64(parts.tm_min) * 60 + Int64(parts.tm_sec)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`), computed here
    /// rather than with `timegm` so that no time zone or platform difference can creep in.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
