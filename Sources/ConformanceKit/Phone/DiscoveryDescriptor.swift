import AwareCore
import AwareProtocol
import AwareWire

/// How the phone decides which discovered accessories to offer, as AccessorySetupKit does
/// with an `ASDiscoveryDescriptor` (apple-peer-model.md 2, decompiled `DAWiFiScanner`):
/// the service name must be the descriptor's exactly; the TXT record must carry both
/// `vendorName` and `modelName`; each given match compares the whole string, literally or
/// ignoring case; a vendor of exactly "Apple Inc." is skipped; the name shown is
/// `pairingName`.
public struct DiscoveryDescriptor: Hashable, Sendable {
    public enum Comparison: String, Hashable, Sendable, CaseIterable {
        case literal
        case caseInsensitive = "case-insensitive"
    }

    public var serviceName: String
    public var vendorName: String?
    public var modelName: String?
    public var comparison: Comparison

    public init(
        serviceName: String,
        vendorName: String? = nil,
        modelName: String? = nil,
        comparison: Comparison = .literal
    ) {
        self.serviceName = serviceName
        self.vendorName = vendorName
        self.modelName = modelName
        self.comparison = comparison
    }

    /// The accessory as the phone would offer it, or why it would not. Values longer than 63
    /// octets are read as `reading` says (the phone profile's ``PhoneProfile/LongTXTValues``;
    /// an iPhone truncates them, apple-peer-model.md 1.6); keys match whatever their case
    /// (RFC 6763 6.4).
    public func evaluate(
        _ result: DiscoveryResult,
        reading: PhoneProfile.LongTXTValues = PhoneProfile.iphone.longTXTValues
    ) -> Result<OfferedAccessory, NotOffered> {
        guard result.serviceName == serviceName else { return .failure(.serviceName(result.serviceName)) }
        guard let txt = result.txtRecord else { return .failure(.noTXTRecord) }
        guard let vendor = reading.value(of: "vendorName", in: txt) else { return .failure(.missingKey("vendorName")) }
        guard let model = reading.value(of: "modelName", in: txt) else { return .failure(.missingKey("modelName")) }
        if vendor == "Apple Inc." { return .failure(.appleDevice) }
        if let vendorName, !matches(vendorName, vendor) { return .failure(.vendorMismatch(vendor)) }
        if let modelName, !matches(modelName, model) { return .failure(.modelMismatch(model)) }
        return .success(
            OfferedAccessory(
                address: result.publisherAddress,
                serviceName: result.serviceName,
                vendorName: vendor,
                modelName: model,
                pairingName: reading.value(of: "pairingName", in: txt),
                publishInstanceID: result.publishInstanceID,
                rssiDBm: result.rssiDBm
            )
        )
    }

    private func matches(_ wanted: String, _ actual: String) -> Bool {
        switch comparison {
        case .literal: wanted == actual
        case .caseInsensitive: wanted.lowercased() == actual.lowercased()
        }
    }

    /// Why a discovered accessory is not offered.
    public enum NotOffered: Hashable, Sendable, CustomStringConvertible, Error {
        case serviceName(String)
        case noTXTRecord
        case missingKey(String)
        case appleDevice
        case vendorMismatch(String)
        case modelMismatch(String)

        public var description: String {
            switch self {
            case .serviceName(let name): "service \(name) is not the descriptor's"
            case .noTXTRecord: "no DNS-SD TXT record in the service info"
            case .missingKey(let key): "the TXT record has no \(key)"
            case .appleDevice: "vendorName is \"Apple Inc.\""
            case .vendorMismatch(let vendor): "vendorName \"\(vendor)\" does not match"
            case .modelMismatch(let model): "modelName \"\(model)\" does not match"
            }
        }
    }
}

/// An accessory the phone would show in its picker.
public struct OfferedAccessory: Hashable, Sendable {
    public var address: MACAddress
    public var serviceName: String
    public var vendorName: String
    public var modelName: String
    /// The name a person sees.
    public var pairingName: String?
    public var publishInstanceID: UInt8
    public var rssiDBm: Int
}
