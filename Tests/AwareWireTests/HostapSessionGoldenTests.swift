import AwareCore
import Foundation
import Testing

@testable import AwareWire

/// Whole-session golden tests: every frame and attribute of hostap session A decodes into
/// typed values, and those values equal the ones transcript.json records
/// (Fixtures/hostap-session-A/README.md).
@Suite struct HostapSessionGoldenTests {
    @Test func everyAttributeIsTypedAndEveryFrameReserializes() throws {
        let session = try GoldenSession()
        #expect(session.frames.count == 37)
        var attributes = 0
        for number in 1...session.frames.count {
            #expect(session.frames[number - 1].wireBytes == session.records[number - 1].frame, "frame \(number)")
            for attribute in session.attributes(ofFrame: number) {
                attributes += 1
                if case .unknown(let id, _) = attribute {
                    Issue.record("frame \(number): \(id) is not typed")
                }
                #expect(attribute.body != nil, "frame \(number): \(attribute.id)")
            }
        }
        // 27 SDFs, 4 NAFs and 6 PASN frames: the sum of transcript.json's attribute lists.
        #expect(attributes == 205 + 15)
    }

    @Test func attributeIDsMatchTheTranscriptFrameByFrame() throws {
        let session = try GoldenSession()
        var frames = 0
        for (index, row) in session.rows.enumerated() {
            let number = index + 1
            let decoded = session.attributes(ofFrame: number)
            if let names = row["nan_attributes"] as? [String] {
                let ids = names.map { GoldenSession.attributeIDs[$0] }
                #expect(!ids.contains(nil), "frame \(number): unmapped name in \(names)")
                #expect(decoded.map(\.id.rawValue) == ids.compactMap { $0 }, "frame \(number)")
                frames += 1
            }
            guard let elements = row["elements"] as? [[String: Any]] else { continue }
            let pasn = try #require(session.pasn(number), "frame \(number)")
            let described = elements.compactMap { $0["nan_attributes"] as? [[String: String]] }
            #expect(described.count == 1, "frame \(number): one NAN element")
            let expected = described.flatMap { $0 }
            let nanAttributes = pasn.nanElement?.attributes ?? []
            #expect(nanAttributes.count == expected.count, "frame \(number)")
            for (attribute, want) in zip(nanAttributes, expected) {
                let id = want["id"].flatMap { UInt8($0.dropFirst(2), radix: 16) }
                #expect(attribute.id.rawValue == id, "frame \(number) \(want["name"] ?? "")")
                #expect(GoldenSession.attributeIDs[want["name"] ?? ""] == id, "frame \(number)")
                let body = HexString.encode(attribute.wireBytes.dropFirst(3))
                #expect(body == want["body"], "frame \(number) \(want["name"] ?? "")")
            }
            frames += 1
        }
        #expect(frames == 37)
    }

    /// Every value transcript.json says is on the wire is a decoded field (or a run of
    /// adjacent decoded fields) of the frame it names, as often as the transcript lists it.
    @Test func wireLocationsArePinnedToDecodedFields() throws {
        let session = try GoldenSession()
        let entries = try #require(session.transcript["wire_locations"] as? [[String: Any]])
        var checked = 0
        for entry in entries {
            let name = try #require(entry["value"] as? String)
            let value = try #require(session.wireValue(name), "\(name) not in transcript.json")
            #expect(value.count == entry["length"] as? Int, "\(name)")
            let occurrences = try #require(entry["occurrences"] as? [[String: Int]])
            let perFrame = Dictionary(grouping: occurrences.compactMap { $0["frame"] }, by: { $0 })
            for occurrence in occurrences {
                let number = try #require(occurrence["frame"])
                let offset = try #require(occurrence["offset"])
                let octets = session.records[number - 1].frame
                #expect(Array(octets.dropFirst(offset).prefix(value.count)) == value, "\(name) at \(number)/\(offset)")
            }
            for (number, listed) in perFrame {
                let fields = session.frames[number - 1].decodedFields
                let found = DecodedOctetSearch.count(value, in: fields)
                #expect(found == listed.count, "\(name) in frame \(number): \(found) decoded, \(listed.count) listed")
                checked += min(found, listed.count)
            }
        }
        #expect(entries.count == 28)
        #expect(checked == 57)
    }

