import AwareCore
import CNetlink
import Glibc
import Logging

/// A generic netlink socket (libnl `struct nl_sock`) for talking to nl80211: the I/O edge of
/// the radio. It resolves families and their multicast groups (``GenericNetlinkFamily``; and
/// tells plainly when the kernel has no nl80211 at all, as on the build VM, where the
/// controller answers ENOENT for it, platform-notes.md 1.5), sends ``NL80211Request``s and reads datagrams; building and
/// parsing the messages is value code (``GenericNetlinkMessage``, ``NetlinkReceivedMessage``).
///
/// `@unchecked Sendable` so it can be handed to the thread that uses it: a libnl socket must
/// not be used from two threads at once, and the radio never does. It keeps one socket for
/// commands (its scheduler's thread) and one for events (set up first, then read only by its
/// reader thread); only ``shutdown()`` is called from elsewhere, and it is a plain syscall.
public final class NL80211Socket: @unchecked Sendable {
    private let socket: OpaquePointer
    /// Messages that arrived while waiting for a reply but belong to no request (events on a
    /// socket that also sends requests), in arrival order.
    public private(set) var unsolicited: [GenericNetlinkMessage] = []

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
        // A wiphy dump part can exceed a page: peek at each datagram's size before reading it,
        // and give the kernel room for bursts of frame events.
        nl_socket_enable_msg_peek(socket)
        _ = nl_socket_set_buffer_size(socket, 1 << 20, 0)
        return NL80211Socket(socket: socket)
    }

    /// Sends `request` and returns the messages that answer it: the reply (or, for a dump,
    /// every part) once the kernel acknowledges or ends the dump. A refusal throws
    /// ``RadioError/kernelRefused(command:errno:message:)``.
    public func perform(_ request: NL80211Request) throws(RadioError) -> [GenericNetlinkMessage] {
        var message = request.message
        message.sequence = nl_socket_use_seq(socket)
        message.portID = nl_socket_get_local_port(socket)
        let bytes = try message.serialized()
        let sent = bytes.withUnsafeBytes {
            nl_sendto(socket, UnsafeMutableRawPointer(mutating: $0.baseAddress), $0.count)
        }
        guard sent >= 0 else {
            throw RadioError.netlink(operation: "nl_sendto", code: sent, message: NetlinkMessage.text(sent))
        }
        var replies: [GenericNetlinkMessage] = []
        while true {
            for received in try receive() {
                switch received {
                case .generic(let reply) where reply.sequence == message.sequence:
                    replies.append(reply)
                case .generic(let other):
                    unsolicited.append(other)
                case .error(let code, let sequence) where sequence == message.sequence:
                    guard code == 0 else {
                        throw RadioError.kernelRefused(
                            command: message.command,
                            errno: -code,
                            message: String(cString: strerror(-code))
                        )
                    }
                    if !request.isDump { return replies }
                case .done(let sequence) where sequence == message.sequence:
                    return replies
                case .error, .done:
                    continue
                }
            }
        }
    }

    /// Blocks for the next datagram and returns its messages. Returns an empty list when the
    /// socket has ended; throws `nl_recv`'s error, `-NLE_AGAIN`, when a receive timeout passed.
    public func receive() throws(RadioError) -> [NetlinkReceivedMessage] {
        var address = sockaddr_nl()
        var buffer: UnsafeMutablePointer<UInt8>?
        let count = nl_recv(socket, &address, &buffer, nil)
        defer { free(buffer) }
        guard count > 0, let buffer else {
            if count == 0 || count == -NLE_BAD_SOCK { return [] }
            throw RadioError.netlink(operation: "nl_recv", code: count, message: NetlinkMessage.text(count))
        }
        return try NetlinkReceivedMessage.messages(in: Array(UnsafeBufferPointer(start: buffer, count: Int(count))))
    }

    /// The netlink conversation with the kernel, for `--log-level debug` when a radio misbehaves.
    static let logger = Logger(label: "awarebench.nl80211")

    /// Joins the multicast group `name` of `family` ("mlme" of nl80211 for frame TX status and
    /// remain-on-channel events, "nan" for NAN matches and terminations), by the ID the
    /// controller gave (``family(named:)``); a group the family does not have is
    /// ``RadioError/familyNotFound(name:)`` with the group's name.
    public func join(multicastGroup name: String, of family: GenericNetlinkFamily) throws(RadioError) {
        guard let group = family.multicastGroups[name], let id = Int32(exactly: group) else {
            throw RadioError.multicastGroupNotFound(
                family: family.name,
                group: name,
                available: family.multicastGroups.keys.sorted()
            )
        }
        NL80211Socket.logger.debug(
            "joining an nl80211 multicast group",
            metadata: ["group": "\(name)", "id": "\(id)"]
        )
        let code = nl_socket_add_membership(socket, id)
        guard code >= 0 else {
            throw RadioError.netlink(
                operation: "nl_socket_add_membership",
                code: code,
                message: NetlinkMessage.text(code)
            )
        }
    }

    /// Makes ``receive()`` give up after `seconds` (`SO_RCVTIMEO`), so a kernel that never
    /// answers a request cannot hang the thread that asked: ``perform(_:)`` then throws
    /// `nl_recv`'s error. The event socket keeps blocking; the command socket uses this.
    public func setReceiveTimeout(seconds: Int) throws(RadioError) {
        try setReceiveTimeout(milliseconds: seconds * 1000)
    }

    /// ``setReceiveTimeout(seconds:)`` at millisecond resolution: the event socket wakes this
    /// often to see whether the radio was closed, since netlink sockets ignore `shutdown(2)`.
    public func setReceiveTimeout(milliseconds: Int) throws(RadioError) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        let code = setsockopt(
            nl_socket_get_fd(socket),
            SOL_SOCKET,
            SO_RCVTIMEO,
            &timeout,
            socklen_t(MemoryLayout<timeval>.size)
        )
        guard code == 0 else {
            throw RadioError.netlink(
                operation: "setsockopt(SO_RCVTIMEO)",
                code: -errno,
                message: String(cString: strerror(errno))
            )
        }
    }

    /// Takes the messages collected in ``unsolicited``.
    public func takeUnsolicited() -> [GenericNetlinkMessage] {
        defer { unsolicited = [] }
        return unsolicited
    }

    /// Closes the socket's descriptor: the kernel drops what belongs to it (frame registrations,
    /// socket-owned interfaces, multicast memberships). No thread may be using it; later calls
    /// fail as on a closed socket. Freeing the socket afterwards is safe (`nl_close` marks it).
    public func close() {
        nl_close(socket)
    }

    /// Asks the kernel to wake a thread blocked in ``receive()``; safe from another thread. Netlink
    /// sockets do not implement `shutdown(2)` (`sock_no_shutdown`), so a reader must not rely on
    /// it: ``NL80211Radio`` gives its event socket a receive timeout and looks at its own state.
    public func shutdown() {
        _ = Glibc.shutdown(nl_socket_get_fd(socket), Int32(SHUT_RDWR))
    }

    /// Gives the network interface `name` the MAC address `address`: down, set (most drivers,
    /// mac80211 among them, refuse while it is up), up again (netdevice(7): `SIOCSIFFLAGS`,
    /// `SIOCSIFHWADDR`). Needs CAP_NET_ADMIN. Listening on it starts afresh afterwards.
    public static func setAddress(of name: String, to address: MACAddress) throws(RadioError) {
        func check(_ code: Int32, _ operation: String) throws(RadioError) {
            guard code < 0 else { return }
            throw RadioError.netlink(
                operation: "\(operation) on \(name)",
                code: code,
                message: String(cString: strerror(-code))
            )
        }
        try check(cnl_link_set_up(name, 0), "SIOCSIFFLAGS (down)")
        let octets = address.octets
        try check(octets.withUnsafeBufferPointer { cnl_link_set_address(name, $0.baseAddress) }, "SIOCSIFHWADDR")
        try check(cnl_link_set_up(name, 1), "SIOCSIFFLAGS (up)")
    }

    /// The index of the network interface `name`, or ``RadioError/interfaceNotFound(name:)``.
    public static func interfaceIndex(named name: String) throws(RadioError) -> UInt32 {
        let index = if_nametoindex(name)
        guard index != 0 else { throw RadioError.interfaceNotFound(name: name) }
        return index
    }

    /// nl80211 as the controller describes it, or `RadioError.nl80211Unavailable` when the
    /// kernel has none.
    public func resolveNL80211() throws(RadioError) -> GenericNetlinkFamily {
        try family(named: NL80211Constants.familyName)
    }

    /// Whether `error` says the kernel dropped messages for this socket because its receive
    /// buffer was full (ENOBUFS, which libnl reports as `-NLE_NOMEM`): the socket goes on working.
    public static func isOverrun(_ error: RadioError) -> Bool {
        if case .netlink("nl_recv", let code, _) = error { return code == -NLE_NOMEM }
        return false
    }

    /// Whether `error` is a receive timeout passing (``setReceiveTimeout(milliseconds:)``).
    public static func isTimeout(_ error: RadioError) -> Bool {
        if case .netlink("nl_recv", let code, _) = error { return code == -NLE_AGAIN }
        return false
    }

    /// The ID of the generic netlink family `name`.
    public func resolveFamily(named name: String) throws(RadioError) -> UInt16 {
        try family(named: name).id
    }

    /// The family `name` with its multicast groups (`CTRL_CMD_GETFAMILY` through
    /// ``perform(_:)``, ``GenericNetlinkFamily``). The controller answers ENOENT for a family it
    /// does not have, EINVAL for a name longer than a family name can be: not finding
    /// "nl80211" is reported as `nl80211Unavailable`, another family as `familyNotFound`.
    public func family(named name: String) throws(RadioError) -> GenericNetlinkFamily {
        let replies: [GenericNetlinkMessage]
        do {
            replies = try perform(GenericNetlinkFamily.request(name: name))
        } catch .kernelRefused(let command, let errno, let message) where errno == Self.noEntry || errno == Self.invalid
        {
            guard name == NL80211Constants.familyName else { throw RadioError.familyNotFound(name: name) }
            throw RadioError.nl80211Unavailable(
                reason: "the generic netlink controller has no family \"\(name)\" (CTRL_CMD_GETFAMILY "
                    + "\(command) answered errno \(errno), \(message))"
            )
        }
        guard let reply = replies.first else {
            throw RadioError.invalidReply("no reply to CTRL_CMD_GETFAMILY for \"\(name)\"")
        }
        let family = try GenericNetlinkFamily(reply: reply)
        guard family.id > 0 else {
            throw RadioError.malformedMessage(reason: "the kernel returned family ID 0 for \"\(name)\"", offset: 0)
        }
        return family
    }

    /// ENOENT and EINVAL (`asm-generic/errno-base.h`).
    static let noEntry: Int32 = 2
    static let invalid: Int32 = 22
}

// MARK: - NL80211Transport

/// How the radio reaches the kernel: send one request, get the messages that answer it.
/// ``NL80211Socket`` is the real one; tests stand in a scripted kernel, so that the radio's
/// setup sequence and its frame handling run without cfg80211.
protocol NL80211Transport: AnyObject {
    func perform(_ request: NL80211Request) throws(RadioError) -> [GenericNetlinkMessage]
}

extension NL80211Socket: NL80211Transport {}
