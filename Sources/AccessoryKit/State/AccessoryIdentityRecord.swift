import AwareCore
import AwareWire

/// What the accessory keeps about itself across restarts: the NMI it uses (so a phone sees
/// the same device after a reboot) and how many times it has started.
public struct AccessoryIdentityRecord: Hashable, Sendable, Codable {
    public static let currentFormat = "awarebench-accessory-identity/1"

    public var format: String
    public var nmi: String
    public var boots: Int

    public init(nmi: MACAddress, boots: Int) {
        format = Self.currentFormat
        self.nmi = nmi.description
        self.boots = boots
    }

    public var address: MACAddress? { MACAddress(string: nmi) }
}
