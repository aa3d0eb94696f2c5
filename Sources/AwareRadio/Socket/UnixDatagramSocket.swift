import AwareCore
import AwareWire
import Foundation
import Glibc

/// A bound `AF_UNIX` / `SOCK_DGRAM` socket: datagrams keep their boundaries, need no
/// connection, no root and no port number, and the sender's bound path arrives with each
/// one, so a reply needs no lookup.
///
/// `@unchecked Sendable`: the descriptor is immutable and the kernel serialises the calls
/// made on it; the reader thread receives while the scheduler thread sends. `isClosed`
/// sits behind `lock`.
final class UnixDatagramSocket: @unchecked Sendable {
    /// The largest sun_path, without its terminating NUL (`struct sockaddr_un`, unix(7)).
    static let maximumPathLength = 107
    /// Room for any 802.11 frame (at most 2,346 octets) with the header, and then some.
    static let receiveBufferSize = 65_536

    enum SendResult: Equatable {
        case sent
        /// Nobody is bound to the file: its process died without unlinking it.
        case refused
        /// The file vanished since the directory was listed.
        case missing
        /// The receiver's queue was full (and stayed full for the send timeout, when waiting).
        case busy
        /// This socket's own send buffer is full: every datagram sent and not yet read by its
        /// receiver is charged to the sender (unix(7)), so peers that never read can fill it, and
        /// then nothing goes anywhere until they read or close.
        case sendBufferFull
        case failed(Int32)
    }

    struct Received {
        var bytes: [UInt8]
        /// The sender's bound path as raw sun_path octets; empty for an unbound sender.
        var source: [UInt8]
        /// The datagram was longer than the buffer and was cut.
        var truncated: Bool
    }

    let path: String
    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false

    /// Creates the socket, binds it to `path` and makes the file 0600.
    /// `sendBuffer`: the send buffer asked for; tests ask for less, to fill it.
    init(bindingTo path: String, sendTimeout: Interval, sendBuffer: Int32 = preferredSendBuffer) throws(AirError) {
        guard path.utf8.count <= Self.maximumPathLength else {
            throw .unavailable("socket path \(path) is longer than a Unix socket path may be (107 bytes)")
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            throw .unavailable("cannot create a Unix datagram socket: \(Self.errorText(errno))")
        }
        var address = Self.address(Array(path.utf8))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw .unavailable("cannot bind the socket air socket \(path): \(Self.errorText(code))")
        }
        chmod(path, 0o600)
        // A full receive queue (net.unix.max_dgram_qlen, often 10) makes a blocking sendto wait;
        // cap the wait so a stopped peer (Ctrl-Z) costs a lost datagram, not a stuck thread.
        // Sends that must not wait at all pass MSG_DONTWAIT (``send(_:to:waiting:)``).
        var timeout = timeval(
            tv_sec: Int(sendTimeout.nanoseconds / 1_000_000_000),
            tv_usec: Int(sendTimeout.nanoseconds % 1_000_000_000 / 1_000)
        )
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The datagrams waiting unread in receivers' queues count against this socket's send
        // buffer (about 1.3 KB each for a short frame; Linux charges an skb's truesize). With the
        // default 208 KB, 16 peers that never read (11 datagrams each) leave no room for anyone.
        // Ask for 8 MiB: root gets it (SO_SNDBUFFORCE, CAP_NET_ADMIN); others get what
        // net.core.wmem_max allows, doubled by the kernel (socket(7)).
        var size = sendBuffer
        if setsockopt(descriptor, SOL_SOCKET, Self.soSndbufForce, &size, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        self.descriptor = descriptor
        self.path = path
    }

    var isClosed: Bool { lock.withLock { closed } }

