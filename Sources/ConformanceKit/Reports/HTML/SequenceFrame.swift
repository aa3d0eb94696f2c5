import AwareAnalysis
import AwareCore
import AwareWire

/// One frame of a test's capture as the sequence diagram draws it: who sent it to whom, when, and
/// what it is in the protocol's words ("SDF Publish", "PASN Authentication 2", "NAF Schedule Request").
struct SequenceFrame: Hashable, Sendable {
    /// 1-based, as Wireshark numbers frames, so a person can find it with `tshark -r`.
    var number: Int
    /// Nanoseconds as the capture stamped them.
    var timestamp: UInt64
    /// Address 2; nil for frames that carry only a receiver (ACK, CTS) or are too short.
    var transmitter: MACAddress?
    /// Address 1; nil when the frame is too short to hold it.
    var receiver: MACAddress?
    var kind: String

    init(number: Int, record: CaptureRecord) {
        self.number = number
        timestamp = record.timestamp
        let octets = record.frame
        // Every 802.11 frame type puts Address 1 at octet 4 and, when present, Address 2 at 10
        // (IEEE 802.11-2020 9.2.3): reading them here also covers data and control frames, which
        // AwareWire does not decode beyond Frame Control.
        receiver = octets.count >= 10 ? MACAddress(octets[4..<10]) : nil
        transmitter = octets.count >= 16 && Self.hasTransmitter(octets) ? MACAddress(octets[10..<16]) : nil
        let decoded = DecodedFrame(number: number, record: record, octets: octets)
        kind = Self.shortened(decoded.summary)
    }

    /// ACK and CTS (control subtypes 13 and 12) end after Address 1; their next octets are the FCS
    /// or nothing.
    static func hasTransmitter(_ octets: [UInt8]) -> Bool {
        let type = (octets[0] >> 2) & 0x3
        let subtype = octets[0] >> 4
        return !(type == 1 && (subtype == 12 || subtype == 13))
    }

    /// The diagram has little room: "Data (not NAN)" says "Data" there, the lanes say the rest.
    static func shortened(_ summary: String) -> String {
        summary.hasSuffix(" (not NAN)") ? String(summary.dropLast(" (not NAN)".count)) : summary
    }
}
