/// Why a radio could not be opened or a message to or from it could not be handled.
public enum RadioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kernel offers no nl80211 (cfg80211 is not built in or not loaded), so no real
    /// radio can be driven from this machine. `reason` says what the kernel answered.
    case nl80211Unavailable(reason: String)
    /// The kernel knows no generic netlink family of this name.
    case familyNotFound(name: String)
    /// A libnl call failed; `code` is libnl's (negative) error code, `message` its text.
    case netlink(operation: String, code: Int32, message: String)
    /// Netlink bytes do not follow the netlink / generic netlink layout (RFC 3549 2.3.2,
    /// `linux/netlink.h`). `offset` counts from the first octet of the message.
    case malformedMessage(reason: String, offset: Int)
    /// An attribute's payload does not have the size its type requires.
    case attributeSize(type: UInt16, expected: Int, actual: Int)
    /// A nested attribute was expected where plain payload octets are.
    case notNested(type: UInt16)

    public var description: String {
        switch self {
        case .nl80211Unavailable(let reason):
            return "nl80211 is unavailable: \(reason). This machine's kernel has no nl80211/cfg80211 "
                + "(cfg80211 is not built in or not loaded), so a real radio cannot be used here. "
                + "Use `--air sim` (the in-process simulated air) or `--air socket` "
                + "(an air shared between processes) instead."
        case .familyNotFound(let name):
            return "the kernel has no generic netlink family \"\(name)\""
        case .netlink(let operation, let code, let message):
            return "\(operation) failed with libnl error \(code): \(message)"
        case .malformedMessage(let reason, let offset):
            return "malformed netlink message at offset \(offset): \(reason)"
        case .attributeSize(let type, let expected, let actual):
            return "netlink attribute \(type): expected \(expected) octets of payload, found \(actual)"
        case .notNested(let type):
            return "netlink attribute \(type) does not hold nested attributes"
        }
    }
}
