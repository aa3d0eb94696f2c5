import AwareCore
import AwareWire
import Testing

@Suite struct ControlMessageTests {
    @Test func startStreamGoldenBytes() throws {
        // 03 | 50 Hz = 50 000 mHz = 00 00 c3 50 | 128 octets = 00 80 | 5 000 ms = 00 00 13 88 |
        // TID 5 | reliable 0
        let bytes = HexString.decode("030000c3500080000013880500")!
        let message = try ControlMessage(payload: bytes)
        #expect(
            message
                == .startStream(
                    .init(rateMillihertz: 50_000, payloadOctets: 128, durationMilliseconds: 5_000, tid: 5)
                )
        )
        #expect(message.wireBytes == bytes)
    }

    @Test func ownServiceClassIsTIDFF() throws {
        let request = ControlMessage.StreamRequest(rateMillihertz: 1, payloadOctets: 1, durationMilliseconds: 1)
        #expect(ControlMessage.startStream(request).wireBytes.suffix(2) == [0xFF, 0x00])
    }

    @Test func roundTripsEveryOperation() throws {
        let messages: [ControlMessage] = [
            .ping([1, 2]), .pong([]), .streamStarted(flowID: 0x0102), .stopStream, .streamStopped(datagramsSent: 7),
            .reportRequest, .report("{\"a\":1}"), .refused("no stream"),
        ]
        for message in messages { #expect(try ControlMessage(payload: message.wireBytes) == message) }
        #expect(ControlMessage.streamStarted(flowID: 0x0102).wireBytes == [0x04, 0x01, 0x02])
        #expect(ControlMessage.streamStopped(datagramsSent: 7).wireBytes == [0x06, 0, 0, 0, 7])
    }

    @Test func malformedInputsNameTheField() {
        #expect(throws: WireError.self) { try ControlMessage(payload: []) }
        do {
            _ = try ControlMessage(payload: [0x7F])
            Issue.record("unknown operation accepted")
        } catch {
            #expect(error.field == "Operation")
            #expect(error.offset == 0)
        }
        do {
            _ = try ControlMessage(payload: HexString.decode("030000c3500080000013880902")!)
            Issue.record("TID 9 accepted")
        } catch {
            #expect(error.field == "TID")
        }
        do {
            _ = try ControlMessage(payload: [0x04, 0x01])
            Issue.record("short flow ID accepted")
        } catch {
            #expect(error.field == "Flow ID")
        }
        #expect(throws: WireError.self) { try ControlMessage(payload: [0x06, 0, 0, 0, 7, 9]) }
    }
}
