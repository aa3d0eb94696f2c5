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
    /// nl80211 exists but there is no network interface of this name (`if_nametoindex`).
    case interfaceNotFound(name: String)
    /// The interface the USD path sends and listens through is administratively down (the
    /// kernel answers ENETDOWN to remain-on-channel and frames).
    case interfaceDown(name: String)
    /// The radio went away while running: the kernel answered ENODEV (the interface was deleted,
    /// the adapter unplugged). Nothing more can be sent or heard.
    case radioLost(interface: String, reason: String)
    /// The kernel dropped events for this radio: its event socket's buffer was full (ENOBUFS).
    /// Not fatal; the radio makes up for what was lost.
    case eventsLost(interface: String)
    /// The family has no multicast group of that name (`available` lists those it has).
    case multicastGroupNotFound(family: String, group: String, available: [String])
    /// The interface exists but its wiphy lacks what every NAN path needs; `missing` names
    /// each capability in nl80211's words (``NL80211DiscoveryPath``).
    case notNANCapable(interface: String, missing: [String])
    /// A kernel reply or event lacks an attribute its command must carry.
    case missingAttribute(command: UInt8, attribute: UInt16)
    /// A reply of the wrong command (e.g. not `NEW_WIPHY` to `GET_WIPHY`).
    case unexpectedCommand(expected: UInt8, actual: UInt8)
    /// A reply that is well formed but contradicts itself or the request.
    case invalidReply(String)
    /// A request this side refuses to build (a value outside what nl80211 allows).
    case invalidRequest(String)
    /// The kernel refused a request: `errno` is the positive errno of its NLMSG_ERROR.
    case kernelRefused(command: UInt8, errno: Int32, message: String)

    public var description: String {
        switch self {
        case .nl80211Unavailable(let reason):
            return "nl80211 is unavailable: \(reason). This machine's kernel has no nl80211/cfg80211 "
                + "(cfg80211 is not built in or not loaded), so a real radio cannot be used here. "
                + "Check with `ls /sys/class/ieee80211` (empty or missing: no wireless hardware registered), "
                + "`iw dev` (\"nl80211 not found.\" means no cfg80211) and `modprobe cfg80211` (as root). "
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
        case .interfaceDown(let name):
            return "interface \(name) is down: NAN USD sends and listens through it. Bring it up with "
                + "`ip link set \(name) up` (if that fails, `rfkill list` shows what blocks it)."
        case .radioLost(let interface, let reason):
            return "the radio on \(interface) went away: \(reason). Nothing more can be sent or heard; "
                + "`iw dev` lists the wireless interfaces there are now."
        case .eventsLost(let interface):
            return "the kernel dropped events for the radio on \(interface) (its event socket overflowed, ENOBUFS): "
                + "frames waiting for their TX status count as not acknowledged, and listening starts afresh"
        case .multicastGroupNotFound(let family, let group, let available):
            return "the generic netlink family \(family) has no multicast group \"\(group)\" (it has: "
                + (available.isEmpty ? "none" : available.joined(separator: ", ")) + ")"
        case .interfaceNotFound(let name):
            return "there is no network interface \"\(name)\" (nl80211 itself is present). "
                + "List the wireless interfaces with `iw dev` or `ls /sys/class/net`."
        case .notNANCapable(let interface, let missing):
            return "interface \(interface) cannot carry Wi-Fi Aware frames; its wiphy lacks: "
                + missing.joined(separator: "; ")
                + ". Check with `iw phy` (look for \"NAN\" under supported interface modes and "
                + "the frame types under supported TX/RX frame types)."
        case .missingAttribute(let command, let attribute):
            return "nl80211 message with command \(command) lacks attribute \(attribute)"
        case .unexpectedCommand(let expected, let actual):
            return "expected an nl80211 message with command \(expected), got command \(actual)"
        case .invalidReply(let reason):
            return "invalid nl80211 reply: \(reason)"
        case .invalidRequest(let reason):
            return "refusing to send an nl80211 request: \(reason)"
        case .kernelRefused(let command, let errno, let message):
            return "the kernel refused nl80211 command \(command): errno \(errno) (\(message))"
        }
    }
}

extension RadioError {
    /// Whether the radio cannot go on after this error (``interfaceDown(name:)``,
    /// ``radioLost(interface:reason:)``): the programs stop with exit status 3 instead of
    /// reporting every refused frame (docs/guides/nl80211.md).
    public var endsTheRadio: Bool {
        switch self {
        case .interfaceDown, .radioLost: true
        default: false
        }
    }
}
