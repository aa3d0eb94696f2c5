/// What `AccessoryStateDirectory.factoryReset()` removed, for the person who asked.
public struct FactoryResetSummary: Hashable, Sendable, CustomStringConvertible {
    /// Paired devices forgotten; nil when the pairing store was damaged and could not be counted.
    public var pairedDevices: Int?
    public var removedOwnNIK: Bool
    /// identity.json (the NMI and the boot count).
    public var removedIdentity: Bool

    public init(pairedDevices: Int?, removedOwnNIK: Bool, removedIdentity: Bool) {
        self.pairedDevices = pairedDevices
        self.removedOwnNIK = removedOwnNIK
        self.removedIdentity = removedIdentity
    }

    public var removedNothing: Bool { pairedDevices == 0 && !removedOwnNIK && !removedIdentity }

    /// "removed 2 paired devices and the identity".
    public var description: String {
        if removedNothing { return "nothing to remove: no paired devices and no identity" }
        let devices =
            switch pairedDevices {
            case nil: "the damaged pairing store"
            case 1: "1 paired device"
            case let count?: "\(count) paired devices"
            }
        // The own NIK is part of who the device is, as its NMI is.
        return "removed \(devices)" + (removedIdentity || removedOwnNIK ? " and the identity" : "")
    }
}
