/// The Availability entry fields that are preferences rather than schedule (2.7). The
/// defaults are the values hostap writes (session A frames 22-25: committed control 0x11E0,
/// potential control 0x07FA), so a bench exchange can be compared with the recording byte for
/// byte; no receiver here reads them.
public struct NDPAvailabilityStyle: Hashable, Sendable {
    public var sequenceID: UInt8
    public var committedUtilization: UInt8 = 7
    public var committedRxNSS: UInt8 = 1
    public var potentialUsagePreference: UInt8 = 3
    public var potentialUtilization: UInt8 = 7
    public var potentialRxNSS: UInt8 = 7

    public init(sequenceID: UInt8 = 0) {
        self.sequenceID = sequenceID
    }
}
