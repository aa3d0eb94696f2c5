/// A generic netlink family as the controller (`nlctrl`) describes it: its ID and its multicast
/// groups, from the reply to `CTRL_CMD_GETFAMILY` (`linux/genetlink.h`).
///
/// The radio resolves nl80211 and its "mlme" and "nan" groups itself, through the same request
/// path as every other command, instead of with libnl's `genl_ctrl_resolve` /
/// `genl_ctrl_resolve_grp`. Those receive through libnl's own sequence check, which expects the
/// sequence number libnl last counted: after a request sent and answered outside libnl's
/// receive loop (``NL80211Socket/perform(_:)``) the reply no longer matches, the probe fails
/// with `NLE_SEQ_MISMATCH` and `genl_ctrl_resolve_grp` reports -12 "Object not found" although
/// the group exists. A Linux 6.12 kernel with mac80211_hwsim showed exactly that (docs/guides/nl80211.md,
/// "Verified on a kernel").
public struct GenericNetlinkFamily: Hashable, Sendable {
    public var name: String
    public var id: UInt16
    /// Multicast group IDs by name (`CTRL_ATTR_MCAST_GROUPS`).
    public var multicastGroups: [String: UInt32]

    public init(name: String, id: UInt16, multicastGroups: [String: UInt32] = [:]) {
        self.name = name
        self.id = id
        self.multicastGroups = multicastGroups
    }

    /// The controller's fixed family ID (`GENL_ID_CTRL` = `NLMSG_MIN_TYPE`, 0x10).
    public static let controllerID: UInt16 = 0x10
    /// `CTRL_CMD_NEWFAMILY`, `CTRL_CMD_GETFAMILY`.
    static let newFamilyCommand: UInt8 = 1
    static let getFamilyCommand: UInt8 = 3
    /// `CTRL_ATTR_FAMILY_ID` (u16), `CTRL_ATTR_FAMILY_NAME` (string), `CTRL_ATTR_MCAST_GROUPS`.
    static let familyIDAttribute: UInt16 = 1
    static let familyNameAttribute: UInt16 = 2
    static let multicastGroupsAttribute: UInt16 = 7
    /// Inside each group's nest: `CTRL_ATTR_MCAST_GRP_NAME` (string), `CTRL_ATTR_MCAST_GRP_ID` (u32).
    static let groupNameAttribute: UInt16 = 1
    static let groupIDAttribute: UInt16 = 2

    /// `CTRL_CMD_GETFAMILY` for `name` (version 1, as libnl and iw send it), acknowledged.
    public static func request(name: String) -> NL80211Request {
        NL80211Request(
            message: GenericNetlinkMessage(
                familyID: controllerID,
                command: getFamilyCommand,
                version: 1,
                flags: NL80211Request.requestFlag | NL80211Request.acknowledgeFlag,
                attributes: [.bytes(familyNameAttribute, Array(name.utf8) + [0])]
            )
        )
    }

    /// Reads the controller's `CTRL_CMD_NEWFAMILY` reply. The family ID is required; groups are
    /// optional (a family may have none), and each must carry a name and an ID.
    public init(reply: GenericNetlinkMessage) throws(RadioError) {
        guard reply.command == Self.newFamilyCommand else {
            throw RadioError.unexpectedCommand(expected: Self.newFamilyCommand, actual: reply.command)
        }
        guard let idAttribute = reply.attribute(Self.familyIDAttribute) else {
            throw RadioError.missingAttribute(command: reply.command, attribute: Self.familyIDAttribute)
        }
        id = try idAttribute.u16Value()
        name = try reply.attribute(Self.familyNameAttribute)?.stringValue() ?? ""
        multicastGroups = [:]
        guard let groups = reply.attribute(Self.multicastGroupsAttribute) else { return }
        // An array nest: one nest per group, numbered 1, 2, ... (`ctrl_fill_info`).
        for group in try groups.nestedAttributes() {
            let fields = try group.nestedAttributes()
            guard let groupName = fields.first(where: { $0.type == Self.groupNameAttribute }) else {
                throw RadioError.missingAttribute(command: reply.command, attribute: Self.groupNameAttribute)
            }
            guard let groupID = fields.first(where: { $0.type == Self.groupIDAttribute }) else {
                throw RadioError.missingAttribute(command: reply.command, attribute: Self.groupIDAttribute)
            }
            multicastGroups[try groupName.stringValue()] = try groupID.u32Value()
        }
    }
}
