import AwareCore
import AwareProtocol
import AwareWire

/// How a phone's pairing or reconnect ended, as `aware-conform pair` / `reconnect` report it.
public struct PairingOutcome: Hashable, Sendable {
    public enum Result: String, Hashable, Sendable {
        case paired
        case reconnected
        case failed
    }

    public var result: Result
    /// Machine-readable: `sae-confirm-mismatch`, `locked-out`, `no-cached-keys`, `timeout`, ...
    public var reason: String?
    /// For people.
    public var detail: String
    public var accessory: MACAddress
    /// Whether both sides exchanged NIKs, so that a later reconnect needs no PIN.
    public var keysCached: Bool
    public var cipherSuite: UInt8?

    public init(
        result: Result,
        reason: String? = nil,
        detail: String,
        accessory: MACAddress,
        keysCached: Bool = false,
        cipherSuite: UInt8? = nil
    ) {
        self.result = result
        self.reason = reason
        self.detail = detail
        self.accessory = accessory
        self.keysCached = keysCached
        self.cipherSuite = cipherSuite
    }

    public var succeeded: Bool { result != .failed }

    public static func failed(_ reason: String, _ detail: String, accessory: MACAddress) -> PairingOutcome {
        PairingOutcome(result: .failed, reason: reason, detail: detail, accessory: accessory)
    }

    /// The runner's name for a bootstrapping failure (nan-wire-reference.md 2.11).
    static func reason(for failure: BootstrapFailure) -> String {
        switch failure {
        case .rejected(let code):
            switch code {
            case 8: "locked-out"
            case 2: "paired-device-limit"
            case 13: "bootstrap-rejected"
            default: "bootstrap-rejected"
            }
        case .timeout: "timeout"
        case .methodMismatch: "bootstrap-method-mismatch"
        case .tooManyComebacks: "too-many-comebacks"
        case .invalidMethod: "invalid-method"
        case .aborted: "aborted"
        }
    }
}
