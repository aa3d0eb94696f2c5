/// Service ID List: the services a device offers or seeks (nan-wire-reference.md 2.2, ID 0x02).
/// The body is n x Service ID (6) (``ServiceIDListBody``).
public struct ServiceIDListAttribute: ServiceIDListBody {
    public static let attributeID = NANAttributeID.serviceIDList

    public var serviceIDs: [ServiceID]

    public init(serviceIDs: [ServiceID]) {
        self.serviceIDs = serviceIDs
    }
}