    /// Sends one datagram. `waiting`: on a full receiver queue, wait up to the send timeout for
    /// room; otherwise give up at once (`MSG_DONTWAIT`), as a radio does not wait for a receiver.
    func send(_ bytes: [UInt8], to destination: [UInt8], waiting: Bool = true) -> SendResult {
        var address = Self.address(destination)
        // Filesystem paths are passed with their NUL; abstract names (leading NUL) are exact.
        let pathLength = destination.first == 0 ? destination.count : destination.count + 1
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(
                        descriptor,
                        buffer.baseAddress,
                        buffer.count,
                        Int32(MSG_NOSIGNAL) | (waiting ? 0 : Int32(MSG_DONTWAIT)),
                        $0,
                        socklen_t(MemoryLayout<sa_family_t>.size + min(pathLength, Self.maximumPathLength + 1))
                    )
                }
            }
        }
        if sent >= 0 { return .sent }
        switch errno {
        case ECONNREFUSED: return .refused
        case ENOENT: return .missing
        case EAGAIN, EWOULDBLOCK:
            // No room for this datagram's charge (its length and an skb's overhead) means the
            // buffer, not the receiver, is full.
            return queuedOctets + bytes.count + Self.datagramOverhead >= sendBufferSize ? .sendBufferFull : .busy
        case let code: return .failed(code)
        }
    }

    /// 8 MiB: room for about 6,500 short datagrams waiting in receivers' queues.
    static let preferredSendBuffer: Int32 = 8 << 20
    /// SO_SNDBUFFORCE from <asm-generic/socket.h>; Glibc's module does not export it.
    static let soSndbufForce: Int32 = 32
    /// What a datagram is charged beyond its length (struct sk_buff and skb_shared_info, and
    /// alignment), rounded up: a 300-octet datagram measured 1,280.
    static let datagramOverhead = 2_048
    /// SIOCOUTQ (= TIOCOUTQ, <asm-generic/ioctls.h>).
    static let siocOutq: UInt = 0x5411

    /// The send buffer the kernel granted (``preferredSendBuffer`` or less).
    var sendBufferSize: Int {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0 ? Int(size) : 0
    }

    /// Octets charged to this socket for datagrams its receivers have not read (SIOCOUTQ, unix(7)).
    var queuedOctets: Int {
        var octets: Int32 = 0
        return ioctl(descriptor, Self.siocOutq, &octets) == 0 ? Int(octets) : 0
    }

    /// Blocks for the next datagram; nil once ``shutdown()`` was called. `buffer` is the
    /// reader's own, reused for every datagram (its size is the largest datagram taken).
    func receive(into buffer: inout [UInt8]) -> Received? {
        while true {
            var address = sockaddr_un()
            var addressLength = socklen_t(MemoryLayout<sockaddr_un>.size)
            let count = buffer.withUnsafeMutableBytes { raw in
                withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, raw.baseAddress, raw.count, Int32(MSG_TRUNC), $0, &addressLength)
                    }
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if isClosed { return nil }
            return Received(
                bytes: Array(buffer[0..<min(count, buffer.count)]),
                source: Self.pathOctets(of: address, length: Int(addressLength)),
                truncated: count > buffer.count
            )
        }
    }

    /// Waits up to `milliseconds` for a datagram to read; false on time-out (or shutdown).
    func waitReadable(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0 && !isClosed
    }

    /// Wakes a thread blocked in ``receive()`` and makes later calls return nil.
    func shutdown() {
        lock.withLock { closed = true }
        // SHUT_RDWR is 2 (<sys/socket.h>); spelled out because in a release build the constant is
        // imported through CNetlink's headers, which this file does not import.
        _ = Glibc.shutdown(descriptor, 2)
    }

    /// Closes the descriptor; only after the reader thread has left ``receive()``.
    func close() {
        Glibc.close(descriptor)
    }

    private static func address(_ path: [UInt8]) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, octet) in path.prefix(maximumPathLength).enumerated() { raw[index] = octet }
        }
        return address
    }

    private static func pathOctets(of address: sockaddr_un, length: Int) -> [UInt8] {
        let pathLength = length - MemoryLayout<sa_family_t>.size
        guard pathLength > 0 else { return [] }
        var octets = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(min(pathLength, maximumPathLength))) }
        // Filesystem paths end at the first NUL; abstract addresses (leading NUL) are kept.
        if octets.first != 0, let end = octets.firstIndex(of: 0) { octets.removeSubrange(end...) }
        return octets
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