    @Test func searchRuleFindsRunsAndRejectsNearMisses() {
        let fields = [
            DecodedField("sendConfirm", "Send-Confirm", .unsigned(1)),
            DecodedField("confirm", "Confirm", .bytes([0xAA, 0xBB])),
            DecodedField("empty", "Empty", .bytes([])),
            DecodedField("list", "List", .list([.bytes([0xAA, 0xBB]), .bytes([0xCC])])),
        ]
        #expect(DecodedOctetSearch.count([0x01, 0x00, 0xAA, 0xBB], in: fields) == 1)
        #expect(DecodedOctetSearch.count([0xAA, 0xBB], in: fields) == 2)
        #expect(DecodedOctetSearch.count([0x01, 0x00, 0xAA], in: fields) == 0)
        #expect(DecodedOctetSearch.count([0xBB, 0xCC], in: fields) == 0)
    }

    @Test func saeWrappedDataOfFrames14To16MatchesTheTranscript() throws {
        let session = try GoldenSession()
        func wrapped(_ number: Int) throws -> (PASNWrappedSAE, [UInt8]) {
            let pasn = try #require(session.pasn(number), "frame \(number)")
            #expect(pasn.pasnParameters?.wrappedDataFormat == .sae, "frame \(number)")
            let data = try #require(pasn.wrappedData?.data, "frame \(number)")
            var reader = WireReader(data, structure: "frame \(number) wrapped data")
            let sae = try PASNWrappedSAE(from: &reader, pasnSequence: pasn.transactionSequence)
            #expect(reader.isAtEnd)
            var writer = WireWriter()
            sae.write(to: &writer)
            #expect(writer.bytes == data, "frame \(number) wrapped data does not re-serialize")
            return (sae, data)
        }
        func expectCommit(_ message: SAEAuthentication, _ side: String) {
            #expect(message.algorithm == 3 && message.transactionSequence == 1 && message.status == 126, "\(side)")
            guard case .commit(let commit) = message.message else {
                Issue.record("\(side): not a commit")
                return
            }
            #expect(commit.group == .p256)
            #expect(commit.scalar == session.hex("pairing.sae.\(side).commit_scalar"), "\(side)")
            #expect(commit.element == session.wireValue("pairing.sae.\(side).commit_element"), "\(side)")
            #expect(commit.trailing.isEmpty, "\(side)")
        }
        func expectConfirm(_ message: SAEAuthentication, _ side: String) {
            #expect(message.algorithm == 3 && message.transactionSequence == 2 && message.status == 0, "\(side)")
            guard case .confirm(let confirm) = message.message else {
                Issue.record("\(side): not a confirm")
                return
            }
            #expect(Int(confirm.sendConfirm) == session.int("pairing.sae.\(side).send_confirm"), "\(side)")
            #expect(confirm.confirm == session.hex("pairing.sae.\(side).confirm"), "\(side)")
        }
        #expect(session.int("pairing.sae.phone.send_confirm") == 1)

        let (frame1, data1) = try wrapped(14)
        #expect(data1.count == 2 + 2 + 2 + 2 + 32 + 64)
        if case .frame1(let commit) = frame1 { expectCommit(commit, "phone") } else { Issue.record("frame 14") }
        let (frame2, data2) = try wrapped(15)
        #expect(data2.count == 2 + 104 + 2 + 40)
        if case .frame2(let commit, let confirm) = frame2 {
            expectCommit(commit, "accessory")
            expectConfirm(confirm, "accessory")
        } else {
            Issue.record("frame 15")
        }
        let (frame3, data3) = try wrapped(16)
        #expect(data3.count == 6 + 2 + 32)
        if case .frame3(let confirm) = frame3 { expectConfirm(confirm, "phone") } else { Issue.record("frame 16") }

        // Verification runs on the cached NPK: no SAE, no Wrapped Data (README subtlety 16).
        for number in 35...37 {
            let pasn = try #require(session.pasn(number), "frame \(number)")
            #expect(pasn.wrappedData == nil, "frame \(number)")
            #expect(pasn.pasnParameters?.wrappedDataFormat == .noWrappedData, "frame \(number)")
        }
    }

