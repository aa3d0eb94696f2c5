import AwareCore
import AwareProtocol
import AwareWire

/// What became of a `perf` run: the phone's report on the measured flow and the accessory's own,
/// or why there is none.
struct PerfResult {
    enum Result: String {
        case measured
        /// The accessory refused the data path (a NAN reason code says why).
        case refused
        case failed
    }

    var result: Result
    /// Machine-readable: mode-mismatch, security-policy, no-accessory, pairing-failed, ...
    var reason: String?
    var detail = ""
    var accessory: MACAddress?
    /// "paired" or "reconnected": how the phone got its keys for the data path.
    var pairing: String?
    /// The NAN reason code of a refusal (nan-wire-reference.md 2.11).
    var nanReason: UInt8?
    /// The cipher suite that secured the data path.
    var csid: UInt8?
    var flowID: UInt16?
    /// From the first datagram's departure to the last one's arrival (without any, from the
    /// stream request to `streamStopped`): what the phone's throughput is computed over.
    var windowSeconds: Double?
    var phoneReport: PerformanceReport?
    var accessoryReport: JSONValue?

    static func failed(_ reason: String, _ detail: String) -> PerfResult {
        PerfResult(result: .failed, reason: reason, detail: detail)
    }
}
