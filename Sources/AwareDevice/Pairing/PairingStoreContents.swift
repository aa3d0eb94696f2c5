/// Everything in `pairings.json`: this device's own NIK and its paired peers.
public struct PairingStoreContents: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The NIK this device gives its peers; nil until `PairingStore.ownNIK(creatingWith:)` makes one.
    public var ownNIK: [UInt8]?
    public var peers: [PairingRecord]

    public init(ownNIK: [UInt8]? = nil, peers: [PairingRecord] = []) {
        self.ownNIK = ownNIK
        self.peers = peers
    }

    public static let empty = PairingStoreContents()

    public var description: String {
        "PairingStoreContents(ownNIK: \(ownNIK == nil ? "none" : "<redacted>"), peers: \(peers))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["ownNIK": ownNIK == nil ? "none" : "<redacted>", "peers": peers],
            displayStyle: .struct
        )
    }
}
