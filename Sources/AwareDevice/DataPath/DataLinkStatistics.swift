import AwareCore
import AwareProtocol
import AwareWire

/// What a device counted on one data path, for the performance report.
public struct DataLinkStatistics: Hashable, Sendable {
    /// Frames handed to the device to send.
    public var framesOffered = 0
    /// Frames the peer acknowledged.
    public var framesDelivered = 0
    /// Frames the air gave up on after its retries.
    public var framesFailed = 0
    /// Frames past their deadline before they could go out (unreliable flows only).
    public var framesExpired = 0
    /// Frames refused because the queue of their access category was full.
    public var framesOverflowed = 0
    public var octetsDelivered = 0
    public var framesReceived = 0
    public var octetsReceived = 0
    /// Unprotected data frames from a peer whose data path is secured.
    public var unprotectedDropped = 0
    public var authenticationFailures = 0
    public var replaysDropped = 0
    /// The last signal heard from the peer on this data path.
    public var lastSignalDBm: Int?
    /// The TIDs of frames received, by TID.
    public var receivedTIDs: [UInt8: Int] = [:]
    /// Transmit latency per access category: from the moment a frame was queued to its
    /// acknowledgement, as the phone's `transmitLatency` counts (apple-peer-model.md 1.8).
    public var transmitLatencies: [AccessCategory: [Interval]] = [:]

    public init() {}

    /// The most samples kept per access category; later ones replace the oldest.
    public static let sampleLimit = 200_000

    /// In place: a copy of the samples per frame would cost as much as the samples kept.
    mutating func record(latency: Interval, category: AccessCategory) {
        if let count = transmitLatencies[category]?.count, count >= Self.sampleLimit {
            transmitLatencies[category]?.removeFirst(count / 2)
        }
        transmitLatencies[category, default: []].append(latency)
    }
}
