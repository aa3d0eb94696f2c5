import Testing

@testable import AwareWire

@Suite struct ServiceNameTests {
    @Test func acceptsApplesExamples() throws {
        let udp = try ServiceName("_drone-service._udp")
        #expect(udp.name == "drone-service")
        #expect(udp.transportProtocol == .udp)
        #expect(udp.string == "_drone-service._udp")
        #expect(try ServiceName("_example-service._tcp").transportProtocol == .tcp)
        #expect(try ServiceName("_a._tcp").name == "a")
        #expect(try ServiceName("_123456789abcdef._udp").name.count == 15)
        #expect(try ServiceName("_a--b._tcp").name == "a--b")
    }

    @Test func rejectsEachRule() {
        #expect(throws: ServiceNameError.missingLeadingUnderscore) { try ServiceName("drone._udp") }
        #expect(throws: ServiceNameError.missingProtocolSuffix) { try ServiceName("_drone._sctp") }
        #expect(throws: ServiceNameError.missingProtocolSuffix) { try ServiceName("_drone.udp") }
        #expect(throws: ServiceNameError.emptyName) { try ServiceName("_._tcp") }
        #expect(throws: ServiceNameError.invalidCharacter("_")) { try ServiceName("_drone_service._udp") }
        #expect(throws: ServiceNameError.invalidCharacter(".")) { try ServiceName("_a.b._udp") }
        #expect(throws: ServiceNameError.invalidCharacter("é")) { try ServiceName("_café._tcp") }
        #expect(throws: ServiceNameError.nameTooLong(characters: 16)) { try ServiceName("_123456789abcdefg._udp") }
        #expect(throws: ServiceNameError.noLetter) { try ServiceName("_1234._tcp") }
        #expect(throws: ServiceNameError.hyphenAtEdge) { try ServiceName("_-drone._tcp") }
        #expect(throws: ServiceNameError.hyphenAtEdge) { try ServiceName("_drone-._tcp") }
    }

    @Test func messagesAreTheRuleInPlainWords() {
        #expect(ServiceNameError.invalidCharacter("_").description == "only letters, digits and hyphens are allowed")
        #expect(
            ServiceNameError.nameTooLong(characters: 16).description
                == "the name has 16 characters; at most 15 are allowed"
        )
    }
}
