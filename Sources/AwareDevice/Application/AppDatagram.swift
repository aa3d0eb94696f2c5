import AwareCore
import AwareWire

/// One application message that arrived on a data path, with where it came from.
public struct AppDatagram: Hashable, Sendable {
    public var link: DataLinkID
    public var sourcePort: UInt16
    public var destinationPort: UInt16
    public var message: AppMessage
    /// The TID of the QoS data frame that carried it: the sender's access category.
    public var tid: UInt8
    public var info: RxInfo
}
