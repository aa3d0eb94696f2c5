import AwareCore
import AwareWire

/// What a test left when its context was sealed, ready to be written.
struct EvidenceSnapshot: Sendable {
    var events: [EventLine]
    var captureRecords: [CaptureRecord]
    var captureBytes: [UInt8]?
    var attachments: [String: [UInt8]]
    var finalTime: Instant

    var eventsJSONL: String { events.map { $0.json + "\n" }.joined() }

    /// The pcap: the one the test set, else the frames it captured (radiotap when they carry it).
    var pcap: [UInt8] {
        if let captureBytes { return captureBytes }
        let linkType = captureRecords.first?.linkType ?? .ieee80211Radiotap
        return PcapFile(linkType: linkType, records: captureRecords).bytes
    }
}
