/// Cipher Suite Information attribute (CSIA, 0x22) (nan-wire-reference.md 2.13):
/// Capabilities (1) | Cipher Suite List: n x {CSID (1) | Instance ID (1)}.
/// An odd octet after the capabilities is half an entry and an error.
public struct CipherSuiteInfoAttribute: NANAttributeBody {
    public static let attributeID = NANAttributeID.cipherSuiteInfo

    public var capabilities: CipherSuiteCapabilities
    public var cipherSuites: [CipherSuite]

    public init(capabilities: CipherSuiteCapabilities, cipherSuites: [CipherSuite]) {
        self.capabilities = capabilities
        self.cipherSuites = cipherSuites
    }

    public init(from reader: inout WireReader) throws(WireError) {
        capabilities = CipherSuiteCapabilities(rawValue: try reader.readUInt8("Capabilities"))
        cipherSuites = []
        while !reader.isAtEnd { cipherSuites.append(try CipherSuite(from: &reader)) }
    }

    public func write(to writer: inout WireWriter) {
        writer.write(capabilities.rawValue)
        for suite in cipherSuites { suite.write(to: &writer) }
    }

    public var decodedFields: [DecodedField] {
        capabilities.decodedFields + [
            DecodedField("cipherSuites", "Cipher Suite List", .list(cipherSuites.map { .fields($0.decodedFields) }))
        ]
    }
}