    @Test func pasnValuesMatchTheTranscript() throws {
        let session = try GoldenSession()
        let cases: [(frame: Int, pmkid: String?, key: String, mic: String?)] = [
            (14, nil, "pairing.pasn.phone_ephemeral", nil),
            (15, "pairing.sae.pmkid", "pairing.pasn.accessory_ephemeral", "pairing.pasn.mic_frame2.value"),
            (16, nil, "", "pairing.pasn.mic_frame3.value"),
            (35, "verification.phone_npkid.npkid", "verification.phone_ephemeral", nil),
            (
                36, "verification.accessory_npkid.npkid", "verification.accessory_ephemeral",
                "verification.mic_frame2.value"
            ),
            (37, nil, "", "verification.mic_frame3.value"),
        ]
        for item in cases {
            let pasn = try #require(session.pasn(item.frame))
            if let pmkid = item.pmkid {
                #expect(pasn.rsn?.pmkids == [try #require(session.hex(pmkid))], "frame \(item.frame)")
            }
            if !item.key.isEmpty {
                // hostap writes 0x02 || x whatever the parity of y (README, "Independent
                // check"): frame 36's key has y_is_odd = true and still starts with 0x02.
                let x = try #require(session.hex(item.key + ".public.x"))
                let key = pasn.pasnParameters?.ephemeralKey
                #expect(key?.group == 19)
                #expect(key?.publicKey == [0x02] + x, "frame \(item.frame)")
            } else {
                #expect(pasn.pasnParameters?.ephemeralKey == nil, "frame \(item.frame)")
            }
            #expect(pasn.mic?.mic == item.mic.flatMap(session.hex), "frame \(item.frame)")
        }
        // The phone's Auth3 repeats its NIRA (README subtlety 12), which wire_locations omits.
        let auth3 = try #require(session.pasn(37)?.nanElement?.attributes)
        let nira = auth3.compactMap { if case .identityResolution(let a) = $0 { a } else { nil } }
        #expect(nira.map { $0.nonce + $0.tag } == [try #require(session.hex("verification.phone_npkid.npkid"))])
    }

