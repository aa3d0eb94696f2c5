import CNetlink

/// A generic netlink socket (libnl `struct nl_sock`) for talking to nl80211.
///
/// This is only the first step of the nl80211 radio: it connects and resolves families, and
/// tells plainly when the kernel has no nl80211 at all (as on the build VM, where
/// `genl_ctrl_resolve("nl80211")` answers -12 "Object not found", platform-notes.md 2.2). It
/// does not send nl80211 commands yet.
///
/// Not `Sendable`: a libnl socket must not be used from two threads at once.
public final class NL80211Socket {
    private let socket: OpaquePointer

    private init(socket: OpaquePointer) {
        self.socket = socket
    }

    deinit {
        nl_socket_free(socket)
    }

    /// Allocates a socket and connects it to generic netlink (`genl_connect`). This works on
    /// any Linux kernel, with or without Wi-Fi.
    public static func open() throws(RadioError) -> NL80211Socket {
        guard let socket = nl_socket_alloc() else {
            throw RadioError.netlink(
                operation: "nl_socket_alloc",
                code: -NLE_NOMEM,
                message: NetlinkMessage.text(-NLE_NOMEM)
            )
        }
        let code = genl_connect(socket)
        guard code >= 0 else {
            nl_socket_free(socket)
            throw RadioError.netlink(operation: "genl_connect", code: code, message: NetlinkMessage.text(code))
        }
        return NL80211Socket(socket: socket)
    }

    /// The nl80211 family ID, or `RadioError.nl80211Unavailable` when the kernel has none.
    public func resolveFamily() throws(RadioError) -> UInt16 {
        try resolveFamily(named: NL80211Constants.familyName)
    }

    /// The ID of the generic netlink family `name` (`genl_ctrl_resolve`). Not finding
    /// "nl80211" is reported as `nl80211Unavailable`; not finding another family as
    /// `familyNotFound`.
    public func resolveFamily(named name: String) throws(RadioError) -> UInt16 {
        let code = genl_ctrl_resolve(socket, name)
        if code == -NLE_OBJ_NOTFOUND {
            guard name == NL80211Constants.familyName else { throw RadioError.familyNotFound(name: name) }
            throw RadioError.nl80211Unavailable(
                reason: "genl_ctrl_resolve(\"\(name)\") returned \(code) (\(NetlinkMessage.text(code)))"
            )
        }
        guard code >= 0 else {
            throw RadioError.netlink(
                operation: "genl_ctrl_resolve(\"\(name)\")",
                code: code,
                message: NetlinkMessage.text(code)
            )
        }
        guard code > 0, let familyID = UInt16(exactly: code) else {
            throw RadioError.malformedMessage(
                reason: "the kernel returned family ID \(code) for \"\(name)\"",
                offset: 0
            )
        }
        return familyID
    }
}
