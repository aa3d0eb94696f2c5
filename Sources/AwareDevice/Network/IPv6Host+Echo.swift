import AwareCore
import AwareProtocol
import AwareRadio
import AwareWire

/// One echo request this host sent, and its reply when one came (RFC 4443 4.1, 4.2).
public struct EchoExchange: Hashable, Sendable {
    public var sequence: UInt16
    /// Octets of data the request carried.
    public var size: Int
    /// When the request was handed to the host (before neighbour discovery, if it had to wait):
    /// the round trip is the application's, as `ping` measures it.
    public var sentAt: Instant
    public var repliedAt: Instant?
    /// The TID of the data frame that carried the reply.
    public var replyTID: UInt8?
    /// The reply carried the request's data unchanged (4.2: "the data received in the
    /// ICMPv6 Echo Request message MUST be returned entirely and unmodified").
    public var replyDataMatched: Bool?
    /// FNV-1a of the request's data, to check the reply's without keeping every request.
    var digest: UInt64 = 0

    public var roundTrip: Interval? { repliedAt.map { $0 - sentAt } }
}

extension IPv6Host {
    /// Sends an echo request with `sequence` and `data` to the peer of `link`, in `category`
    /// with that category's DSCP (RFC 8325); the reply is recorded in ``echoes``. false when the
    /// link is not attached or its queue is full.
    @discardableResult
    public func sendEchoRequest(
        on link: DataLinkID,
        sequence: UInt16,
        data: [UInt8],
        category: AccessCategory = .bestEffort
    ) -> Bool {
        guard let peer = interfaces[link]?.peer,
            let packet = icmpPacket(
                .echoRequest(ICMPv6Echo(identifier: echoIdentifier, sequence: sequence, data: data)),
                on: link,
                to: peer,
                trafficClass: DSCP(userPriority: category.tid).trafficClass,
                hopLimit: Self.hopLimit
            )
        else { return false }
        if echoes[link, default: []].count < Self.recordLimit {
            var exchange = EchoExchange(sequence: sequence, size: data.count, sentAt: now)
            exchange.digest = Self.digest(data)
            echoes[link, default: []].append(exchange)
        }
        return send(packet.wireBytes, on: link, category: category)
    }

    /// The Hop Limit of the host's own traffic other than neighbour discovery (Linux's and lwIP's
    /// default; neighbour discovery uses 255, RFC 4861 7.1).
    static let hopLimit: UInt8 = 64

    /// Answers a request with the same identifier, sequence and data (RFC 4443 4.2), from the
    /// host's own address, with the request's Traffic Class and in its access category (the
    /// TID it came in), as Linux reflects it.
    func receivedEchoRequest(_ echo: ICMPv6Echo, _ arrival: Arrival) {
        guard answersEchoRequests, takeEchoToken() else { return }
        guard
            let reply = icmpPacket(
                .echoReply(echo),
                on: arrival.link,
                to: arrival.packet.source,
                trafficClass: arrival.packet.trafficClass,
                hopLimit: Self.hopLimit
            )
        else { return }
        counters.echoRequestsAnswered += 1
        send(reply.wireBytes, on: arrival.link, category: AccessCategory(userPriority: arrival.tid))
    }

    /// Whether the echo reply limit (if any) lets one more reply go now.
    private func takeEchoToken() -> Bool {
        guard let limit = echoReplyLimit() else { return true }
        let capacity = Double(max(1, limit.burst))
        var (count, at) = echoTokens ?? (capacity, now)
        count = min(capacity, count + (now - at).seconds * limit.perSecond)
        at = now
        guard count >= 1 else {
            echoTokens = (count, at)
            return false
        }
        echoTokens = (count - 1, at)
        return true
    }

    /// Matches a reply to the request with its identifier and sequence; the first reply counts.
    func receivedEchoReply(_ echo: ICMPv6Echo, _ arrival: Arrival) {
        guard echo.identifier == echoIdentifier,
            let index = echoes[arrival.link]?.lastIndex(where: { $0.sequence == echo.sequence }),
            var exchange = echoes[arrival.link]?[index], exchange.repliedAt == nil
        else {
            counters.unexpectedEchoReplies += 1
            return
        }
        exchange.repliedAt = now
        exchange.replyTID = arrival.tid
        exchange.replyDataMatched = echo.data.count == exchange.size && Self.digest(echo.data) == exchange.digest
        echoes[arrival.link]?[index] = exchange
        echoReplyObserver?(arrival.link, exchange)
    }

    /// FNV-1a, 64 bits: enough to tell altered echo data from the original.
    static func digest(_ data: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for octet in data {
            hash ^= UInt64(octet)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
