/// The body of a PASN Authentication frame (nan-wire-reference.md 3.4.1):
/// `Authentication Algorithm (2, LE) = 7 | Transaction Sequence (2, LE) | Status Code (2, LE)
/// | elements`.
public struct PASNAuthenticationFrame: Hashable, Sendable, WireCodable, WireDescribable {
    /// `WLAN_AUTH_PASN`.
    public static let authenticationAlgorithm: UInt16 = 7
    public static let structureName = "PASN Authentication frame"

    /// 1 and 3 from the initiator, 2 from the responder.
    public var transactionSequence: UInt16
    public var statusCode: UInt16
    public var elements: [FrameElement]

    public init(transactionSequence: UInt16, statusCode: UInt16 = 0, elements: [FrameElement]) {
        self.transactionSequence = transactionSequence
        self.statusCode = statusCode
        self.elements = elements
    }

    /// Frame 2 comes from the responder; its PASN Parameters may carry Comeback After.
    public var isFromResponder: Bool { transactionSequence == 2 }

    public var rsn: RSNElement? { first { if case .rsn(let e) = $0 { e } else { nil } } }
    public var rsnExtension: RSNExtensionElement? { first { if case .rsnExtension(let e) = $0 { e } else { nil } } }
    public var wrappedData: WrappedDataElement? { first { if case .wrappedData(let e) = $0 { e } else { nil } } }
    public var pasnParameters: PASNParametersElement? {
        first { if case .pasnParameters(let e) = $0 { e } else { nil } }
    }
    public var nanElement: NANElement? { first { if case .nan(let e) = $0 { e } else { nil } } }
    public var mic: MICElement? { first { if case .mic(let e) = $0 { e } else { nil } } }

    private func first<T>(_ pick: (FrameElement) -> T?) -> T? {
        for element in elements { if let value = pick(element) { return value } }
        return nil
    }

    public init(from reader: inout WireReader) throws(WireError) {
        reader.structure = Self.structureName
        let algorithm = try reader.readUInt16LE("Authentication Algorithm")
        guard algorithm == Self.authenticationAlgorithm else {
            throw reader.error(
                .invalidValue("authentication algorithm \(algorithm) is not 7 (PASN)"),
                field: "Authentication Algorithm",
                at: reader.offset - 2
            )
        }
        transactionSequence = try reader.readUInt16LE("Authentication Transaction Sequence Number")
        statusCode = try reader.readUInt16LE("Status Code")
        elements = try FrameElement.readList(from: &reader, context: .pasn(fromResponder: transactionSequence == 2))
    }

    public func write(to writer: inout WireWriter) {
        writer.writeUInt16LE(Self.authenticationAlgorithm)
        writer.writeUInt16LE(transactionSequence)
        writer.writeUInt16LE(statusCode)
        FrameElement.writeList(elements, to: &writer)
    }

    public var decodedFields: [DecodedField] {
        [
            DecodedField(
                "authenticationAlgorithm",
                "Authentication Algorithm",
                .named(UInt64(Self.authenticationAlgorithm), "PASN")
            ),
            DecodedField(
                "transactionSequence",
                "Authentication Transaction Sequence Number",
                .unsigned(UInt64(transactionSequence))
            ),
            DecodedField("statusCode", "Status Code", .unsigned(UInt64(statusCode))),
            DecodedField("elements", "Elements", .list(elements.map { .fields(describe($0)) })),
        ]
    }

    /// The SAE messages inside Wrapped Data, when PASN Parameters says the format is SAE
    /// (nan-wire-reference.md 3.4.1): nil without SAE wrapped data, else the messages or why
    /// they do not parse. Wrapped data is opaque to the frame's own syntax, so a bad SAE
    /// message does not make the frame malformed; it is reported instead.
    public var wrappedSAE: Result<PASNWrappedSAE, WireError>? {
        guard let wrappedData, pasnParameters?.wrappedDataFormat == .sae else { return nil }
        var reader = WireReader(wrappedData.data, structure: "SAE messages in Wrapped Data")
        do {
            let messages = try PASNWrappedSAE(from: &reader, pasnSequence: transactionSequence)
            try reader.expectEnd()
            return .success(messages)
        } catch {
            return .failure(error)
        }
    }

    /// Wrapped Data of format 3 holds SAE messages whose layout depends on the transaction
    /// sequence, which only the frame knows (nan-wire-reference.md 3.4.1; hostap session A,
    /// subtlety 10). Data that does not parse as SAE keeps its octets and says why under `saeError`.
    private func describe(_ element: FrameElement) -> [DecodedField] {
        guard case .wrappedData = element, let sae = wrappedSAE else { return element.decodedFields }
        switch sae {
        case .success(let messages):
            return element.decodedFields + [DecodedField("sae", "SAE", .fields(messages.decodedFields))]
        case .failure(let error):
            return element.decodedFields + [DecodedField("saeError", "SAE (does not parse)", .text(error.description))]
        }
    }
}
