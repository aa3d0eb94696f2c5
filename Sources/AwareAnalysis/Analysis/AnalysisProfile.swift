import AwareCore
import AwareWire

/// What the analyzer may expect of the device under test, taken from an accessory profile
/// (or given on the command line): the service names it publishes (so that service IDs can be
/// checked against their hash), the TXT values the phone reads, and whether it offers pairing.
///
/// Every field is optional: without a profile the rules that need one check only what the
/// capture itself proves.
public struct AnalysisProfile: Hashable, Sendable {
    /// Service names whose IDs the device may publish (nan-wire-reference.md 2.4).
    public var serviceNames: [String]
    /// Expected `vendorName=`, `modelName=`, `pairingName=` values (apple-peer-model.md 1.6).
    public var vendorName: String?
    public var modelName: String?
    public var pairingName: String?
    /// The profile offers pairing: its publishes must advertise it (DCEA + NPBA).
    public var offersPairing: Bool?
    /// The device(s) under test, by NMI. When set, only findings on frames these addresses sent
    /// are reported: a sniffer also hears the phone and the neighbours.
    public var devices: Set<MACAddress>

    public init(
        serviceNames: [String] = [],
        vendorName: String? = nil,
        modelName: String? = nil,
        pairingName: String? = nil,
        offersPairing: Bool? = nil,
        devices: Set<MACAddress> = []
    ) {
        self.serviceNames = serviceNames
        self.vendorName = vendorName
        self.modelName = modelName
        self.pairingName = pairingName
        self.offersPairing = offersPairing
        self.devices = devices
    }

    /// The service ID of each known name: SHA-256 of the ASCII-lower-cased name, first 6 octets.
    public var serviceIDs: [(name: String, id: ServiceID)] {
        serviceNames.map { ($0, ServiceID(serviceName: $0)) }
    }

    /// The TXT values the profile names, in the order the phone reads them.
    public var expectedTXT: [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        if let vendorName { pairs.append(("vendorName", vendorName)) }
        if let modelName { pairs.append(("modelName", modelName)) }
        if let pairingName { pairs.append(("pairingName", pairingName)) }
        return pairs
    }
}
