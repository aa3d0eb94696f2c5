/// Subscribe Service ID List: the services a device subscribes to (nan-wire-reference.md 2.2, ID 0x28).
/// The body is n x Service ID (6) (``ServiceIDListBody``).
public struct SubscribeServiceIDListAttribute: ServiceIDListBody {
    public static let attributeID = NANAttributeID.subscribeServiceIDList

    public var serviceIDs: [ServiceID]

    public init(serviceIDs: [ServiceID]) {
        self.serviceIDs = serviceIDs
    }
}
