import AwareCore
import AwareCrypto
import AwareWire

/// What a device keeps about one paired peer, so that it can reconnect without a PIN: the NPK
/// for pairing verification and the peer's NIK to resolve its NIRA (nan-wire-reference.md 3.4-3.7).
///
/// Its descriptions redact the NPK and the NIK: keys never reach logs or error messages.
public struct PairingRecord: Hashable, Sendable {
    /// Octets in a NIK and in an NPK (nan-wire-reference.md 3.6, 3.5).
    public static let nikLength = 16
    public static let npkLength = 32
    /// The NAN cipher suites of paired peers: NCS-PK-PASN-128 and NCS-PK-PASN-256
    /// (nan-wire-reference.md 2.13).
    public static let cipherSuites: ClosedRange<UInt8> = 7...8

    public var peerNMI: MACAddress
    /// The peer's NIK; nil when the peer sent none (pairing without NIK exchange).
    public var peerNIK: [UInt8]?
    public var npk: [UInt8]
    public var akm: PASNAKM
    public var cipherSuite: UInt8
    /// Unix time of the pairing, in seconds.
    public var pairedAt: Int64
    /// How long the peer's NIK stays valid after `pairedAt`; 0 keeps it until the pairing is removed.
    public var nikLifetimeSeconds: Int
    /// What a person calls the peer, when known.
    public var label: String?

    public init(
        peerNMI: MACAddress,
        peerNIK: [UInt8]?,
        npk: [UInt8],
        akm: PASNAKM,
        cipherSuite: UInt8,
        pairedAt: Int64,
        nikLifetimeSeconds: Int = 0,
        label: String? = nil
    ) {
        self.peerNMI = peerNMI
        self.peerNIK = peerNIK
        self.npk = npk
        self.akm = akm
        self.cipherSuite = cipherSuite
        self.pairedAt = pairedAt
        self.nikLifetimeSeconds = nikLifetimeSeconds
        self.label = label
    }

    /// The first rule the record breaks, naming the field but never its value; nil when it can be stored.
    public var invalidity: String? {
        if let peerNIK, peerNIK.count != Self.nikLength {
            return "peerNIK has \(peerNIK.count) octets, not \(Self.nikLength)"
        }
        if npk.count != Self.npkLength { return "npk has \(npk.count) octets, not \(Self.npkLength)" }
        if !Self.cipherSuites.contains(cipherSuite) { return "cipherSuite \(cipherSuite) is not 7 or 8" }
        if pairedAt < 0 { return "pairedAt is negative" }
        if nikLifetimeSeconds < 0 { return "nikLifetimeSeconds is negative" }
        return nil
    }

    /// Whether the peer's NIK is still valid at `now` (Unix seconds).
    public func nikIsValid(at now: Int64) -> Bool {
        guard peerNIK != nil else { return false }
        guard nikLifetimeSeconds > 0 else { return true }
        return now < pairedAt &+ Int64(nikLifetimeSeconds)
    }
}

extension PairingRecord: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        var text =
            "PairingRecord(peerNMI: \(peerNMI), peerNIK: \(peerNIK == nil ? "none" : "<redacted>"), npk: <redacted>, "
            + "akm: \(akm.rawValue), cipherSuite: \(cipherSuite), pairedAt: \(pairedAt), "
            + "nikLifetimeSeconds: \(nikLifetimeSeconds)"
        if let label { text += ", label: \"\(label)\"" }
        return text + ")"
    }

    public var debugDescription: String { description }

    /// `dump()` and the debugger see the same redacted view.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "peerNMI": peerNMI.description,
                "peerNIK": peerNIK == nil ? "none" : "<redacted>",
                "npk": "<redacted>",
                "akm": akm.rawValue,
                "cipherSuite": cipherSuite,
                "pairedAt": pairedAt,
                "nikLifetimeSeconds": nikLifetimeSeconds,
                "label": label as Any,
            ],
            displayStyle: .struct
        )
    }
}