    @Test func bootstrappingMatchesTheTranscript() throws {
        let session = try GoldenSession()
        func npba(_ number: Int) -> [PairingBootstrappingAttribute] {
            session.attributes(ofFrame: number).compactMap {
                if case .pairingBootstrapping(let value) = $0 { value } else { nil }
            }
        }
        func expectMatch(_ number: Int, _ want: [String: Any]) {
            let found = npba(number)
            guard found.count == 1, let value = found.first else {
                Issue.record("frame \(number): \(found.count) NPBA attributes")
                return
            }
            #expect(Int(value.dialogToken) == want["dialog_token"] as? Int, "frame \(number)")
            #expect(value.type.name.lowercased() == want["type"] as? String, "frame \(number)")
            #expect(value.status.name.lowercased() == want["status"] as? String, "frame \(number)")
            #expect(Int(value.reasonCode) == want["reason"] as? Int, "frame \(number)")
            #expect(value.comebackAfter.map(Int.init) == want["comeback_after_tu"] as? Int, "frame \(number)")
            #expect(value.cookie == (want["cookie"] as? String).flatMap(HexString.decode), "frame \(number)")
            let pbm = (want["pbm"] as? String).flatMap { UInt16($0.dropFirst(2), radix: 16) }
            #expect(value.methods.rawValue == pbm, "frame \(number)")
        }
        let exchange = try #require(session.node("bootstrapping.frames") as? [[String: Any]])
        #expect(exchange.map { $0["frame"] as? Int } == [4, 5, 12, 13])
        for step in exchange {
            expectMatch(try #require(step["frame"] as? Int), try #require(step["npba"] as? [String: Any]))
        }
        var rows = 0
        for (index, row) in session.rows.enumerated() {
            guard let want = row["npba"] as? [String: Any] else { continue }
            expectMatch(index + 1, want)
            rows += 1
        }
        #expect(rows == 25)
        #expect(session.string("bootstrapping.pbm_bits.0x0002") == "PIN display")
        #expect(session.string("bootstrapping.pbm_bits.0x0020") == "PIN keypad")
        #expect(npba(13).first?.methods == .pinCodeDisplay)
        #expect(npba(4).first?.methods == .pinCodeKeypad)
        #expect(npba(5).first?.comebackAfter.map(Int.init) == session.int("parameters.bootstrap_comeback_timeout_tu"))
    }

    @Test func discoveryMatchesTheTranscript() throws {
        let session = try GoldenSession()
        let serviceID = try #require(session.string("parameters.service_id").flatMap { ServiceID(hex: $0) })
        #expect(session.string("parameters.service_name").map { ServiceID(serviceName: $0) } == serviceID)
        let multicast = session.string("parameters.nan_network_id_multicast")
        let accessory = session.string("parameters.accessory.nmi")
        let ssi = try #require(session.hex("discovery.ssi_received"))
        #expect(session.hex("parameters.publish_ssi.hex") == ssi)
        let txt = try #require(session.node("parameters.publish_ssi.dns_sd_txt_strings") as? [String])
        var sdfs = 0
        var publishes = 0
        for (index, row) in session.rows.enumerated() {
            let number = index + 1
            guard let sdf = session.sdf(number) else { continue }
            sdfs += 1
            let kind = try #require(row["kind"] as? String)
            let sdas = sdf.attributes.compactMap { if case .serviceDescriptor(let a) = $0 { a } else { nil } }
            #expect(sdas.count == 1, "frame \(number)")
            let sda = try #require(sdas.first)
            #expect(sda.serviceID == serviceID, "frame \(number)")
            #expect(kind.hasPrefix("SDF \(sda.type.name)"), "frame \(number): \(kind) vs \(sda.type.name)")
            // Publish ID and Subscribe ID are both 1; replies and follow-ups name the peer's 1.
            #expect(sda.instanceID == 1, "frame \(number)")
            #expect(sda.requestorInstanceID == (row["ra"] as? String == multicast ? 0 : 1), "frame \(number)")
            #expect(sda.serviceInfo == nil, "frame \(number): the SDA Service Info bit stays 0")
            let sdeas = sdf.attributes.compactMap { if case .serviceDescriptorExtension(let a) = $0 { a } else { nil } }
            guard sda.type == .publish else {
                #expect(sdeas.isEmpty, "frame \(number): only the publish carries an SDEA")
                continue
            }
            publishes += 1
            #expect(row["ta"] as? String == accessory, "frame \(number)")
            let sdea = try #require(sdeas.first, "frame \(number)")
            #expect(sdeas.count == 1 && sdea.instanceID == sda.instanceID, "frame \(number)")
            #expect(sdea.control.rawValue == 0, "frame \(number)")
            let info = try #require(sdea.serviceInfo?.serviceSpecificInfo, "frame \(number)")
            #expect(info.oui == [0x50, 0x6F, 0x9A])
            #expect(Int(info.protocolType.rawValue) == session.int("discovery.srv_proto_type_received"))
            #expect(info.protocolType == .bonjour)
            #expect(info.info == ssi, "frame \(number)")
            let record = try #require(info.txtRecord, "frame \(number)")
            #expect(record.strings.map { String(decoding: $0, as: UTF8.self) } == txt)
            #expect(record["vendorName"] == "Example Inc")
            #expect(record["modelName"] == "Example Model")
            #expect(record["pairingName"] == "My Drone")
        }
        #expect(sdfs == 27)
        #expect(publishes == 14)
        #expect(session.node("parameters.subscribe_ssi") is NSNull)
    }

    @Test func dataPathMatchesTheTranscript() throws {
        let session = try GoldenSession()
        let initiatorNDI = try #require(session.string("ndp.initiator_ndi").flatMap { MACAddress(string: $0) })
        let responderNDI = try #require(session.string("ndp.responder_ndi").flatMap { MACAddress(string: $0) })
        #expect(session.string("parameters.phone.ndi") == initiatorNDI.description)
        #expect(session.string("parameters.accessory.ndi") == responderNDI.description)
        let pmkid = try #require(session.hex("ndp.pmkid"))
        let inonce = try #require(session.hex("ndp.inonce"))
        let rnonce = try #require(session.hex("ndp.rnonce"))
        // README subtlety 15 and ndp.mic_rule: Key Info and Replay Counter of m1-m4.
        let rule = try #require(session.string("ndp.mic_rule"))
        #expect(rule.contains("Key Info m1 0x0088 / m2 0x0108 / m3 0x03c8 / m4 0x0348"))
        #expect(rule.contains("Replay Counter 1,1,2,2"))
        let steps: [(path: String, subtype: NAFSubtype, type: NDPType, status: DataPathStatus, keyInfo: UInt16)] = [
            ("ndp.frames.m1_request", .dataPathRequest, .request, .continued, 0x0088),
            ("ndp.frames.m2_response", .dataPathResponse, .response, .continued, 0x0108),
            ("ndp.frames.m3_confirm", .dataPathConfirm, .confirm, .continued, 0x03C8),
            ("ndp.frames.m4_key_install", .dataPathKeyInstallment, .securityInstall, .accepted, 0x0348),
        ]
        let nonces = [inonce, rnonce, inonce, rnonce]
        let mics: [[UInt8]?] = [
            Array(repeating: 0, count: 16), session.hex("ndp.key_descriptor_mics.m2.value"),
            session.hex("ndp.key_descriptor_mics.m3.value"), session.hex("ndp.key_descriptor_mics.m4.value"),
        ]
        for (index, step) in steps.enumerated() {
            let number = try #require(session.int(step.path))
            #expect(number == 22 + index)
            let naf = try #require(session.naf(number), "frame \(number)")
            #expect(naf.subtype == step.subtype && naf.category == .protectedDualOfPublicAction, "frame \(number)")
            let ndpe = try #require(
                naf.attributes.compactMap { if case .ndpExtension(let a) = $0 { a } else { nil } }.first
            )
            #expect(ndpe.type == step.type && ndpe.status == step.status, "frame \(number)")
            #expect(ndpe.dialogToken == 2 && ndpe.ndpID == 1, "frame \(number)")
            #expect(ndpe.initiatorNDI == initiatorNDI, "frame \(number)")
            #expect(ndpe.responderNDI == (step.type == .response ? responderNDI : nil), "frame \(number)")
            #expect(ndpe.publishID == (step.type == .request ? 1 : nil), "frame \(number)")
            #expect(ndpe.ndpControl.contains(.securityPresent) && ndpe.tlvs.isEmpty, "frame \(number)")
            let skda = try #require(
                naf.attributes.compactMap { if case .sharedKeyDescriptor(let a) = $0 { a } else { nil } }.first
            )
            let key = skda.keyDescriptor
            #expect(skda.publishID == 1)
            #expect(key.keyInformation.rawValue == step.keyInfo, "frame \(number)")
            #expect(key.replayCounter == [1, 1, 2, 2][index], "frame \(number)")
            #expect(key.nonce == nonces[index], "frame \(number)")
            #expect(key.micLayout == .octets16 && key.mic == mics[index], "frame \(number)")
            #expect(key.keyLength == 0 && key.keyData.isEmpty, "frame \(number)")
            guard index < 2 else { continue }
            let csia = naf.attributes.compactMap { if case .cipherSuiteInfo(let a) = $0 { a } else { nil } }
            #expect(csia.first?.cipherSuites.map { Int($0.csid.rawValue) } == [try #require(session.int("ndp.csid"))])
            let scia = naf.attributes.compactMap { if case .securityContextInfo(let a) = $0 { a } else { nil } }
            #expect(scia.first?.identifiers.map(\.identifier) == [pmkid], "frame \(number)")
            let ndl = try #require(naf.attributes.compactMap { if case .ndl(let a) = $0 { a } else { nil } }.first)
            #expect(ndl.dialogToken == 2 && ndl.status == (index == 0 ? .continued : .accepted), "frame \(number)")
        }
    }

    @Test func nikSharedKeyDescriptorsMatchTheTranscript() throws {
        let session = try GoldenSession()
        for side in ["phone_nik", "accessory_nik"] {
            let base = "nik_exchange.\(side)"
            let number = try #require(session.int(base + ".frame"))
            let sdf = try #require(session.sdf(number), "frame \(number)")
            #expect(sdf.category == .protectedDualOfPublicAction)
            let skdas = sdf.attributes.compactMap { if case .sharedKeyDescriptor(let a) = $0 { a } else { nil } }
            #expect(skdas.count == 1)
            let skda = try #require(skdas.first)
            let key = skda.keyDescriptor
            let wrapped = try #require(session.hex(base + ".key_data_wrapped"))
            #expect(Int(skda.publishID) == session.int(base + ".descriptor.publish_id_field"))
            #expect(session.int(base + ".descriptor.descriptor_type") == Int(RSNAKeyDescriptor.ieee80211DescriptorType))
            #expect(key.keyInformation.rawValue == 0x1088)
            #expect(session.string(base + ".descriptor.key_info") == "0x1088")
            #expect(key.keyInformation.contains([.pairwise, .keyAck, .encryptedKeyData]))
            #expect(!key.keyInformation.contains(.keyMIC))
            #expect(key.micLayout == .absent && key.mic.isEmpty)
            #expect(Int(key.keyLength) == session.int(base + ".descriptor.key_length"))
            #expect(key.replayCounter == 0)
            #expect(key.nonce == [UInt8](repeating: 0, count: 32) && key.iv == [UInt8](repeating: 0, count: 16))
            #expect(key.rsc == [UInt8](repeating: 0, count: 8) && key.keyID == [UInt8](repeating: 0, count: 8))
            #expect(key.keyData == wrapped)
            #expect(key.keyData.count == session.int(base + ".descriptor.key_data_length"))
            let octets = session.records[number - 1].frame
            let keyDataOffset = try #require(session.int(base + ".descriptor.key_data_offset_in_frame"))
            #expect(Array(octets.dropFirst(keyDataOffset).prefix(wrapped.count)) == wrapped)
            let skdaOffset = try #require(session.int(base + ".descriptor.skda_offset_in_frame"))
            // The offset names the Shared-Key Descriptor attribute's ID octet (0x24).
            #expect(octets[skdaOffset] == 0x24)
            let attribute = NANAttribute.sharedKeyDescriptor(skda).wireBytes
            #expect(Array(octets.dropFirst(skdaOffset).prefix(attribute.count)) == attribute)
        }
    }
}

