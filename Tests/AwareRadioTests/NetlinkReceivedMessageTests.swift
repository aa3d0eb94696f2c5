import AwareTestSupport
import Testing

@testable import AwareRadio

/// Datagrams as the kernel delivers them: several messages back to back, acknowledgements and
/// errors (`struct nlmsgerr`), dump ends, and damage anywhere.
@Suite struct NetlinkReceivedMessageTests {
    /// NLMSG_ERROR (type 2, flags NLM_F_CAPPED 0x100) for seq 5: error 0 = ACK, then the
    /// request's 16-octet header.
    static let acknowledgement = hex("24000000 02000001 05000000 2a000000 00000000 1c000000 1c000500 05000000 2a000000")
    /// The same with error -95 (EOPNOTSUPP).
    static let refusal = hex("24000000 02000001 05000000 2a000000 a1ffffff 1c000000 1c000500 05000000 2a000000")

    @Test func splitsAcknowledgementsRefusalsAndDumpEnds() throws {
        #expect(try NetlinkReceivedMessage.messages(in: Self.acknowledgement) == [.error(code: 0, sequence: 5)])
        #expect(try NetlinkReceivedMessage.messages(in: Self.refusal) == [.error(code: -95, sequence: 5)])
        let reply = try GenericNetlinkMessage(parsing: KernelMessages.newInterface)
        #expect(
            try NetlinkReceivedMessage.messages(in: KernelMessages.newInterface + Self.acknowledgement)
                == [.generic(reply), .error(code: 0, sequence: 5)]
        )
        // NLMSG_NOOP (1) is skipped; a message whose length is not a multiple of 4 is padded.
        let noop = hex("10000000 01000000 00000000 00000000")
        #expect(try NetlinkReceivedMessage.messages(in: noop + KernelMessages.done) == [.done(sequence: 9)])
        #expect(try NetlinkReceivedMessage.messages(in: []) == [])
    }

    @Test func errorsSayWhereInTheDatagram() {
        let first = KernelMessages.newInterface  // 80 octets
        // Second message's nlmsg_len claims more than is left.
        var long = KernelMessages.done
        long[0] = 0x40
        #expect(
            throws: RadioError.malformedMessage(reason: "nlmsg_len 64 does not fit the 20 octets left", offset: 80)
        ) { try NetlinkReceivedMessage.messages(in: first + long) }
        // Fewer octets than a header after the first message.
        #expect(
            throws: RadioError.malformedMessage(reason: "10 octets cannot hold a netlink header", offset: 80)
        ) { try NetlinkReceivedMessage.messages(in: first + [UInt8](repeating: 0, count: 10)) }
        // nlmsg_len below the header itself.
        var short = KernelMessages.done
        short[0] = 0x08
        #expect(
            throws: RadioError.malformedMessage(reason: "nlmsg_len 8 does not fit the 20 octets left", offset: 0)
        ) { try NetlinkReceivedMessage.messages(in: short) }
        // An attribute inside the second message that overruns it: the IFNAME attribute at
        // offset 28 of the interface reply claims 0x40 octets; offsets count from the datagram.
        var damaged = first
        damaged[28] = 0x40
        #expect(
            throws: RadioError.malformedMessage(reason: "52 octets do not form a complete attribute", offset: 80 + 28)
        ) { try NetlinkReceivedMessage.messages(in: first + damaged) }
        // An NLMSG_ERROR too short to hold its error code.
        #expect(
            throws: RadioError.malformedMessage(reason: "NLMSG_ERROR without an error code", offset: 0)
        ) { try NetlinkReceivedMessage.messages(in: hex("12000000 02000000 05000000 00000000 0000")) }
    }

    /// Every single-octet change and every truncation of real replies and events: the parsers
    /// either produce values or throw a typed error whose offset lies inside the datagram; they
    /// never trap (a trap would end this test process).
    @Test func mutatedDatagramsNeverTrap() {
        let samples = [
            KernelMessages.wiphyPart1 + KernelMessages.wiphyPart2 + KernelMessages.done, KernelMessages.frameEvent,
            KernelMessages.transmitStatus, KernelMessages.nanMatch, KernelMessages.nanTerminated,
            KernelMessages.newInterface + Self.acknowledgement,
        ]
        var parsed = 0
        var refused = 0
        for sample in samples {
            var variants: [[UInt8]] = (0..<sample.count).map { Array(sample.prefix($0)) }
            for index in sample.indices {
                for replacement: UInt8 in [0x00, 0xff, sample[index] &+ 1, sample[index] &- 4, sample[index] ^ 0x80] {
                    var mutated = sample
                    mutated[index] = replacement
                    variants.append(mutated)
                }
            }
            for variant in variants {
                do throws(RadioError) {
                    let messages = try NetlinkReceivedMessage.messages(in: variant)
                    for case .generic(let message) in messages {
                        _ = try? NL80211Event(message)
                        _ = try? NL80211Interface(reply: message)
                        _ = try? NL80211Wiphy(dump: [message])
                    }
                    parsed += 1
                } catch .malformedMessage(_, let offset) {
                    #expect(offset >= 0 && offset <= variant.count, "offset \(offset) outside \(variant.count)")
                    refused += 1
                } catch .netlink(let operation, _, _) {
                    // genlmsg_parse's own validation, for lengths libnl rejects first.
                    #expect(operation == "genlmsg_parse")
                    refused += 1
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
        }
        // Both outcomes occur: the mutations reach past the length checks into the attributes.
        #expect(parsed > 1000)
        #expect(refused > 1000)
    }
}