/// Regressions for what the golden tests needed from the decoder's descriptions: the SAE
/// messages inside PASN Wrapped Data and the x coordinate of the PASN ephemeral key.
@Suite struct PASNDescriptionRegressionTests {
    @Test func compressedEphemeralKeyListsItsXCoordinate() {
        let compressed = PASNEphemeralKey(group: 19, publicKey: [0x03, 0xAA, 0xBB])
        #expect(compressed.decodedFields.last == DecodedField("x", "X Coordinate", .bytes([0xAA, 0xBB])))
        let uncompressed = PASNEphemeralKey(group: 19, publicKey: [0x04, 0x01, 0x02, 0x03, 0x04])
        #expect(
            uncompressed.decodedFields.suffix(2) == [
                DecodedField("x", "X Coordinate", .bytes([0x01, 0x02])),
                DecodedField("y", "Y Coordinate", .bytes([0x03, 0x04])),
            ]
        )
        let odd = PASNEphemeralKey(group: 19, publicKey: [0x04, 0x01, 0x02, 0x03])
        #expect(!odd.decodedFields.contains { $0.key == "x" })
    }

    /// PASN frame 3 with Wrapped Data `03 00 02 00 00 00 | 01 00 | c1 c2` (SAE confirm,
    /// send-confirm 1) and PASN Parameters `ff 03 64 00 03` (no key, format 3 = SAE).
    @Test func pasnFrameDescribesItsWrappedSAE() throws {
        let body = FrameTestSupport.hex("0700 0300 0000 ff0b08 0300 0200 0000 0100 c1c2 ff0364 0003")
        var reader = WireReader(body, structure: "test")
        let frame = try PASNAuthenticationFrame(from: &reader)
        let confirm = DecodedValue.fields([
            DecodedField("sendConfirm", "Send-Confirm", .unsigned(1)),
            DecodedField("confirm", "Confirm", .bytes([0xC1, 0xC2])),
        ])
        guard case .list(let elements) = frame.decodedFields.last?.value, case .fields(let wrapped) = elements.first
        else {
            Issue.record("no element list")
            return
        }
        guard case .fields(let sae) = wrapped.last?.value, wrapped.last?.key == "sae",
            case .fields(let message) = sae.first?.value
        else {
            Issue.record("wrapped data not described as SAE: \(wrapped)")
            return
        }
        #expect(message.last == DecodedField("confirm", "SAE Confirm", confirm))
        // Format 0 (no wrapped data): the same octets stay described only as octets.
        let plain = FrameTestSupport.hex("0700 0300 0000 ff0b08 0300 0200 0000 0100 c1c2 ff0364 0000")
        var plainReader = WireReader(plain, structure: "test")
        let plainFrame = try PASNAuthenticationFrame(from: &plainReader)
        #expect(!plainFrame.decodedFields.json.serialized.contains("\"sae\""))
    }
}
